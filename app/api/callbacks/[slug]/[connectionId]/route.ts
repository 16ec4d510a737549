import { singleErrorResponse } from "@/lib/api/errors";
import { readBodyUpTo } from "@/lib/api/request";
import { withPublic } from "@/lib/api/with-public";
import { MAX_CALLBACK_BODY_BYTES, receiveProviderCallback, type CallbackBody, type CallbackReceipt } from "@/lib/callbacks/receive";
import { getDb } from "@/lib/db/client";
import { logger } from "@/lib/logger";

/**
 * A provider's asynchronous notification about a payment or payout. Public: the
 * provider proves itself with its signature, which lib/callbacks/receive.ts checks over the raw
 * body before reading it. Accepted callbacks answer 200 `{ received: true, outcome }`; refused ones
 * a JSON:API error naming the reason (and are stored as rejected).
 */

/** Over the limit the rest is left unread (the stream is cancelled): an oversized callback is not worth draining. */
async function readBody(request: Request): Promise<CallbackBody> {
  const bytes = await readBodyUpTo(request, MAX_CALLBACK_BODY_BYTES, { drain: false });
  return bytes ? { kind: "read", rawBody: Buffer.from(bytes).toString("utf8") } : { kind: "too_large" };
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
  return singleErrorResponse(receipt.status, code, title, receipt.reason ?? title, requestId);
});
