/**
 * Whether a POST body is a server action call React can decode: its argument list as the JSON of
 * React's reply format, either the whole text body or, when the arguments hold files, the field
 * "0" of a multipart body whose other fields are the parts it refers to. Next decodes it with
 * React and answers any failure with a 500, so what would fail is refused here: a root that is no
 * JSON array, a reference to a part the body does not carry (or of the wrong kind), a part that is
 * no JSON, a BigInt that is no integer or over React's 300 digits. Anything else is React's to
 * read; this is a narrow guard, not a second decoder.
 */

type Parts = { text: (id: string) => string | undefined; file: (id: string) => boolean; has: (id: string) => boolean };

/**
 * The second character of a `$` string: tags of values that name no part (`$$` an escaped dollar,
 * `$D` a date, `$n` a BigInt, `$K` a FormData by prefix…); tags whose id names a part holding more
 * JSON (`$@1`, `$Q1`…), a file (`$B1`, typed arrays) or a stream. Any other character starts the
 * id of a JSON part itself (`$1`, `$a:b`), which React reads with parseInt(…, 16), as here.
 */
const NO_PART_TAGS = new Set(["$", "H", "T", "K", "I", "-", "N", "u", "D", "n"]);
const MODEL_TAGS = new Set(["@", "h", "Q", "W", "i"]);
const FILE_TAGS = new Set(["B", "A", "O", "o", "U", "S", "s", "L", "l", "G", "g", "M", "m", "V"]);
const STREAM_TAGS = new Set(["R", "r", "X", "x"]);
const BIGINT_MAX_DIGITS = 300;

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

function callIsWellFormed(root: string, parts: Parts): boolean {
  const parsed = parseJson(root);
  if (!parsed.ok || !Array.isArray(parsed.value)) return false;
  // The root is part "0" (a reference may point back at it).
  const walked = new Set<string>(["0"]);
  const pending: unknown[] = [parsed.value];
  while (pending.length > 0) {
    const value = pending.pop();
    // One push per member: spreading an array of a few hundred thousand would overflow the stack.
    if (value && typeof value === "object") for (const member of Object.values(value)) pending.push(member);
    else if (typeof value === "string" && value.startsWith("$")) {
      if (value[1] === "n" && !new RegExp(`^\\$n-?\\d{1,${BIGINT_MAX_DIGITS}}$`).test(value)) return false;
      const tag = value.charAt(1);
      if (NO_PART_TAGS.has(tag)) continue;
      const tagged = MODEL_TAGS.has(tag) || FILE_TAGS.has(tag) || STREAM_TAGS.has(tag);
      const number = Number.parseInt((tagged ? value.slice(2) : value.slice(1)).split(":")[0]!, 16);
      if (Number.isNaN(number)) return false;
      const id = String(number);
      if (FILE_TAGS.has(tag)) {
        if (!parts.file(id)) return false;
      } else if (STREAM_TAGS.has(tag)) {
        if (!parts.has(id)) return false;
      } else if (!walked.has(id)) {
        walked.add(id);
        const text = parts.text(id);
        const part = text === undefined ? { ok: false as const } : parseJson(text);
        if (!part.ok) return false;
        pending.push(part.value);
      }
    }
  }
  return true;
}

/** A text body: the argument list alone, no parts to refer to. */
export function isActionCallText(text: string): boolean {
  return callIsWellFormed(text, { text: () => undefined, file: () => false, has: () => false });
}

/** A multipart body: the argument list in field "0", the parts it refers to in the other fields. */
export function isActionCallForm(form: FormData): boolean {
  const root = form.get("0");
  if (typeof root !== "string") return false;
  return callIsWellFormed(root, {
    text: (id) => {
      const value = form.get(id);
      return typeof value === "string" ? value : undefined;
    },
    file: (id) => form.get(id) instanceof Blob,
    has: (id) => form.has(id),
  });
}
