import fs from "node:fs";
/**
 * One JSON line per event on stderr. Values pass through `redact` first: keys that name secrets
 * and anything shaped like a card number never reach the log.
 */
const SECRET_KEY = /(secret|password|private|token|api_?key|authorization|card_number|credentials|cvc|cvv)/i;
/** 13 to 19 digits, alone or in groups split by single spaces or dashes ("4242 4242 4242 4242"). */
const CARD_NUMBER = /\b\d(?:[ -]?\d){12,18}\b/g;

function maskDigits(match: string): string {
  const digits = match.replace(/\D/g, "");
  return `${digits.slice(0, 6)}******${digits.slice(-4)}`;
}

export function redact(value: unknown, depth = 0): unknown {
  if (depth > 6) return "[deep]";
  if (typeof value === "string") return value.replace(CARD_NUMBER, maskDigits);
  // A card number sent as a JSON number.
  if (typeof value === "number" && Number.isInteger(value) && Math.abs(value) >= 1e12) return maskDigits(String(value));
  if (value instanceof Error) {
    // A failed query's message lists its parameters (customer data, password hashes): keep the SQL only.
    const message = value.message.split(/\nparams:/)[0]!;
    const cause = (value as { cause?: { code?: unknown } }).cause;
    const code = typeof cause?.code === "string" ? cause.code : (value as { code?: unknown }).code;
    return { name: value.name, message: redact(message, depth + 1), ...(typeof code === "string" ? { code } : {}) };
  }
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, SECRET_KEY.test(k) ? "[redacted]" : redact(v, depth + 1)]));
  }
  return value;
}

const LEVELS = { info: 0, warn: 1, error: 2, silent: 3 } as const;

/** LOG_LEVEL: info (default), warn, error or silent. */
function enabled(level: "info" | "warn" | "error"): boolean {
  const threshold = LEVELS[(process.env.LOG_LEVEL ?? "info") as keyof typeof LEVELS] ?? 0;
  return LEVELS[level] >= threshold;
}

/**
 * Lines wait for the end of the current turn of the event loop and go out in one write: under load
 * a write per line was most of the log's cost (`npm run bench:api`'s profile), since stderr to a
 * file or pipe is written synchronously. Errors go out at once, with whatever waits before them;
 * what waits is written on exit too.
 */
let pending: string[] = [];
let flushScheduled = false;

/** Writes the lines waiting for the end of this turn now (tests read the log right after acting). */
export function flushLog(): void {
  flushScheduled = false;
  if (pending.length === 0) return;
  const text = pending.join("");
  pending = [];
  process.stderr.write(text);
}

function flushOnExit(): void {
  if (pending.length === 0) return;
  const text = pending.join("");
  pending = [];
  try {
    fs.writeSync(2, text);
  } catch {
    // stderr is gone: nothing left to tell.
  }
}
process.once("exit", flushOnExit);

function write(level: "info" | "warn" | "error", message: string, fields: Record<string, unknown> = {}) {
  if (!enabled(level)) return;
  // The message is redacted too: a card number interpolated into it must not reach the log either.
  pending.push(JSON.stringify({ level, time: new Date().toISOString(), message: redact(message), ...(redact(fields) as object) }) + "\n");
  if (level === "error") return flushLog();
  if (!flushScheduled) {
    flushScheduled = true;
    setImmediate(flushLog);
  }
}

export const logger = {
  info: (message: string, fields?: Record<string, unknown>) => write("info", message, fields),
  warn: (message: string, fields?: Record<string, unknown>) => write("warn", message, fields),
  error: (message: string, fields?: Record<string, unknown>) => write("error", message, fields),
};
