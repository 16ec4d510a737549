import { errorResponse } from "@/lib/api/errors";
import { withPublic } from "@/lib/api/with-api-key";
import { MAX_CALLBACK_BODY_BYTES, receiveProviderCallback, type CallbackBody, type CallbackReceipt } from "@/lib/callbacks/receive";
import { getDb } from "@/lib/db/client";
import { logger } from "@/lib/logger";

/**
 * A provider's asynchronous notification about a payment or payout (issue 11). Public: the
 * provider proves itself with its signature, which lib/callbacks/receive.ts checks over the raw
 * body before reading it. Accepted callbacks answer 200 `{ received: true, outcome }`; refused ones
 * a JSON:API error naming the reason (and are stored as rejected).
 */

async function readBody(request: Request): Promise<CallbackBody> {
  const declared = Number(request.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > MAX_CALLBACK_BODY_BYTES) return { kind: "too_large" };
  if (!request.body) return { kind: "read", rawBody: "" };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > MAX_CALLBACK_BODY_BYTES) {
      await reader.cancel().catch(() => undefined);
      return { kind: "too_large" };
    }
    chunks.push(value);
  }
  return { kind: "read", rawBody: Buffer.concat(chunks).toString("utf8") };
}

const CODES: Record<number, { code: string; title: string }> = {
  400: { code: "malformed_callback", title: "Malformed callback" },
  401: { code: "callback_not_verified", title: "Callback not verified" },
  404: { code: "not_found", title: "Not found" },
  413: { code: "payload_too_large", title: "Payload too large" },
  503: { code: "try_again", title: "Try again" },
};

export const POST = withPublic<{ slug: string; connectionId: string }>(async ({ request, params, requestId }) => {
  const body = await readBody(request);
  let receipt: CallbackReceipt;
  try {
    receipt = await receiveProviderCallback(await getDb(), { slug: params.slug, connectionId: params.connectionId, headers: request.headers, body });
  } catch (error) {
    // Never a 500 to a provider: it is told to send again, and the log says why.
    logger.error("provider callback failed", { requestId, provider: params.slug, error });
    receipt = { status: 503, reason: "The callback could not be processed now; send it again." };
  }
  if (receipt.status === 200) return Response.json({ received: true, outcome: receipt.outcome }, { headers: { "X-Request-Id": requestId } });
  const { code, title } = CODES[receipt.status] ?? CODES[400]!;
  return errorResponse(receipt.status, [{ status: String(receipt.status), code, title, detail: receipt.reason ?? title }], requestId);
});
