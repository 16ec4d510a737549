/**
 * Finds where JSON text first goes wrong. V8's own messages sometimes quote the whole input
 * ("Unexpected token '}', "{...}" is not valid JSON") and sometimes give no position, so the
 * API reports this scanner's reason and position instead and never echoes the body.
 * Iterative, so deeply nested input cannot overflow the stack.
 */
export type JsonErrorLocation = { position: number; line: number; column: number; reason: string };

const WHITESPACE = new Set([" ", "\t", "\n", "\r"]);
const SIMPLE_ESCAPES = new Set(['"', "\\", "/", "b", "f", "n", "r", "t"]);
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const HEX4 = /^[0-9a-fA-F]{4}$/;
const LITERALS = ["true", "false", "null"];

function toLocation(text: string, position: number, reason: string): JsonErrorLocation {
  const before = text.slice(0, position);
  const line = before.split("\n").length;
  const column = position - (before.lastIndexOf("\n") + 1) + 1;
  return { position, line, column, reason };
}

/** Returns undefined when the text is valid JSON. */
export function locateJsonError(text: string): JsonErrorLocation | undefined {
  let i = 0;
  const stack: ("{" | "[")[] = [];
  const fail = (reason: string) => toLocation(text, i, reason);
  const skipWhitespace = () => {
    while (i < text.length && WHITESPACE.has(text[i]!)) i++;
  };

  const readString = (): string | undefined => {
    i++;
    while (i < text.length) {
      const c = text[i]!;
      if (c === '"') {
        i++;
        return undefined;
      }
      if (c === "\\") {
        const next = text[i + 1];
        if (next !== undefined && SIMPLE_ESCAPES.has(next)) i += 2;
        else if (next === "u" && HEX4.test(text.slice(i + 2, i + 6))) i += 6;
        else return "Invalid escape in string";
      } else if (c.charCodeAt(0) < 0x20) {
        return "Control character in string";
      } else {
        i++;
      }
    }
    return "Unterminated string";
  };

  const readKeyAndColon = (): string | undefined => {
    skipWhitespace();
    if (text[i] !== '"') return "Expected a property name in double quotes";
    const stringError = readString();
    if (stringError) return stringError;
    skipWhitespace();
    if (text[i] !== ":") return "Expected ':' after property name";
    i++;
    return undefined;
  };

  let expectValue = true;
  for (;;) {
    skipWhitespace();
    if (expectValue) {
      if (i >= text.length) return fail("Unexpected end of input");
      const c = text[i]!;
      if (c === "{" || c === "[") {
        i++;
        skipWhitespace();
        const close = c === "{" ? "}" : "]";
        if (text[i] === close) {
          i++;
          expectValue = false;
          continue;
        }
        stack.push(c);
        if (c === "{") {
          const keyError = readKeyAndColon();
          if (keyError) return fail(keyError);
        }
        continue;
      }
      if (c === '"') {
        const stringError = readString();
        if (stringError) return fail(stringError);
      } else if (c === "-" || (c >= "0" && c <= "9")) {
        NUMBER.lastIndex = i;
        const match = NUMBER.exec(text);
        if (!match) return fail("Invalid number");
        i += match[0].length;
      } else {
        const literal = LITERALS.find((word) => text.startsWith(word, i));
        if (!literal) return fail("Unexpected character");
        i += literal.length;
      }
      expectValue = false;
      continue;
    }
    const top = stack.at(-1);
    if (!top) return i < text.length ? fail("Unexpected character after the JSON value") : undefined;
    if (i >= text.length) return fail("Unexpected end of input");
    const c = text[i]!;
    if (c === ",") {
      i++;
      if (top === "{") {
        const keyError = readKeyAndColon();
        if (keyError) return fail(keyError);
      }
      expectValue = true;
    } else if ((top === "{" && c === "}") || (top === "[" && c === "]")) {
      i++;
      stack.pop();
    } else {
      return fail(top === "{" ? "Expected ',' or '}'" : "Expected ',' or ']'");
    }
  }
}
