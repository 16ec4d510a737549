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
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, SECRET_KEY.test(k) ? "[redacted]" : redact(v, depth + 1)]),
    );
  }
  return value;
}

const LEVELS = { info: 0, warn: 1, error: 2, silent: 3 } as const;

/** LOG_LEVEL: info (default), warn, error or silent. */
function enabled(level: "info" | "warn" | "error"): boolean {
  const threshold = LEVELS[(process.env.LOG_LEVEL ?? "info") as keyof typeof LEVELS] ?? 0;
  return LEVELS[level] >= threshold;
}

function write(level: "info" | "warn" | "error", message: string, fields: Record<string, unknown> = {}) {
  if (!enabled(level)) return;
  // The message is redacted too: a card number interpolated into it must not reach the log either.
  const line = JSON.stringify({ level, time: new Date().toISOString(), message: redact(message), ...(redact(fields) as object) });
  process.stderr.write(line + "\n");
}

export const logger = {
  info: (message: string, fields?: Record<string, unknown>) => write("info", message, fields),
  warn: (message: string, fields?: Record<string, unknown>) => write("warn", message, fields),
  error: (message: string, fields?: Record<string, unknown>) => write("error", message, fields),
};
