import { logRequest, RAW_BODY_LIMIT, type BodySource } from "@/lib/request-log/writer";
import { bodyReadOf } from "./request";
import { isStreamedResponse, responseTextOf } from "./responses";

/**
 * What withApiKey hands the request log (lib/request-log/writer.ts), with as little work as it can
 * on the request's path: the bodies are kept as they are (the lean path's bytes, the JSON:API
 * answer's text) and redacted, cut and written a second later, off the request.
 */

/** Bodies kept: JSON and text. Anything else (an evidence file) is named by its type only. */
const KEPT_TYPE = /json|text\/plain|x-www-form-urlencoded/i;
const KEY_PREFIX = /^pok_(?:test_|live_)?/;
const READ_METHODS = new Set(["GET", "HEAD"]);

function notKept(type: string): string {
  return `[${type.split(";")[0]!.trim() || "unknown type"}: body not kept]`;
}

/** Reads at most `limit` bytes of a copy of the answer's body, then lets the rest go. */
async function readUpTo(body: ReadableStream<Uint8Array>, limit: number): Promise<Uint8Array> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    while (total <= limit) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      total += value.byteLength;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return Buffer.concat(chunks);
}

/** The request's body for the log, once answered: the bytes its handler (or the lean path) read; a body never read is not kept. */
function requestBodyForLog(request: Request): BodySource {
  if (READ_METHODS.has(request.method)) return "";
  const type = request.headers.get("content-type") ?? "";
  const read = bodyReadOf(request);
  if (!read) return "";
  return read.byteLength === 0 || KEPT_TYPE.test(type) ? read : notKept(type);
}

/** The answer's body for the log: the JSON:API text when the wrapper knows it, else a copy of a JSON answer. */
function responseBodyForLog(response: Response): BodySource {
  const text = responseTextOf(response);
  if (text !== undefined) return text;
  if (!response.body) return "";
  const type = response.headers.get("content-type") ?? "";
  if (!/json/i.test(type) || isStreamedResponse(response) || response.bodyUsed) return notKept(type);
  return readUpTo(response.clone().body!, RAW_BODY_LIMIT).catch(() => "");
}

/** How the log names a key: its prefix and last four characters, as the API keys page shows it (never the rest). */
export function keyLabel(key: string): { keyPrefix: string; keyLastFour: string } {
  return { keyPrefix: KEY_PREFIX.exec(key)?.[0] ?? "", keyLastFour: key.slice(-4) };
}

export type LogContext = {
  merchantId: string;
  testMode: boolean;
  apiKeyId: string;
  keyPrefix: string;
  keyLastFour: string;
  requestId: string;
};

/** Queues the answered request for the log (runLogged's `answered`). */
export function logAnswered(request: Request, context: LogContext, response: Response, path: string, durationMs: number): void {
  logRequest({
    merchantId: context.merchantId,
    testMode: context.testMode,
    at: new Date(),
    method: request.method,
    path,
    status: response.status,
    durationMs,
    apiKeyId: context.apiKeyId,
    keyPrefix: context.keyPrefix,
    keyLastFour: context.keyLastFour,
    requestId: context.requestId,
    idempotencyKey: request.headers.get("idempotency-key") ?? undefined,
    requestBody: requestBodyForLog(request),
    responseBody: responseBodyForLog(response),
  });
}
