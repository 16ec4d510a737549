import { ApiError } from "@/lib/api/errors";

/** The longest Idempotency-Key taken. */
const IDEMPOTENCY_KEY_MAX = 255;

/**
 * The request's `Idempotency-Key` header (capture and void): absent is fine; present, it
 * must be 1 to 255 visible ASCII characters, else 400 naming the header.
 */
export function idempotencyKeyOf(request: Request): string | undefined {
  const value = request.headers.get("idempotency-key");
  if (value === null) return undefined;
  const key = value.trim();
  if (key === "" || key.length > IDEMPOTENCY_KEY_MAX || !/^[\x21-\x7e]+$/.test(key)) {
    throw new ApiError(
      400,
      "invalid_header",
      "Invalid Idempotency-Key",
      `Idempotency-Key must be 1 to ${IDEMPOTENCY_KEY_MAX} visible ASCII characters`,
      undefined,
      "Idempotency-Key",
    );
  }
  return key;
}
