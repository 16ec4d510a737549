import { amountNeedsSourceText } from "@/lib/money";

/**
 * JSON.parse turns `1e3` and `1000` into the same double, and `10.009999999999999999` into 10.01,
 * so a rule about how a number was *written* (the amount: "no exponent", no more decimals than the
 * currency has; REFERENCE "Resources") needs the source text. This walks a
 * document JSON.parse has already accepted and returns the literal of each number found at one of
 * the given paths (the last one for a repeated key, as JSON.parse keeps the last).
 */
type Path = readonly (string | number)[];

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const WHITESPACE = /[ \t\n\r]*/y;

function numberLiteralsAt(text: string, paths: readonly Path[]): Map<string, string> {
  const wanted = new Set(paths.map((path) => JSON.stringify(path)));
  const found = new Map<string, string>();
  // Iterative: a document nested thousands of levels deep must not overflow the stack here
  // (the contract's own depth limit refuses it afterwards, with a pointer).
  const containers: { array: boolean; position: number; key: string }[] = [];
  let index = 0;

  const skipWhitespace = () => {
    WHITESPACE.lastIndex = index;
    WHITESPACE.exec(text);
    index = WHITESPACE.lastIndex;
  };
  const readString = (): string => {
    const start = index;
    index += 1;
    while (text[index] !== '"') index += text[index] === "\\" ? 2 : 1;
    index += 1;
    return JSON.parse(text.slice(start, index)) as string;
  };
  const currentPath = (): (string | number)[] => containers.map((c) => (c.array ? c.position : c.key));
  /** After a member or element: a separator (next one) or the closing bracket (pop, repeat). */
  const afterValue = (): void => {
    for (;;) {
      skipWhitespace();
      const container = containers.at(-1);
      if (!container) return;
      const char = text[index++];
      if (char === ",") {
        if (container.array) container.position += 1;
        else readKey(container);
        return;
      }
      containers.pop();
    }
  };
  const readKey = (container: { key: string }): void => {
    skipWhitespace();
    container.key = readString();
    skipWhitespace();
    index += 1; // ':'
  };

  while (index < text.length) {
    skipWhitespace();
    const char = text[index];
    if (char === undefined) break;
    if (char === "{" || char === "[") {
      index += 1;
      skipWhitespace();
      if (text[index] === (char === "{" ? "}" : "]")) {
        index += 1;
        afterValue();
        continue;
      }
      const container = { array: char === "[", position: 0, key: "" };
      containers.push(container);
      if (!container.array) readKey(container);
      continue;
    }
    if (char === '"') {
      readString();
    } else {
      NUMBER.lastIndex = index;
      const number = NUMBER.exec(text);
      if (number) {
        index = NUMBER.lastIndex;
        const key = JSON.stringify(currentPath());
        if (wanted.has(key)) found.set(key, number[0]);
      } else {
        index += char === "f" ? 5 : 4; // false, true, null
      }
    }
    afterValue();
    if (containers.length === 0) break;
  }
  return found;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

function valueAt(parsed: unknown, path: Path): unknown {
  let at: unknown = parsed;
  for (const segment of path) at = isRecord(at) && Object.hasOwn(at, segment) ? at[segment] : undefined;
  return at;
}

/**
 * Puts back, as a string, every amount at `paths` whose source text says more than its double
 * (`amountNeedsSourceText`: an exponent, or more decimals than any currency has), so the field's
 * own rule refuses it exactly as it refuses the string "1e3" or "2.000" (same code, same message),
 * alongside every other problem of the body.
 */
export function keepAmountLiterals(parsed: unknown, text: string, paths: readonly Path[]): unknown {
  // Neither an exponent nor three decimals anywhere in the body: no amount needs its text.
  if (paths.length === 0 || !/\d[eE]|\.\d{3}/.test(text)) return parsed;
  // Nor when no path holds a number (amounts sent as strings, as most clients do): nothing to put back.
  if (!paths.some((path) => typeof valueAt(parsed, path) === "number")) return parsed;
  for (const [key, literal] of numberLiteralsAt(text, paths)) {
    if (!amountNeedsSourceText(literal)) continue;
    const path = JSON.parse(key) as (string | number)[];
    let parent: unknown = parsed;
    for (const segment of path.slice(0, -1)) {
      parent = isRecord(parent) && Object.hasOwn(parent, segment) ? parent[segment] : undefined;
    }
    const last = path.at(-1)!;
    if (isRecord(parent) && Object.hasOwn(parent, last) && typeof parent[last] === "number") parent[last] = literal;
  }
  return parsed;
}
