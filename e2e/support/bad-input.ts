import http from "node:http";
import fc from "fast-check";

/**
 * Issue 13 suite 5 ("Bad input"): generators for requests no client should send, and a raw
 * node:http sender with a per-request timeout. Paths, query strings and header values are kept to
 * what Node lets through (header values: tab, 0x20-0x7e, 0x80-0xff; paths: 0x21-0xff), so every
 * generated case reaches the server; everything else (malformed escapes, odd bytes) is left in.
 */

export type BadRequest = { method: string; path: string; headers: Record<string, string>; body?: string };
export type BadAnswer = { status: number; headers: Headers; text: string } | { hang: true } | { reset: string };

/** Percent-encodes what Node refuses in a request line; keeps `%`, so malformed escapes stay malformed. */
export function rawComponent(text: string, keep = /[A-Za-z0-9\-._~!$'()*+,;:@%[\]]/): string {
  let out = "";
  for (const ch of text) {
    if (keep.test(ch)) out += ch;
    else for (const byte of Buffer.from(ch, "utf8")) out += `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

/** A header value Node sends as is: UTF-8 bytes read as Latin-1, control characters dropped. */
export function headerValue(text: string): string {
  return Buffer.from(text, "utf8")
    .toString("latin1")
    .replace(/[^\t\x20-\x7e\x80-\xff]/g, "")
    .trim();
}

const malformedEscapes = fc.constantFrom("%", "%%", "%zz", "%E0%A4%A", "%C0%AF", "%ED%A0%80", "%FF", "%00", "%2", "%25%", "%u0041", "%2e%2e", "..", "%2F", "%5B", "%5D");

const unicodeText = fc.string({ unit: "grapheme", maxLength: 40 });
const anyText = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.string({ unit: "binary", maxLength: 30 }),
  unicodeText,
  fc.constantFrom("", " ", "\u0000", "null", "undefined", "true", "NaN", "Infinity", "-0", "1e3", "1e309", "0x10", "9".repeat(40), "-1", "0", "1.5", "2026-02-30", "2026-13-01T00:00:00Z", "__proto__", "constructor", "' OR 1=1 --", "<script>", "\u202e\ufeff", "💳", "a".repeat(5000)),
  fc.tuple(fc.string({ maxLength: 8 }), malformedEscapes, fc.string({ maxLength: 8 })).map(([a, b, c]) => a + b + c),
);

/** Path ids: random strings, malformed escapes, and near misses of real ids. */
export function pathIdArb(realIds: string[]): fc.Arbitrary<string> {
  const real = fc.constantFrom(...realIds);
  return fc.oneof(
    { weight: 3, arbitrary: anyText.map((s) => rawComponent(s)) },
    { weight: 2, arbitrary: malformedEscapes },
    { weight: 1, arbitrary: fc.tuple(real, malformedEscapes).map(([id, e]) => id + e) },
    { weight: 1, arbitrary: fc.tuple(real, fc.nat({ max: 30 })).map(([id, n]) => id.slice(0, n)) },
    { weight: 1, arbitrary: real.map((id) => id.toUpperCase()) },
    { weight: 1, arbitrary: real.map((id) => `${id}/${id}`) },
    { weight: 1, arbitrary: fc.constant("x".repeat(5000)) },
  );
}

/** Query strings: documented parameters with junk values, unknown and half-bracketed names, repeats, bare `&` and `=`. */
export function queryArb(documented: string[]): fc.Arbitrary<string> {
  const name = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...(documented.length ? documented : ["filter[status]"])) },
    { weight: 1, arbitrary: fc.constantFrom("filter[", "filter]", "filter[status][]", "filter[status][x]", "page[size", "page[]", "page", "filter", "include", "sort", "fields[payment-invoice]", "__proto__", "constructor[prototype]", "", "[]", "%", "%zz") },
    { weight: 1, arbitrary: anyText.map((s) => rawComponent(s)) },
  );
  const value = fc.oneof(
    anyText.map((s) => rawComponent(s)),
    fc.constantFrom("1", "0", "-1", "101", "1000000000000", "1e3", "-0", "1.5", "created", "paid,created", "2026-01-01", "2026-01-01T00:00:00Z", "%", "%zz", "%E0%A4%A", ""),
  );
  const pair = fc.oneof(
    { weight: 6, arbitrary: fc.tuple(name, value).map(([n, v]) => `${n}=${v}`) },
    { weight: 1, arbitrary: name },
    { weight: 1, arbitrary: fc.constantFrom("", "=", "&", "==", "=x", "a=b=c") },
  );
  return fc.oneof(
    { weight: 1, arbitrary: fc.constant("") },
    { weight: 4, arbitrary: fc.array(pair, { minLength: 1, maxLength: 6 }).map((pairs) => `?${pairs.join("&")}`) },
    { weight: 1, arbitrary: fc.constantFrom("?", "??", "?&&&", "?%", "?filter[status]=created&filter[status]=paid", "?page[size]=1&page[size]=2") },
  );
}

const mediaTypes = [
  "application/vnd.api+json",
  "application/vnd.api+json; charset=utf-8",
  "application/vnd.api+json; ext=\"https://example.com/ext\"",
  "application/vnd.api+json; profile=\"https://example.com/p\"",
  "application/vnd.api+json; foo=bar",
  "application/vnd.api+json;",
  "APPLICATION/VND.API+JSON",
  "application/json",
  "application/json; charset=latin1",
  "text/plain",
  "multipart/form-data; boundary=x",
  "application/x-www-form-urlencoded",
  "*/*",
  "application/*",
  "application/vnd.api+json, application/vnd.api+json; ext=x",
  "application/vnd.api+json; q=0",
  "",
];

/** Headers: Content-Type and Accept variants, odd Idempotency-Keys, forged forwarding headers, broken credentials. */
export function headersArb(apiKeys: string[]): fc.Arbitrary<Record<string, string>> {
  const junk = anyText.map(headerValue);
  const mediaType = fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...mediaTypes) }, { weight: 1, arbitrary: junk });
  const authorization = fc.oneof(
    { weight: 12, arbitrary: fc.constantFrom(...apiKeys).map((key) => `Bearer ${key}`) },
    { weight: 1, arbitrary: fc.constantFrom("", "Bearer", "Bearer ", "bearer x", "Basic YTpi", `Bearer pok_${"0".repeat(40)}`) },
    { weight: 1, arbitrary: junk.map((s) => `Bearer ${s}`) },
    { weight: 1, arbitrary: fc.constantFrom(...apiKeys).map((key) => `Bearer ${key}x`) },
  );
  return fc
    .record(
      {
        authorization,
        "content-type": mediaType,
        accept: mediaType,
        "idempotency-key": fc.oneof(junk, fc.constantFrom("", "a".repeat(10_000), "\u00ff\u00fe", "ключ")).map(headerValue),
        "x-forwarded-for": fc.oneof(junk, fc.constantFrom("1.2.3.4, 5.6.7.8", "::1", "999.999.999.999", "unknown", ",,,")),
        "x-forwarded-host": fc.oneof(junk, fc.constantFrom("evil.example", "evil.example:99999", "[::1]")),
        "x-forwarded-proto": fc.constantFrom("https", "gopher", ""),
      },
      { requiredKeys: ["authorization"] },
    )
    .map((headers) => Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, headerValue(v)])));
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Every path into a JSON value, the root included. */
function pathsOf(value: Json, prefix: (string | number)[] = []): (string | number)[][] {
  const out = [prefix];
  if (Array.isArray(value)) value.forEach((v, i) => out.push(...pathsOf(v, [...prefix, i])));
  else if (value && typeof value === "object") for (const [k, v] of Object.entries(value)) out.push(...pathsOf(v, [...prefix, k]));
  return out;
}

function deep(depth: number): Json {
  let value: Json = 1;
  for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { a: value };
  return value;
}

const REMOVE = Symbol("remove");
const junkValue: fc.Arbitrary<Json | typeof REMOVE> = fc.oneof(
  fc.constantFrom<Json | typeof REMOVE>(null, true, false, 0, -0, 1e3, -1, 1.005, 1e308, -1e308, 2 ** 53 + 1, "", " ", "\u0000", "1e3", "-0", "NaN", "12.345", "0.001", "x".repeat(70_000), "é".repeat(300), "💳".repeat(100), [], {}, [null], { __proto__: null } as unknown as Json, REMOVE),
  anyText,
  fc.integer(),
  fc.double(),
  fc.json({ maxDepth: 3 }).map((s) => JSON.parse(s) as Json),
  fc.nat({ max: 3000 }).map(deep),
);

/** A valid body with one spot changed: a wrong type, a huge or odd string, a removed member, an added `__proto__` or unknown key. */
export function nearValidBodyArb(valid: Json): fc.Arbitrary<string> {
  const paths = pathsOf(valid);
  return fc.tuple(fc.constantFrom(...paths), junkValue, fc.constantFrom("replace", "replace", "add-proto", "add-unknown")).map(([path, replacement, how]) => {
    const copy = JSON.parse(JSON.stringify(valid)) as Json;
    if (path.length === 0) return how === "replace" && replacement !== REMOVE ? JSON.stringify(replacement) : JSON.stringify(copy);
    let parent = copy as Record<string | number, Json>;
    for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, Json>;
    const last = path[path.length - 1]!;
    if (how === "replace") {
      if (replacement === REMOVE) {
        if (Array.isArray(parent)) parent.splice(Number(last), 1);
        else delete parent[last];
      } else parent[last] = replacement;
      return JSON.stringify(copy);
    }
    const target = parent[last];
    if (!target || typeof target !== "object" || Array.isArray(target)) return JSON.stringify(copy);
    const text = JSON.stringify(copy);
    const value = replacement === REMOVE ? null : replacement;
    // JSON.stringify drops a __proto__ key set on an object, so the member is written into the text.
    const key = how === "add-proto" ? "__proto__" : "x_unknown";
    const inner = JSON.stringify(target);
    const member = `${JSON.stringify(key)}:${JSON.stringify(value)}${inner === "{}" ? "" : ","}`;
    return text.replace(inner, `{${member}${inner.slice(1)}`);
  });
}

/** Bodies: arbitrary JSON, anything, not JSON at all, very deep, and near-valid mutations of `valid` when there is one. */
export function bodyArb(valid: Json | undefined): fc.Arbitrary<string | undefined> {
  const options: fc.WeightedArbitrary<string | undefined>[] = [
    { weight: 2, arbitrary: fc.json({ maxDepth: 4 }) },
    { weight: 1, arbitrary: fc.anything({ maxDepth: 3 }).map((v) => { try { return JSON.stringify(v) ?? ""; } catch { return ""; } }) },
    { weight: 1, arbitrary: anyText },
    { weight: 1, arbitrary: fc.constantFrom(undefined, "", "{", "[", "null", "{\"data\":", "{\"data\":null}", "{\"data\":[]}", "\u0000", "\ufeff{}", "{\"__proto__\":{\"admin\":true}}", `${"[".repeat(100_000)}`, `{"data":${"[".repeat(20_000)}${"]".repeat(20_000)}}`, "1e3", "-0") },
  ];
  if (valid) options.push({ weight: 6, arbitrary: nearValidBodyArb(valid) });
  return fc.oneof(...options);
}

/** One request over node:http; a timeout counts as a hang, a reset is reported as such. */
export function send(origin: string, request: BadRequest, timeoutMs: number): Promise<BadAnswer> {
  return new Promise((resolve) => {
    let done = false;
    const finish = (answer: BadAnswer) => {
      if (!done) {
        done = true;
        clearTimeout(timer);
        resolve(answer);
      }
    };
    let outgoing: http.ClientRequest;
    try {
      // Node frames a GET's or DELETE's body only when told its length; unframed it would read as a second request.
      const length = request.body === undefined ? {} : { "content-length": String(Buffer.byteLength(request.body)) };
      // A redirect (Next's 308 for a trailing slash) repeats a long generated query in Location and
      // Refresh: read answers the way browsers do, not with Node's 16 KiB header limit.
      outgoing = http.request(`${origin}${request.path}`, { method: request.method, headers: { ...request.headers, ...length }, agent: false, maxHeaderSize: 1024 * 1024 });
    } catch (error) {
      resolve({ reset: `client refused to send: ${(error as Error).message}` });
      return;
    }
    const timer = setTimeout(() => {
      outgoing.destroy();
      finish({ hang: true });
    }, timeoutMs);
    outgoing.on("error", (error) => finish({ reset: error.message }));
    outgoing.on("response", (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("error", (error) => finish({ reset: error.message }));
      response.on("end", () => {
        const headers = new Headers();
        for (const [name, value] of Object.entries(response.headers)) {
          if (typeof value === "string") headers.set(name, value);
          else if (Array.isArray(value)) for (const v of value) headers.append(name, v);
        }
        finish({ status: response.statusCode ?? 0, headers, text: Buffer.concat(chunks).toString("utf8") });
      });
    });
    outgoing.end(request.body);
  });
}

/** Runs `work` over `items` with at most `concurrency` at once. */
export async function inPool<T>(items: T[], concurrency: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, items.length) }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}
