import { randomBytes } from "node:crypto";
import { problem } from "@/lib/problems";
import { ApiError, ApiValidationError } from "./errors";
import { findUnsafeText, UNSAFE_TEXT_MESSAGE } from "@/lib/text-safety";
import { locateJsonError } from "./locate-json-error";
import { checkContentType } from "./negotiation";
import { keepAmountLiterals } from "./number-literals";

/** ../shared/REFERENCE.md "Limits": request bodies up to 64 KiB. */
export const MAX_BODY_BYTES = 65_536;

const JSON_MEDIA_TYPES = new Set(["application/json", "application/vnd.api+json"]);
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

function assertJsonContentType(request: Request): void {
  // JSON:API 1.1: its media type with a parameter other than ext/profile is a 415 of its own.
  checkContentType(request);
  const contentType = request.headers.get("content-type") ?? "";
  const mediaType = contentType.split(";")[0]!.trim().toLowerCase();
  if (!JSON_MEDIA_TYPES.has(mediaType)) {
    throw new ApiError(415, "unsupported_media_type", "Unsupported media type", "Send the body as application/json or application/vnd.api+json.");
  }
}

function tooLarge(maxBytes: number): ApiError {
  return new ApiError(413, "payload_too_large", "Payload too large", `The body must not exceed ${maxBytes} bytes.`);
}

function malformed(detail: string): ApiError {
  return new ApiError(400, "malformed_json", "Malformed JSON", detail);
}

/**
 * After the limit the rest of the body is read and dropped, up to this much, before the 413 goes
 * out: cancelling the stream closes the connection under Next, and a client still sending (a
 * chunked upload) would then see a reset instead of the answer. Past it the stream is cancelled.
 */
export const DISCARD_MAX_BYTES = 8 * 1024 * 1024;

async function discardRest(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
  let discarded = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    discarded += value.byteLength;
    if (discarded > DISCARD_MAX_BYTES) return void (await reader.cancel().catch(() => undefined));
  }
}

/**
 * Bodies already read whole by the lean API path (server/node-bridge.ts, which stops at
 * MAX_BODY_BYTES): readJsonBody takes these bytes as they are instead of streaming the copy the
 * Request holds (Web streams cost a measurable share of a create under load). The Request keeps
 * its body too, so anything else that reads it sees the same bytes.
 */
const bufferedBodies = new WeakMap<Request, Uint8Array>();

/**
 * Requests the lean API path (server/node-bridge.ts) made: it writes answers from their remembered
 * text, so handlers' answers may leave their body out (jsonApi's deferBody).
 */
const leanRequests = new WeakSet<Request>();

export function markLeanRequest(request: Request): Request {
  leanRequests.add(request);
  return request;
}

export function isLeanRequest(request: Request): boolean {
  return leanRequests.has(request);
}

/** The bytes a handler read as the body (readJsonBody), kept for the request log (lib/api/request-log.ts). */
const readBodies = new WeakMap<Request, Uint8Array>();

/** The body as it was read: by the handler, else by the lean path before a handler that never read it. */
export function bodyReadOf(request: Request): Uint8Array | undefined {
  return readBodies.get(request) ?? bufferedBodies.get(request);
}

export function rememberBufferedBody(request: Request, bytes: Uint8Array): Request {
  bufferedBodies.set(request, bytes);
  return request;
}

export type ReadBodyOptions = {
  /**
   * What happens to the rest of a body over the limit: read and dropped (up to DISCARD_MAX_BYTES)
   * so a client still sending sees the answer rather than a reset, or left alone (the stream is
   * cancelled; a body declared too large is never read).
   */
  drain: boolean;
};

/**
 * The one reader of a request body under a byte limit: the bytes, or undefined when the body is
 * larger. It counts bytes as they arrive: Content-Length may be absent (chunked) or lie, so it only
 * allows an early refusal.
 */
export async function readBodyUpTo(request: Request, maxBytes: number, { drain }: ReadBodyOptions): Promise<Uint8Array | undefined> {
  const declared = Number(request.headers.get("content-length"));
  const declaredTooLarge = Number.isFinite(declared) && declared > maxBytes;
  if (!request.body) return declaredTooLarge ? undefined : new Uint8Array(0);
  if (declaredTooLarge) {
    if (drain) await discardRest(request.body.getReader()).catch(() => undefined);
    return undefined;
  }
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await (drain ? discardRest(reader) : reader.cancel()).catch(() => undefined);
      return undefined;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

async function readLimitedBytes(request: Request, maxBytes: number): Promise<Uint8Array> {
  const buffered = request.bodyUsed ? undefined : bufferedBodies.get(request);
  if (buffered) bufferedBodies.delete(request);
  const bytes = buffered ?? (await readBodyUpTo(request, maxBytes, { drain: true }));
  if (!bytes || bytes.byteLength > maxBytes) throw tooLarge(maxBytes);
  readBodies.set(request, bytes);
  return bytes;
}

function decodeUtf8(bytes: Uint8Array): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw malformed("The body is not valid UTF-8.");
  }
}

export type ReadJsonBodyOptions = {
  maxBytes?: number;
  /**
   * Paths of amounts judged by how they were written (invoice and refund amounts): a number with an
   * exponent or more decimals than any currency has is handed on as its source text ("1e3",
   * "10.009"), which the field's own rule refuses like the string form.
   */
  exactNumbersAt?: readonly (readonly (string | number)[])[];
};

/** Reads and parses a JSON body; every refusal is an ApiError that names no byte of the body. */
export async function readJsonBody(request: Request, { maxBytes = MAX_BODY_BYTES, exactNumbersAt = [] }: ReadJsonBodyOptions = {}): Promise<unknown> {
  assertJsonContentType(request);
  const text = decodeUtf8(await readLimitedBytes(request, maxBytes));
  if (text.trim() === "") throw malformed("The body is empty; send a JSON document.");
  let parsed: unknown;
  try {
    parsed = JSON.parse(text) as unknown;
  } catch {
    const location = locateJsonError(text);
    const where = location
      ? `${location.reason} at line ${location.line}, column ${location.column} (position ${location.position}).`
      : "The parser rejected it.";
    throw malformed(`The body is not valid JSON: ${where}`);
  }
  parsed = keepAmountLiterals(parsed, text, exactNumbersAt);
  const unsafe = findUnsafeText(parsed);
  if (unsafe) {
    throw new ApiValidationError([problem("invalid_character", UNSAFE_TEXT_MESSAGE, unsafe)], { base: "" });
  }
  return parsed;
}

/** Keeps the caller's id so logs on both sides line up; anything odd is replaced so it cannot forge log lines. */
export function requestIdOf(request: Request): string {
  const incoming = request.headers.get("x-request-id");
  if (incoming && REQUEST_ID.test(incoming)) return incoming;
  return `req_${randomBytes(16).toString("base64url")}`;
}

/**
 * Uploads (`POST /api/commerce/files`): a multipart body up to this many bytes, a 5 MB file and
 * room for the form's boundaries and fields. The lean path reads this route's body up to it.
 */
export const MAX_UPLOAD_BODY_BYTES = 5 * 1024 * 1024 + 16_384;

/**
 * Reads a multipart/form-data body: 415 unless it is one with a boundary, 413 past `maxBytes`, 400
 * when the platform's parser cannot read it. The bytes are counted before they are parsed.
 */
export async function readMultipartBody(request: Request, maxBytes = MAX_UPLOAD_BODY_BYTES): Promise<FormData> {
  const contentType = request.headers.get("content-type") ?? "";
  const media = contentType.split(";")[0]!.trim().toLowerCase();
  if (media !== "multipart/form-data") {
    throw new ApiError(
      415,
      "unsupported_media_type",
      "Unsupported media type",
      "Send the file as multipart/form-data (a part named file, a field named purpose).",
    );
  }
  if (!/;\s*boundary=("?)[^";]{1,70}\1\s*(;|$)/i.test(contentType)) {
    throw new ApiError(
      400,
      "malformed_multipart",
      "Malformed multipart body",
      "Content-Type multipart/form-data needs its boundary parameter.",
      undefined,
      "Content-Type",
    );
  }
  const bytes = await readLimitedBytes(request, maxBytes);
  try {
    return await new Response(new Uint8Array(bytes), { headers: { "content-type": contentType } }).formData();
  } catch {
    throw new ApiError(400, "malformed_multipart", "Malformed multipart body", "The multipart body could not be read: check its boundary and parts.");
  }
}
