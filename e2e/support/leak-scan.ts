/**
 * The secrets scan: every secret and full card number an end-to-end run used, searched
 * for in everything the run left behind (lib/e2e-record.ts records it): every response body the
 * server sent (HTML, RSC, JSON, action results), the server's log lines, every row of every table
 * (pg-boss's jobs included) and the built client bundles. Pure functions over files, so a unit test
 * (lib/e2e-record.test.ts) can plant a secret and see it reported.
 *
 * What counts as a secret, and where it comes from:
 * - given: what the run configures (AUTH_SECRET, the vault key, the specs' password, test cards);
 * - typed: every value the client sent in a field named like a password, secret, private key, API
 *   key or card number (form posts, server actions, API bodies, the adapters' calls to the
 *   sandboxes), and every 15–16-digit Luhn-valid number it sent (card numbers);
 * - stored: every credential in the vault, decrypted with the run's key (connection secrets, webhook
 *   signing secrets);
 * - shown once: every API key (`pok_…`) and webhook secret (`whsec_…`) the server answered with.
 *   Each may appear in exactly one answer, the server action's that made it, and nowhere else.
 * Secrets are searched for minus their last four characters (pages show `••••abcd` by design),
 * private keys by the lines of their PEM body, card numbers as their digits and as people write
 * them: groups of four, Amex's 4-6-5 and Diners' 4-6-4, split by spaces or by dashes. Values too
 * short to search without false alarms (under 8 characters) are counted, not searched.
 * Every answer is searched twice: its body and its response headers (a Location, a Set-Cookie).
 * Three allowances, all for the sandbox test cards of lib/sandbox/cards.ts and no other number,
 * each in its exact markup only: the table in the client bundle (`number:"4242…",label:"…"`), the
 * hosted page's "Test cards" list (`data-test-card="4242 4242 4242 4242"` and the number shown
 * on its button) in the hosted page's own answers, GET /pay/{id} and POST /pay/{id}/pay (whose
 * JSON carries the page's payment part as HTML), and the API description's notes on test disputes
 * and on 3-D Secure by rule (DISPUTE_TEST_NOTE, THREE_DS_TEST_NOTE, their exact sentences) in the
 * description's own answers, the OpenAPI document and the reference pages. Anywhere else, in any form, a card number is a hit.
 */
import fs from "node:fs";
import path from "node:path";
import { readFrames, type RecordFrame } from "./leak-frames";
import { decryptJson, decryptSecret } from "../../lib/vault";
import { DISPUTE_TEST_NOTE, TEST_CARDS, THREE_DS_TEST_NOTE } from "../../lib/sandbox/cards";
import { HOSTILE_WORDS } from "./bad-input";
import { CARD_RUN, cardDigits, isSecretValue, luhn, SECRET_FIELD, SHOWN_ONCE } from "../../lib/redaction/rules";

type SecretKind = "secret" | "card" | "shown-once";
export type Secret = { value: string; kind: SecretKind; source: string };
type Hit = { where: string; secret: string; context: string };
export type ScanReport = {
  files: number;
  bytes: number;
  secrets: number;
  cards: number;
  needles: number;
  tooShort: number;
  allowed: number;
  hits: Hit[];
  places: Record<string, number>;
  ms: number;
};

const MIN_NEEDLE = 8;
const PREFIX = 8;

const CARD_CODE_FIELD = /^(?:\d+_)?(?:cvc|cvv)2?$/i;
const CARD_NUMBER_FIELD = /^(?:\d+_)?(?:card_?number|cardnumber|number|pan)$/i;

/** A value typed into a secret field: a card number when it is one, else a secret (lib/redaction/rules.ts decides which values are). */
function typed(value: string, field: string, source: string): Secret[] {
  const card = cardDigits(value);
  if (card) return [{ value: card, kind: "card", source }];
  // The bad-input suite types public words ("Infinity", "constructor") into every field.
  if (!isSecretValue(field, value) || HOSTILE_WORDS.includes(value)) return [];
  // A card's code is 3 or 4 digits (too short to search: counted). Anything else typed there, such as
  // the card-shaped text the hosted page's fuzz sends, is no card's code, and the Pay refuses it.
  if (CARD_CODE_FIELD.test(field) && !/^\d{3,4}$/.test(value)) return [];
  // Digits in a card number field that fail the card check (above) are no card number: the Pay refuses
  // them, and searched as a secret their first digits would match every test card the pages show.
  if (CARD_NUMBER_FIELD.test(field) && /^[\d -]+$/.test(value)) return [];
  return [{ value, kind: "secret", source: `${source} ${field}` }];
}

function fromObject(value: unknown, source: string, out: Secret[], field = "", depth = 0): void {
  if (depth > 12) return;
  if (typeof value === "string") {
    // Server action arguments travel in React's reply format: "$undefined", "$K1" are references,
    // and a string that really starts with "$" is sent as "$$…".
    if (value.startsWith("$") && !value.startsWith("$$")) return;
    if (SECRET_FIELD.test(field)) out.push(...typed(value.startsWith("$$") ? value.slice(1) : value, field, source));
  } else if (Array.isArray(value)) {
    for (const item of value) fromObject(item, source, out, field, depth + 1);
  } else if (value && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) fromObject(v, source, out, k, depth + 1);
  }
}

/** Secrets in one request body: JSON (API calls, server actions), form posts (url-encoded, multipart). */
export function secretsInRequest(body: string, type: string, source: string): Secret[] {
  const out: Secret[] = [];
  for (const match of body.matchAll(CARD_RUN)) if (luhn(match[0])) out.push({ value: match[0], kind: "card", source: `${source} (digits)` });
  if (/json|text\/plain/i.test(type) || /^\s*[[{]/.test(body)) {
    try {
      fromObject(JSON.parse(body), source, out);
    } catch {
      // not JSON after all
    }
  }
  if (/x-www-form-urlencoded/i.test(type)) for (const [k, v] of new URLSearchParams(body)) if (SECRET_FIELD.test(k)) out.push(...typed(v, k, source));
  if (/multipart\/form-data/i.test(type)) {
    for (const match of body.matchAll(/name="([^"]*)"(?:; filename="[^"]*")?\r\n(?:[^\r\n]+\r\n)*\r\n([\s\S]*?)\r\n--/g)) {
      const [, name, value] = match as unknown as [string, string, string];
      if (SECRET_FIELD.test(name)) out.push(...typed(value, name, source));
      // A server action's argument travels as one JSON part.
      else if (/^\s*[[{]/.test(value)) {
        try {
          fromObject(JSON.parse(value), source, out);
        } catch {
          // plain text
        }
      }
    }
  }
  return out;
}

export function cardSecrets(numbers: readonly string[], source: string): Secret[] {
  return numbers.map((number) => ({ value: number.replace(/\D/g, ""), kind: "card" as const, source }));
}

/** Every credential in the vault: connections' secret credentials and webhook signing secrets. */
function secretsInVault(tables: Map<string, string[]>, key: Buffer): { secrets: Secret[]; sealed: number } {
  const secrets: Secret[] = [];
  let sealed = 0;
  for (const line of tables.get("public.connections") ?? []) {
    const row = JSON.parse(line) as { id: string; secret_credentials: string };
    sealed += 1;
    for (const [field, value] of Object.entries(decryptJson<Record<string, unknown>>(row.secret_credentials, key))) {
      if (typeof value === "string") secrets.push({ value, kind: "secret", source: `vault ${row.id}.${field}` });
    }
  }
  for (const line of tables.get("public.webhook_secrets") ?? []) {
    const row = JSON.parse(line) as { id: string; sealed: string };
    sealed += 1;
    secrets.push({ value: decryptSecret(row.sealed, key), kind: "secret", source: `vault webhook secret ${row.id}` });
  }
  return { secrets, sealed };
}

type Needle = { text: string; label: string; secret: Secret };

function redactedLabel(secret: Secret): string {
  return `${secret.kind} from ${secret.source} (${secret.value.length} chars, starts ${JSON.stringify(secret.value.slice(0, 2))})`;
}

function variants(text: string): string[] {
  const json = JSON.stringify(text).slice(1, -1);
  const html = text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#x27;");
  // Searched as bytes: a non-ASCII secret is matched by its UTF-8 encoding.
  return [...new Set([text, json, html, json.replace(/\//g, "\\/")])].map((v) => Buffer.from(v, "utf8").toString("latin1"));
}

/**
 * A card number as people and pages write it: the digits split into groups of four (how the hosted
 * page and most card fields show it), and for 15 and 14 digits the 4-6-5 (Amex) and 4-6-4 (Diners)
 * groups, each split by spaces and by dashes.
 */
export function cardForms(digits: string): string[] {
  const groupings: number[][] = [[]];
  for (let at = 0; at < digits.length; at += 4) groupings[0]!.push(Math.min(4, digits.length - at));
  if (digits.length === 15) groupings.push([4, 6, 5]);
  if (digits.length === 14) groupings.push([4, 6, 4]);
  const forms = [digits];
  for (const sizes of groupings) {
    const groups: string[] = [];
    let at = 0;
    for (const size of sizes) {
      groups.push(digits.slice(at, at + size));
      at += size;
    }
    for (const separator of [" ", "-"]) forms.push(groups.join(separator));
  }
  return [...new Set(forms)];
}

/** What to search for, per secret; too-short values are counted and left out. */
function needlesFor(secrets: readonly Secret[]): { needles: Needle[]; tooShort: number } {
  const needles = new Map<string, Needle>();
  let tooShort = 0;
  for (const secret of secrets) {
    const label = redactedLabel(secret);
    let parts: string[];
    if (secret.kind === "card") parts = cardForms(secret.value);
    else if (/-----BEGIN [A-Z ]+-----/.test(secret.value)) {
      parts = secret.value
        .split(/\r?\n/)
        .map((line) => line.trim())
        .filter((line) => line.length >= 16 && !line.startsWith("-----"));
    } else if (secret.value.length >= 12) parts = [secret.value.slice(0, -4)];
    else parts = secret.value.length >= MIN_NEEDLE ? [secret.value] : [];
    if (parts.length === 0) tooShort += 1;
    for (const part of parts) for (const text of variants(part)) if (!needles.has(text)) needles.set(text, { text, label, secret });
  }
  return { needles: [...needles.values()], tooShort };
}

/** Multi-pattern search (Rabin–Karp over each needle's first 8 characters): one pass per text. */
class Searcher {
  private readonly byPrefix = new Map<number, Needle[]>();
  private readonly power: number;
  constructor(readonly needles: readonly Needle[]) {
    for (const needle of needles) {
      const h = Searcher.hash(needle.text, 0);
      const list = this.byPrefix.get(h) ?? [];
      list.push(needle);
      this.byPrefix.set(h, list);
    }
    let power = 1;
    for (let i = 1; i < PREFIX; i += 1) power = Math.imul(power, 31);
    this.power = power;
  }

  private static hash(text: string, from: number): number {
    let h = 0;
    for (let i = from; i < from + PREFIX; i += 1) h = (Math.imul(h, 31) + text.charCodeAt(i)) | 0;
    return h;
  }

  /** Each occurrence: where it starts and which needle. */
  find(text: string): { at: number; needle: Needle }[] {
    const found: { at: number; needle: Needle }[] = [];
    if (text.length < PREFIX || this.byPrefix.size === 0) return found;
    let h = Searcher.hash(text, 0);
    for (let i = 0; ; i += 1) {
      const candidates = this.byPrefix.get(h);
      if (candidates) for (const needle of candidates) if (text.startsWith(needle.text, i)) found.push({ at: i, needle });
      if (i + PREFIX >= text.length) break;
      h = (Math.imul(h - Math.imul(text.charCodeAt(i), this.power), 31) + text.charCodeAt(i + PREFIX)) | 0;
    }
    return found;
  }
}

/** 40 characters either side, the secret replaced by its label, any other long digit run masked. */
function context(text: string, at: number, needle: Needle): string {
  const before = text.slice(Math.max(0, at - 40), at);
  const after = text.slice(at + needle.text.length, at + needle.text.length + 40);
  const mask = (s: string) =>
    Buffer.from(s, "latin1")
      .toString("utf8")
      .replace(/\d{9,}/g, (d) => `${d.slice(0, 2)}…${d.slice(-2)}`);
  return `${mask(before)}[${needle.secret.kind}]${mask(after)}`.replace(/\s+/g, " ");
}

export type ScanInput = {
  /** Directory lib/e2e-record.ts wrote (E2E_RECORD_DIR). */
  recordDir: string;
  /** The built client bundles (.next/static); absent in unit tests. */
  bundleDir?: string;
  /** Secrets known before the run. */
  given: Secret[];
  /** The vault key, to read every stored credential; absent when the dump has none. */
  vaultKey?: Buffer;
};

function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(full) : entry.isFile() ? [full] : [];
  });
}

const TEST_CARD_NUMBERS = new Map(TEST_CARDS.map((card) => [card.number, card]));

/** Test card table entries in the client bundle (`number:"4242…",label:"`): shown to the payer on purpose. */
function isTestCardTable(text: string, at: number, needle: Needle): boolean {
  return (
    needle.secret.kind === "card" &&
    needle.text === needle.secret.value &&
    TEST_CARD_NUMBERS.has(needle.secret.value) &&
    text.slice(Math.max(0, at - 8), at).endsWith('number:"') &&
    text.startsWith('",label:"', at + needle.text.length)
  );
}

/** The hosted page's own answers: the page (GET /pay/{id}, or a Pay posted without the script) and the script's Pay (POST /pay/{id}/pay). */
const HOSTED_PAGE = /^\/pay\/[^/?#]+(?:\/pay)?(?:\?|$)/;
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** lib/pay/page/html.ts's escaping, which the page's label went through. */
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/**
 * A sandbox test card in the hosted page's "Test cards" list (lib/pay/page/render.ts, testCards()):
 * inside `<section aria-labelledby="test-cards-heading">`, a list item's button
 * `<li><button type="button" class="…" data-test-card="4242 4242 4242 4242" data-label="Succeeds"><span class="…">4242 4242 4242 4242</span>`,
 * the number in groups of four split by spaces, its label the table's. The same markup as a JSON
 * string (quotes as \") in the script's Pay answer. The number at `at` must be one of the two in
 * such an item; nothing else on the page, and no other answer, is allowed a card number.
 */
function isHostedTestCardList(text: string, at: number, needle: Needle): boolean {
  const card = TEST_CARD_NUMBERS.get(needle.secret.value);
  if (needle.secret.kind !== "card" || !card) return false;
  const shown = card.number.replace(/(\d{4})(?=\d)/g, "$1 ");
  if (needle.text !== shown) return false;
  for (const quote of ['"', '\\"']) {
    const section = text.lastIndexOf(`<section aria-labelledby=${quote}test-cards-heading${quote}`, at);
    if (section < 0 || text.slice(section, at).includes("</section>")) continue;
    const q = escapeRegExp(quote);
    const item = new RegExp(
      `<li><button type=${q}button${q} class=${q}[^"<>\\\\]*${q} data-test-card=${q}(${shown})${q} data-label=${q}${escapeRegExp(escapeHtml(card.label))}${q}><span class=${q}[^"<>\\\\]*${q}>(${shown})</span>`,
      "dy",
    );
    // The item whose button the number is in starts at the last "<li><button" before it.
    item.lastIndex = text.lastIndexOf("<li><button", at);
    if (item.lastIndex < section) continue;
    const match = item.exec(text);
    if (match?.indices && (match.indices[1]![0] === at || match.indices[2]![0] === at)) return true;
  }
  return false;
}

/** The API description's own answers: the OpenAPI document and the reference's pages. */
const API_DESCRIPTION = /^\/(?:api\/commerce\/openapi\.json|docs\/api)(?:[/?#]|$)/;

/** The API description's notes that name sandbox test cards: test disputes, and 3-D Secure asked for by a rule. */
const TEST_CARD_NOTES = [DISPUTE_TEST_NOTE, THREE_DS_TEST_NOTE];

/** A sandbox test card inside the exact sentence of one of TEST_CARD_NOTES. */
function isTestCardNote(text: string, at: number, needle: Needle): boolean {
  if (needle.secret.kind !== "card" || !TEST_CARD_NUMBERS.has(needle.secret.value)) return false;
  for (const note of TEST_CARD_NOTES) {
    for (let start = text.indexOf(note); start >= 0; start = text.indexOf(note, start + 1)) {
      if (at >= start && at + needle.text.length <= start + note.length) return true;
    }
  }
  return false;
}

export function scan(input: ScanInput): ScanReport {
  const started = Date.now();
  const recordFiles = filesUnder(input.recordDir);
  const frames: RecordFrame[] = recordFiles.filter((file) => file.endsWith(".rec")).flatMap((file) => readFrames(file));
  const responses = frames.filter((frame) => frame.header.kind === "response");
  const requests = frames.filter((frame) => frame.header.kind === "request");
  const tables = new Map<string, string[]>();
  for (const frame of frames.filter((f) => f.header.kind === "table")) {
    const text = frame.body.toString("utf8");
    tables.set(frame.header.table!, [...(tables.get(frame.header.table!) ?? []), ...(text ? text.split("\n") : [])]);
  }

  const secrets: Secret[] = [...input.given];
  for (const frame of requests)
    secrets.push(...secretsInRequest(frame.body.toString("utf8"), frame.header.type ?? "", `${frame.header.method} ${frame.header.url}`));
  if (input.vaultKey) secrets.push(...secretsInVault(tables, input.vaultKey).secrets);
  // Shown once: the first server action answer that shows a key or webhook secret is where it
  // belongs. One seen anywhere else (a log line, a row) is searched for everywhere too.
  const shownIn = new Map<string, RecordFrame>();
  for (const frame of frames.filter((f) => f.header.kind !== "request")) {
    for (const match of frame.body.toString("latin1").matchAll(SHOWN_ONCE)) {
      if (!shownIn.has(match[0]) && frame.header.kind === "response" && frame.header.action) shownIn.set(match[0], frame);
      secrets.push({
        value: match[0],
        kind: "shown-once",
        source: frame.header.kind === "table" ? `table ${frame.header.table}` : `answer to ${frame.header.method} ${frame.header.url}`,
      });
    }
    // A key in a response header is never where it belongs (only the action's body is): searched everywhere.
    for (const match of (frame.header.headers ?? "").matchAll(SHOWN_ONCE)) {
      secrets.push({ value: match[0], kind: "shown-once", source: `headers of the answer to ${frame.header.method} ${frame.header.url}` });
    }
  }
  for (const file of recordFiles.filter((f) => f.endsWith(".log"))) {
    for (const match of fs.readFileSync(file, "latin1").matchAll(SHOWN_ONCE))
      secrets.push({ value: match[0], kind: "shown-once", source: path.basename(file) });
  }
  const unique = new Map<string, Secret>();
  for (const secret of secrets) if (!unique.has(`${secret.kind}:${secret.value}`)) unique.set(`${secret.kind}:${secret.value}`, secret);
  // A webhook secret is both in the vault and shown once: searched as shown once, so its one answer is allowed.
  const order = (secret: Secret) => (secret.kind === "shown-once" ? 0 : 1);
  const { needles, tooShort } = needlesFor([...unique.values()].sort((a, b) => order(a) - order(b)));
  const searcher = new Searcher(needles);

  const hits: Hit[] = [];
  const places: Record<string, number> = {};
  let bytes = 0;
  let allowed = 0;
  const search = (place: string, where: string, body: Buffer, allow?: (text: string, at: number, needle: Needle) => boolean) => {
    places[place] = (places[place] ?? 0) + 1;
    bytes += body.length;
    const text = body.toString("latin1");
    for (const { at, needle } of searcher.find(text)) {
      if (allow?.(text, at, needle)) allowed += 1;
      else hits.push({ where, secret: needle.label, context: context(text, at, needle) });
    }
  };

  for (const frame of responses) {
    const hostedPage = HOSTED_PAGE.test(frame.header.url ?? "") && /^(text\/html|application\/json)\b/.test(frame.header.type ?? "");
    const description = API_DESCRIPTION.test(frame.header.url ?? "");
    const allowedHere = (text: string, at: number, needle: Needle) =>
      (needle.secret.kind === "shown-once" && shownIn.get(needle.secret.value) === frame) ||
      (hostedPage && isHostedTestCardList(text, at, needle)) ||
      (description && isTestCardNote(text, at, needle));
    const where = `${path.basename(frame.file)}: ${frame.header.method} ${frame.header.url} → ${frame.header.status} ${frame.header.type}`;
    if (!frame.header.bodySkipped) search("responses", where, frame.body, allowedHere);
    // Headers hold no allowed secret: a key shown once belongs in the body, a test card on the page.
    search("headers", `${where} (headers)`, Buffer.from(frame.header.headers ?? "", "latin1"));
  }
  for (const file of recordFiles.filter((f) => f.endsWith(".log"))) search("logs", path.basename(file), fs.readFileSync(file));
  for (const frame of frames.filter((f) => f.header.kind === "table")) search("database", `table ${frame.header.table}`, frame.body);
  for (const file of input.bundleDir ? filesUnder(input.bundleDir).filter((f) => !/\.(png|jpe?g|gif|ico|woff2?|ttf|webp|avif)$/i.test(f)) : []) {
    search("bundles", path.relative(process.cwd(), file), fs.readFileSync(file), isTestCardTable);
  }
  const values = [...unique.values()];
  return {
    files: recordFiles.length + (places.bundles ?? 0),
    bytes,
    secrets: values.filter((s) => s.kind !== "card").length,
    cards: values.filter((s) => s.kind === "card").length,
    needles: needles.length,
    tooShort,
    allowed,
    hits,
    places,
    ms: Date.now() - started,
  };
}

export function summary(report: ScanReport): string {
  const places = Object.entries(report.places)
    .map(([place, n]) => `${n} ${place}`)
    .join(", ");
  return `leak scan: ${report.files} files (${places}), ${(report.bytes / 1e6).toFixed(1)} MB, ${report.secrets} secrets and ${report.cards} card numbers searched (${report.needles} needles, ${report.tooShort} too short to search), ${report.allowed} allowed, ${report.hits.length} hits, ${report.ms} ms`;
}
