import "server-only";
import type { SandboxContext, SandboxHandler } from "@/lib/providers/kit/provider-server";
import { sandboxRoutes } from "@/lib/providers/kit/sandbox-routes";
import { findRecordByIdempotencyKey } from "@/lib/sandbox/records";
import { DISPUTE_OPERATION } from "@/lib/sandbox/disputes";
import { REFUND_OPERATION } from "@/lib/sandbox/refunds";
import { findAcceptingAccount } from "../../server/sandbox-account";
import { answerFromRecord } from "./answers";
import { refuse, SLUG, type SignedRequest } from "./common";
import { deleteCardToken, takePayment } from "./payments";
import { cancelPayout, settleInProgressPayout, takePayout } from "./payouts";
import { refundStatus, takeRefund } from "./refunds";
import { authorizationStatus, takeCapture, takeVoid } from "./authorizations";
import { disputeStatus, takeAccept, takeEvidence } from "./disputes";
import { A_SIGN_IN_REFUSAL, A_SIGNATURE_HEADER, verifyBody } from "../wire";

/**
 * Provider A's simulated API v2 under /sandbox/provider-a/api/v2/{payments,payouts,refunds,captures,voids,disputes,status,ping}.
 * Every request is a signed JSON POST: the body names the merchant and its service code, and
 * `X-Signature` is the base64 RSA-SHA256 signature of the raw body, checked with the payment key
 * issued to that merchant (its test-mode connection's public key); an unknown merchant and a
 * signature that does not verify get one refusal (../wire.ts). The status endpoint finds a
 * payment or payout by its request_id, and a refund, capture or void by its request_id with
 * `operation: "refund"`, `"capture"` or `"void"`, and a dispute by its dispute_id with `operation: "dispute"`;
 * asking about a payout still in progress finishes it. `payouts/cancel` stops one in progress.
 */

function parseObject(raw: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(raw);
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

async function authenticate(request: Request, context: SandboxContext): Promise<SignedRequest | Response> {
  const raw = await request.text();
  const body = parseObject(raw);
  if (!body) return refuse(400, "malformed_body", "The body must be a JSON object.");
  const merchantId = body.merchant_id;
  if (typeof merchantId !== "string" || merchantId === "") return refuse(401, "unknown_merchant", "merchant_id is missing.");
  const signature = request.headers.get(A_SIGNATURE_HEADER) ?? "";
  // The payment key is public, so the signature itself picks the account among same-id merchants.
  const found = await findAcceptingAccount(
    context.db,
    SLUG,
    (credentials) => credentials.merchant_id === merchantId,
    (account) => verifyBody(raw, signature, account.credentials.payment_key),
  );
  // An unknown merchant_id and a signature that does not verify are one refusal, or it would tell which IDs exist.
  if (found.kind !== "found") return refuse(401, A_SIGN_IN_REFUSAL.code, A_SIGN_IN_REFUSAL.message);
  if (body.service_code !== found.account.credentials.service_code) {
    return refuse(401, "invalid_service_code", "service_code is not the merchant's.");
  }
  return { body, account: found.account, context };
}

async function readStatus(signed: SignedRequest): Promise<Response> {
  const { body, account, context } = signed;
  const requestId = typeof body.request_id === "string" ? body.request_id : "";
  if (body.operation === REFUND_OPERATION) return refundStatus(signed, requestId);
  if (body.operation === DISPUTE_OPERATION) return disputeStatus(signed);
  if (body.operation === "capture" || body.operation === "void") return authorizationStatus(signed, body.operation, requestId);
  const record = requestId ? await findRecordByIdempotencyKey(context.db, SLUG, account.connectionId, requestId) : undefined;
  if (!record || (record.operation !== "payment" && record.operation !== "payout"))
    return refuse(404, "not_found", `No payment or payout with request_id ${requestId}.`);
  return Response.json(answerFromRecord(await settleInProgressPayout(context, record)));
}

const route = sandboxRoutes<(signed: SignedRequest) => Promise<Response>>({
  "POST api/v2/ping": async ({ account }) => Response.json({ status: "ok", merchant_id: account.credentials.merchant_id }),
  "POST api/v2/payments": takePayment,
  "POST api/v2/payouts": takePayout,
  "POST api/v2/payouts/cancel": cancelPayout,
  "POST api/v2/refunds": takeRefund,
  "POST api/v2/status": readStatus,
  "POST api/v2/tokens/delete": deleteCardToken,
  // Authorize now, capture later (../wire.ts).
  "POST api/v2/captures": takeCapture,
  "POST api/v2/voids": takeVoid,
  // Disputes (../wire.ts); a dispute's status is asked at status with `operation: "dispute"`.
  "POST api/v2/disputes/evidence": takeEvidence,
  "POST api/v2/disputes/accept": takeAccept,
});

export const providerASandbox: SandboxHandler = async (request, context) => {
  const match = route(request.method, context.path);
  if (match.kind === "none")
    return refuse(
      404,
      "no_such_endpoint",
      "Provider A's API v2 has payments, payouts, payouts/cancel, refunds, captures, voids, disputes/evidence, disputes/accept, tokens/delete, status and ping.",
    );
  if (match.kind === "other-method") return refuse(405, "method_not_allowed", "Provider A's API takes POST only.");
  const signed = await authenticate(request, context);
  return signed instanceof Response ? signed : match.handler(signed);
};
