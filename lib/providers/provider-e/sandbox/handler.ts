import "server-only";
import { parseJson } from "@/lib/providers/kit/callback-scheme";
import type { SandboxContext, SandboxHandler } from "@/lib/providers/kit/provider-server";
import { sandboxRoutes } from "@/lib/providers/kit/sandbox-routes";
import { findAcceptingAccount } from "@/lib/providers/server/sandbox-account";
import type { SandboxAccount } from "@/lib/sandbox/accounts";
import { findRecordByIdempotencyKey, findRecordByReference } from "@/lib/sandbox/records";
import { E_MAX_CLOCK_SKEW_SECONDS, E_SIGN_IN_REFUSAL, readAuthorization, signingText, verifyE } from "../wire";
import { createPayment, eError, readPayment, SLUG, type EAnswer } from "./payments";
import { createRefund, readRefund } from "./refunds";
import { createCancel, createCapture, readAuthorizationCall } from "./authorizations";
import { acceptDispute, defendDispute, readDispute } from "./disputes";

/**
 * Provider E's sandbox under /sandbox/provider-e/v2/…: POST payments, GET payments/{paymentId},
 * GET payments?merchantReference=…, POST refunds, GET refunds/{refundId},
 * GET refunds?merchantReference=…, POST payments/{paymentId}/captures, POST payments/{paymentId}/cancels,
 * GET captures?merchantReference=…, GET cancels?merchantReference=…, GET disputes/{disputeId},
 * POST disputes/{disputeId}/defend, POST disputes/{disputeId}/accept and GET merchant. Every request must carry a signature
 * (./wire.ts) that verifies with the public key stored for the merchant ID it names (spec 5.1
 * note 5) and a timestamp within five minutes; otherwise 401 with missing_signature,
 * stale_timestamp or, for an unknown merchant and a signature that does not verify alike,
 * unauthorized (`E_SIGN_IN_REFUSAL`).
 */

const json = ({ status, body }: EAnswer) => Response.json(body, { status });

const noSuchEndpoint = () =>
  json(
    eError(
      404,
      "not_found",
      "No such endpoint. Provider E has POST /v2/payments, GET /v2/payments/{paymentId}, GET /v2/payments?merchantReference=…, " +
        "POST /v2/refunds, GET /v2/refunds/{refundId}, GET /v2/refunds?merchantReference=…, POST /v2/payments/{paymentId}/captures, " +
        "POST /v2/payments/{paymentId}/cancels, GET /v2/captures?merchantReference=…, GET /v2/cancels?merchantReference=…, " +
        "GET /v2/disputes/{disputeId}, POST /v2/disputes/{disputeId}/defend, POST /v2/disputes/{disputeId}/accept and GET /v2/merchant.",
    ),
  );

type Authenticated = { account: SandboxAccount; raw: string } | { refusal: EAnswer };

async function authenticate(request: Request, context: SandboxContext): Promise<Authenticated> {
  const authorization = readAuthorization(request.headers.get("authorization"));
  if (!authorization) return { refusal: eError(401, "missing_signature", 'Authorization: Signature keyId="…",signature="…" is required.') };
  const timestamp = request.headers.get("x-timestamp") ?? "";
  const skew = Math.abs(Date.now() / 1000 - Number(timestamp));
  if (!/^\d+$/.test(timestamp) || skew > E_MAX_CLOCK_SKEW_SECONDS) {
    return { refusal: eError(401, "stale_timestamp", "X-Timestamp is missing or more than five minutes off.") };
  }
  const raw = await request.text();
  const url = new URL(request.url);
  const signed = signingText(request.method, url.pathname + url.search, timestamp, raw);
  const found = await findAcceptingAccount(
    context.db,
    SLUG,
    (credentials) => credentials.merchant_id === authorization.keyId,
    (account) => verifyE(String(account.credentials.public_key ?? ""), signed, authorization.signature),
  );
  // An unknown merchant and a signature that does not verify are one refusal, or it would tell which merchant IDs exist.
  if (found.kind !== "found") return { refusal: eError(E_SIGN_IN_REFUSAL.status, E_SIGN_IN_REFUSAL.errorCode, E_SIGN_IN_REFUSAL.message) };
  return { account: found.account, raw };
}

type Call = { account: SandboxAccount; raw: string; context: SandboxContext; params: Readonly<Record<string, string>>; reference: string | null };

const route = sandboxRoutes<(call: Call) => Promise<EAnswer> | EAnswer>({
  "GET v2/merchant": ({ account }) => ({
    status: 200,
    body: { merchantId: account.credentials.merchant_id, currency: account.credentials.currency, status: "active" },
  }),
  "POST v2/refunds": ({ account, raw, context }) => createRefund(context.db, account, parseJson(raw)),
  "GET v2/refunds/{id}": ({ account, context, params }) => readRefund(context.db, account, { reference: params.id! }),
  "GET v2/refunds": ({ account, context, reference }) => readRefund(context.db, account, { refundKey: reference ?? undefined }),
  "POST v2/payments": ({ account, raw, context }) => createPayment(context.db, account, parseJson(raw), context.publicBaseUrl),
  "GET v2/payments/{id}": async ({ account, context, params }) => readPayment(context.db, account, await findRecordByReference(context.db, SLUG, params.id!)),
  // Authorize now, capture later (../wire.ts).
  "POST v2/payments/{id}/captures": ({ account, raw, context, params }) => createCapture(context.db, account, decodeURIComponent(params.id!), parseJson(raw)),
  "POST v2/payments/{id}/cancels": ({ account, raw, context, params }) => createCancel(context.db, account, decodeURIComponent(params.id!), parseJson(raw)),
  "GET v2/captures": ({ account, context, reference }) => readAuthorizationCall(context.db, account, "capture", reference),
  "GET v2/cancels": ({ account, context, reference }) => readAuthorizationCall(context.db, account, "cancel", reference),
  // Disputes (../wire.ts).
  "GET v2/disputes/{id}": ({ account, context, params }) => readDispute(context.db, account, decodeURIComponent(params.id!)),
  "POST v2/disputes/{id}/defend": ({ account, raw, context, params }) => defendDispute(context.db, account, decodeURIComponent(params.id!), parseJson(raw)),
  "POST v2/disputes/{id}/accept": ({ account, raw, context, params }) => acceptDispute(context.db, account, decodeURIComponent(params.id!), parseJson(raw)),
  "GET v2/payments": async ({ account, context, reference }) =>
    readPayment(context.db, account, reference ? await findRecordByIdempotencyKey(context.db, SLUG, account.connectionId, reference) : undefined),
});

export const providerESandbox: SandboxHandler = async (request, context) => {
  const authenticated = await authenticate(request, context);
  if ("refusal" in authenticated) return json(authenticated.refusal);
  const match = route(request.method, context.path);
  if (match.kind !== "found") return noSuchEndpoint();
  const reference = new URL(request.url).searchParams.get("merchantReference");
  return json(await match.handler({ account: authenticated.account, raw: authenticated.raw, context, params: match.params, reference }));
};
