import { createHmac } from "node:crypto";
import http from "node:http";
import fc from "fast-check";

/**
 * The bad-input suite: generators for requests no client should send, and a raw
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

const malformedEscapes = fc.constantFrom(
  "%",
  "%%",
  "%zz",
  "%E0%A4%A",
  "%C0%AF",
  "%ED%A0%80",
  "%FF",
  "%00",
  "%2",
  "%25%",
  "%u0041",
  "%2e%2e",
  "..",
  "%2F",
  "%5B",
  "%5D",
);

/**
 * Words every parser meets sooner or later. They are public (the client bundles hold "Infinity" and
 * "constructor"), so the leak scan does not take one typed into a secret field for a secret.
 */
export const HOSTILE_WORDS: readonly string[] = [
  "",
  " ",
  "\u0000",
  "null",
  "undefined",
  "true",
  "NaN",
  "Infinity",
  "-0",
  "1e3",
  "1e309",
  "0x10",
  "9".repeat(40),
  "-1",
  "0",
  "1.5",
  "2026-02-30",
  "2026-13-01T00:00:00Z",
  "__proto__",
  "constructor",
  "' OR 1=1 --",
  "<script>",
  "\u202e\ufeff",
  "💳",
  "a".repeat(5000),
];

const unicodeText = fc.string({ unit: "grapheme", maxLength: 40 });
const anyText = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.string({ unit: "binary", maxLength: 30 }),
  unicodeText,
  fc.constantFrom(...HOSTILE_WORDS),
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
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        "filter[",
        "filter]",
        "filter[status][]",
        "filter[status][x]",
        "page[size",
        "page[]",
        "page",
        "filter",
        "include",
        "sort",
        "fields[payment-invoice]",
        "__proto__",
        "constructor[prototype]",
        "",
        "[]",
        "%",
        "%zz",
      ),
    },
    { weight: 1, arbitrary: anyText.map((s) => rawComponent(s)) },
  );
  const value = fc.oneof(
    anyText.map((s) => rawComponent(s)),
    fc.constantFrom(
      "1",
      "0",
      "-1",
      "101",
      "1000000000000",
      "1e3",
      "-0",
      "1.5",
      "created",
      "paid,created",
      "2026-01-01",
      "2026-01-01T00:00:00Z",
      "%",
      "%zz",
      "%E0%A4%A",
      "",
    ),
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
  'application/vnd.api+json; ext="https://example.com/ext"',
  'application/vnd.api+json; profile="https://example.com/p"',
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
  // The invoice lists' CSV (lib/invoices/export): the same query parameters, read and refused alike.
  "text/csv",
  "text/csv, application/vnd.api+json; q=0.5",
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
  fc.constantFrom<Json | typeof REMOVE>(
    null,
    true,
    false,
    0,
    -0,
    1e3,
    -1,
    1.005,
    1e308,
    -1e308,
    2 ** 53 + 1,
    "",
    " ",
    "\u0000",
    "1e3",
    "-0",
    "NaN",
    "12.345",
    "0.001",
    "x".repeat(70_000),
    "é".repeat(300),
    "💳".repeat(100),
    [],
    {},
    [null],
    { __proto__: null } as unknown as Json,
    REMOVE,
  ),
  anyText,
  fc.integer(),
  fc.double(),
  fc.json({ maxDepth: 3 }).map((s) => JSON.parse(s) as Json),
  fc.nat({ max: 3000 }).map(deep),
);

/** A valid body with one spot changed: a wrong type, a huge or odd string, a removed member, an added `__proto__` or unknown key. */
function nearValidBodyArb(valid: Json): fc.Arbitrary<string> {
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
    {
      weight: 1,
      arbitrary: fc.anything({ maxDepth: 3 }).map((v) => {
        try {
          return JSON.stringify(v) ?? "";
        } catch {
          return "";
        }
      }),
    },
    { weight: 1, arbitrary: anyText },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        undefined,
        "",
        "{",
        "[",
        "null",
        '{"data":',
        '{"data":null}',
        '{"data":[]}',
        "\u0000",
        "\ufeff{}",
        '{"__proto__":{"admin":true}}',
        `${"[".repeat(100_000)}`,
        `{"data":${"[".repeat(20_000)}${"]".repeat(20_000)}}`,
        "1e3",
        "-0",
      ),
    },
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
      // A redirect (Next's 308 for a page's trailing slash) repeats a long generated query in Location and
      // Refresh: read answers the way browsers do, not with Node's 16 KiB header limit.
      outgoing = http.request(`${origin}${request.path}`, {
        method: request.method,
        headers: { ...request.headers, ...length },
        agent: false,
        maxHeaderSize: 1024 * 1024,
      });
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

/**
 * Spaces requests out to at most `perSecond` on average. The public routes (the hosted page's Pay,
 * its status poll, provider callbacks) share one per-address limit of 100 a second, and every
 * spec's requests come from 127.0.0.1: a flood above it would answer the other worker's specs 429.
 */
export function pacer(perSecond: number): () => Promise<void> {
  const gapMs = 1000 / perSecond;
  let next = Date.now();
  return async () => {
    const now = Date.now();
    const at = Math.max(now, next);
    next = at + gapMs;
    if (at > now) await new Promise((resolve) => setTimeout(resolve, at - now));
  };
}

/** The hosted page's card form (lib/pay/page/render.ts): the four fields its script posts as JSON, or the form posts without it. */
type CardForm = { number: string; expiry: string; cvc: string; holder: string };

/**
 * A card form every check passes, with a test card the sandboxes decline or fail softly
 * (lib/sandbox/cards.ts): a near-valid form whose change happens to be harmless reaches a
 * provider and leaves an attempt, but never pays the invoice.
 */
function validCardArb(now: Date = new Date()): fc.Arbitrary<CardForm> {
  const expiry = `${String(now.getUTCMonth() + 1).padStart(2, "0")}/${String((now.getUTCFullYear() + 2) % 100).padStart(2, "0")}`;
  return fc.record({
    number: fc.constantFrom("4000000000000002", "4000 0000 0000 0002", "4000000000009995", "4000-0000-0000-9995", "4000000000000119"),
    expiry: fc.constantFrom(expiry, ` ${expiry.replace("/", " / ")} `),
    cvc: fc.constantFrom("123", "1234", "000"),
    holder: fc.constantFrom("Test Holder", "Taras Shevchenko", "Zoë O'Brien-Łukasz"),
  });
}

/** Form encoding as a browser writes it (spaces as `+`). */
function formEncode(values: Record<string, string>): string {
  return new URLSearchParams(values).toString();
}

/** A form-encoded card with one field wrong, removed, repeated, or written with malformed escapes; or an unknown field added. */
function nearValidFormArb(valid: CardForm): fc.Arbitrary<string> {
  const names = Object.keys(valid) as (keyof CardForm)[];
  const junk = fc.oneof(
    anyText,
    fc.constantFrom("", " ", "0", "4242", "13/99", "00/00", "12/", "4000 0000 0000 0003", "12345678901234567890", "a".repeat(9000)),
  );
  return fc.tuple(fc.constantFrom(...names), junk, fc.constantFrom("replace", "replace", "remove", "repeat", "raw", "add", "nul")).map(([name, value, how]) => {
    const entries = Object.entries(valid);
    switch (how) {
      case "replace":
        return formEncode({ ...valid, [name]: value });
      case "remove":
        return formEncode(Object.fromEntries(entries.filter(([key]) => key !== name)));
      case "repeat":
        return `${formEncode(valid)}&${formEncode({ [name]: value })}`;
      case "raw":
        // Not encoded by URLSearchParams: `%` stays, so malformed escapes reach the server as sent.
        return entries.map(([key, v]) => `${key}=${key === name ? rawComponent(value) : encodeURIComponent(v)}`).join("&");
      case "add":
        return `${formEncode(valid)}&${rawComponent(value) || "x"}=1`;
      default:
        return entries.map(([key, v]) => `${key}=${key === name ? `${encodeURIComponent(v)}%00` : encodeURIComponent(v)}`).join("&");
    }
  });
}

const payMediaTypes = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.constantFrom(
      "application/json",
      "application/json; charset=utf-8",
      "application/vnd.api+json",
      "application/problem+json",
      "APPLICATION/JSON",
      " application/json ; x=y",
    ),
  },
  {
    weight: 4,
    arbitrary: fc.constantFrom("application/x-www-form-urlencoded", "application/x-www-form-urlencoded; charset=UTF-8", "Application/X-WWW-Form-Urlencoded"),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      ...mediaTypes,
      "text/json",
      "application/jsonx",
      "json",
      "application/+json",
      "multipart/form-data; boundary=----x",
      "text/html",
    ),
  },
  { weight: 1, arbitrary: anyText.map(headerValue) },
);

/** Origin headers: none (an old browser, curl), this site, other sites, and values that are no origin at all. */
export function originArb(own: string): fc.Arbitrary<string | undefined> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.constant(undefined) },
    { weight: 4, arbitrary: fc.constant(own) },
    {
      weight: 3,
      arbitrary: fc.constantFrom(
        "null",
        "",
        "http://evil.example",
        "https://evil.example",
        own.replace("127.0.0.1", "localhost"),
        own.replace(/:\d+$/, ":1"),
        `${own}.evil.example`,
        `${own}/`,
        `${own}@evil.example`,
        "http://[::1]",
        "file://",
        own.toUpperCase(),
        `${own}:80`,
      ),
    },
    { weight: 1, arbitrary: anyText.map(headerValue) },
  );
}

/**
 * A request body for the hosted page's Pay with the Content-Type it goes with: mostly near-valid
 * JSON or form cards (one field wrong), sometimes garbage, sometimes a card under a type that does not fit.
 */
export function payBodyArb(): fc.Arbitrary<{ contentType: string | undefined; body: string | undefined }> {
  const jsonType = fc.constantFrom("application/json", "application/json", "application/json; charset=utf-8", "application/vnd.api+json");
  const formType = fc.constantFrom("application/x-www-form-urlencoded", "application/x-www-form-urlencoded; charset=UTF-8");
  return fc.oneof(
    { weight: 5, arbitrary: validCardArb().chain((card) => fc.record({ contentType: jsonType, body: nearValidBodyArb(card) })) },
    { weight: 4, arbitrary: validCardArb().chain((card) => fc.record({ contentType: formType, body: nearValidFormArb(card) })) },
    { weight: 1, arbitrary: validCardArb().map((card) => ({ contentType: "application/json", body: JSON.stringify(card) })) },
    { weight: 1, arbitrary: validCardArb().map((card) => ({ contentType: "application/x-www-form-urlencoded", body: formEncode(card) })) },
    { weight: 2, arbitrary: fc.record({ contentType: fc.option(payMediaTypes, { nil: undefined }), body: bodyArb(undefined) }) },
    {
      weight: 2,
      arbitrary: validCardArb().chain((card) =>
        fc.record({ contentType: fc.option(payMediaTypes, { nil: undefined }), body: fc.constantFrom(JSON.stringify(card), formEncode(card)) }),
      ),
    },
  );
}

/**
 * Provider callbacks (lib/providers/<slug>/callbacks.ts): each provider's notification envelope
 * about a charge, and its signature scheme. The references are random, so no attempt matches and
 * even a correctly signed one changes nothing.
 */
export const CALLBACK_SLUGS = ["provider-a", "provider-b", "provider-c", "provider-d", "provider-e", "provider-f"] as const;
type CallbackSlug = (typeof CALLBACK_SLUGS)[number];

function callbackEnvelope(slug: CallbackSlug, notificationId: string, timestamp: number, txn: string, ref: string): Json {
  const at = new Date(timestamp * 1000).toISOString();
  switch (slug) {
    case "provider-a":
      return {
        event_id: notificationId,
        type: "transaction.updated",
        created_at: at,
        transaction: { status: "approved", transaction_id: txn, request_id: ref, currency: "UAH", amount_processed: "12.50" },
      };
    case "provider-b":
      return { event: "charge.updated", txn, order_ref: ref, result: "ok", cur: "EUR", captured_sum: "12.50" };
    case "provider-c":
      return { callback_id: notificationId, order: { id: txn, shop_order_id: ref, state: "PAID", paid_minor: 1250 } };
    case "provider-d":
      return {
        method: "transaction.notify",
        params: { notify_id: notificationId, transaction: { transaction_id: ref, payment_id: txn, state: 2, captured_amount: 1250, reject_code: null } },
      };
    case "provider-e":
      return {
        notificationId,
        eventCode: "PAYMENT_UPDATE",
        eventDate: at,
        payment: {
          paymentId: txn,
          merchantReference: ref,
          resultCode: "Authorised",
          amount: { value: "12.50", currency: "EUR" },
          capturedAmount: { value: "12.50", currency: "EUR" },
        },
      };
    case "provider-f":
      return {
        id: notificationId,
        object: "event",
        type: "charge.updated",
        created: timestamp,
        data: { object: { id: txn, object: "charge", status: "succeeded", amount_captured: 1250, reference: ref } },
      };
  }
}

/**
 * The signature headers as the provider sends them over `rawBody`. B, C, D and F key an HMAC with
 * the connection's secret, which the merchant (and so this test) holds. A and E sign with their
 * own Ed25519 key, which no one but the provider holds: for them `secret` only varies the forgery.
 */
function callbackHeaders(slug: CallbackSlug, secret: string, notificationId: string, timestamp: number, rawBody: string): Record<string, string> {
  const mac = (algorithm: string, text: string, encoding: "hex" | "base64" = "hex") => createHmac(algorithm, secret).update(text, "utf8").digest(encoding);
  const forged = createHmac("sha512", secret).update(rawBody, "utf8").digest("base64");
  switch (slug) {
    case "provider-a":
      return { "x-a-event-id": notificationId, "x-a-timestamp": String(timestamp), "x-a-signature": forged };
    case "provider-b":
      return {
        "x-notification-id": notificationId,
        "x-notification-signature": `t=${timestamp},v1=${mac("sha256", `${timestamp}.${notificationId}.${rawBody}`)}`,
      };
    case "provider-c":
      return {
        "x-callback-id": notificationId,
        "x-callback-time": String(timestamp),
        "x-callback-signature": mac("sha256", `${notificationId}|${timestamp}|${rawBody}`, "base64"),
      };
    case "provider-d":
      return { "notify-id": notificationId, "notify-time": String(timestamp), sign: mac("sha512", `${notificationId}:${timestamp}:${rawBody}`) };
    case "provider-e":
      return { "x-e-notification-id": notificationId, "x-e-timestamp": String(timestamp), "x-e-signature": `ed25519=${forged}` };
    case "provider-f":
      return {
        "x-event-id": notificationId,
        "x-event-timestamp": String(timestamp),
        "x-event-signature": `sha256=${mac("sha256", `${notificationId}\n${timestamp}\n${rawBody}`)}`,
      };
  }
}

/** Providers whose callbacks this test can sign as the provider would (see callbackHeaders). */
const SIGNABLE_SLUGS: readonly CallbackSlug[] = ["provider-b", "provider-c", "provider-d", "provider-f"];

/** What a generated callback is meant to be, so the answer can be judged: signed as the provider would, or not. */
export type CallbackCase = { slug: string; connectionId: string; headers: Record<string, string>; body: string | undefined; signed: boolean; how: string };

/** Notification ids: the providers' short ones, and ones no provider sends (very long, odd characters). */
const notificationIdArb = fc.oneof(
  { weight: 8, arbitrary: fc.uint8Array({ minLength: 6, maxLength: 6 }).map((bytes) => `ntf_${Buffer.from(bytes).toString("hex")}`) },
  // Long ones: repeated text that compresses, and random text that does not (an index entry holds about 2.7 kB).
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.nat({ max: 12_000 }), fc.uint8Array({ minLength: 4, maxLength: 4 }))
      .map(([n, bytes]) => `${Buffer.from(bytes).toString("hex")}${"n".repeat(n)}`),
  },
  { weight: 1, arbitrary: fc.uint8Array({ minLength: 4, maxLength: 6000 }).map((bytes) => Buffer.from(bytes).toString("hex")) },
  // Header values beyond ASCII have no agreed encoding (the server reads them byte by byte), and no provider sends one.
  {
    weight: 1,
    arbitrary: fc
      .tuple(
        fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)), maxLength: 30 }),
        fc.uint8Array({ minLength: 4, maxLength: 4 }),
      )
      .map(([text, bytes]) => `${text.trim()}${Buffer.from(bytes).toString("hex")}`),
  },
);

/**
 * One callback to `slug` at `connectionId`: correctly signed near-valid notifications (one spot of
 * the envelope changed before signing), forged, tampered, stale or unsigned ones, garbage bodies
 * and form bodies, with signature headers of this provider or another.
 */
export function callbackCaseArb(slug: string, connectionId: string, secret: string | undefined): fc.Arbitrary<CallbackCase> {
  // The slug as the route reads it (`provider-%66` is provider-f).
  let decoded: string | undefined;
  try {
    decoded = decodeURIComponent(slug);
  } catch {
    decoded = undefined;
  }
  const known = (CALLBACK_SLUGS as readonly string[]).includes(decoded ?? "") ? (decoded as CallbackSlug) : "provider-f";
  const canSign = secret !== undefined && SIGNABLE_SLUGS.includes(known) && known === decoded;
  const key = secret ?? "not-the-secret";
  const refs = fc
    .tuple(fc.uint8Array({ minLength: 8, maxLength: 8 }), fc.uint8Array({ minLength: 8, maxLength: 8 }))
    .map(([a, b]) => [`fz_${Buffer.from(a).toString("hex")}`, `fz_${Buffer.from(b).toString("hex")}`] as const);
  const now = () => Math.floor(Date.now() / 1000);
  const json = { "content-type": "application/json" };
  const base = fc.record({ id: notificationIdArb, refs });
  const mutated = base.chain(({ id, refs: [txn, ref] }) => {
    const timestamp = now();
    return nearValidBodyArb(callbackEnvelope(known, id, timestamp, txn, ref)).map((rawBody) => ({
      id,
      timestamp,
      rawBody,
      valid: JSON.stringify(callbackEnvelope(known, id, timestamp, txn, ref)),
    }));
  });
  const options: fc.WeightedArbitrary<CallbackCase>[] = [
    // Signed the way the provider signs (A and E: forged, as no one else can sign for them).
    {
      weight: 6,
      arbitrary: mutated.map(({ id, timestamp, rawBody }) => ({
        slug,
        connectionId,
        headers: { ...json, ...callbackHeaders(known, key, id, timestamp, rawBody) },
        body: rawBody,
        signed: canSign,
        how: "signed",
      })),
    },
    // Signed with another secret.
    {
      weight: 2,
      arbitrary: mutated.map(({ id, timestamp, rawBody }) => ({
        slug,
        connectionId,
        headers: { ...json, ...callbackHeaders(known, `${key}x`, id, timestamp, rawBody) },
        body: rawBody,
        signed: false,
        how: "wrong secret",
      })),
    },
    // The valid notification signed, then one spot of it changed in transit.
    {
      weight: 2,
      arbitrary: mutated
        .filter(({ rawBody, valid }) => rawBody !== valid)
        .map(({ id, timestamp, rawBody, valid }) => ({
          slug,
          connectionId,
          headers: { ...json, ...callbackHeaders(known, key, id, timestamp, valid) },
          body: rawBody,
          signed: false,
          how: "tampered",
        })),
    },
    // Signed an hour ago, or an hour ahead: outside the five-minute window.
    {
      weight: 1,
      arbitrary: fc.tuple(mutated, fc.constantFrom(-3600, 3600, -301, 10 ** 9)).map(([{ id, timestamp, rawBody }, shift]) => ({
        slug,
        connectionId,
        headers: { ...json, ...callbackHeaders(known, key, id, timestamp + shift, rawBody) },
        body: rawBody,
        signed: false,
        how: "stale",
      })),
    },
    // Signature headers with junk values, some left out, or another provider's.
    {
      weight: 2,
      arbitrary: fc
        .tuple(mutated, fc.constantFrom(...CALLBACK_SLUGS), fc.array(fc.tuple(fc.nat({ max: 2 }), anyText.map(headerValue)), { maxLength: 3 }), fc.boolean())
        .map(([{ id, timestamp, rawBody }, other, changes, drop]) => {
          const headers: Record<string, string> = { ...json, ...callbackHeaders(other, key, id, timestamp, rawBody) };
          const names = Object.keys(headers).filter((name) => name !== "content-type");
          for (const [index, value] of changes) headers[names[index % names.length]!] = value;
          if (drop) delete headers[names[0]!];
          // Left as the provider signs it only when nothing was changed or dropped.
          return { slug, connectionId, headers, body: rawBody, signed: canSign && other === known && changes.length === 0 && !drop, how: "junk headers" };
        }),
    },
    // Garbage bodies, signed when the provider's scheme allows it: the parser behind the signature gets them too.
    {
      weight: 3,
      arbitrary: fc
        .tuple(bodyArb(undefined), notificationIdArb, fc.option(fc.constantFrom(...mediaTypes, "application/x-www-form-urlencoded"), { nil: undefined }))
        .map(([rawBody, id, type]) => ({
          slug,
          connectionId,
          headers: { ...(type === undefined ? {} : { "content-type": type }), ...callbackHeaders(known, key, id, now(), rawBody ?? "") },
          body: rawBody,
          signed: canSign,
          how: "garbage",
        })),
    },
    // The notification as a form instead of JSON.
    {
      weight: 1,
      arbitrary: base.map(({ id, refs: [txn, ref] }) => {
        const timestamp = now();
        const flat = Object.fromEntries(
          Object.entries(callbackEnvelope(known, id, timestamp, txn, ref) as Record<string, Json>).map(([name, value]) => [
            name,
            typeof value === "string" ? value : JSON.stringify(value),
          ]),
        );
        const rawBody = formEncode(flat);
        return {
          slug,
          connectionId,
          headers: { "content-type": "application/x-www-form-urlencoded", ...callbackHeaders(known, key, id, timestamp, rawBody) },
          body: rawBody,
          signed: canSign,
          how: "form",
        };
      }),
    },
  ];
  return fc.oneof(...options);
}
