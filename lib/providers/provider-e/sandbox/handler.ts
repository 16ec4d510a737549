import "server-only";
import { parseJson } from "@/lib/providers/kit/callback-scheme";
import type { SandboxContext, SandboxHandler } from "@/lib/providers/kit/provider-server";
import { findAcceptingAccount } from "@/lib/providers/server/sandbox-account";
import type { SandboxAccount } from "@/lib/sandbox/accounts";
import { findRecordByIdempotencyKey, findRecordByReference } from "@/lib/sandbox/records";
import { E_MAX_CLOCK_SKEW_SECONDS, E_SIGN_IN_REFUSAL, readAuthorization, signingText, verifyE } from "../wire";
import { createPayment, eError, readPayment, SLUG, type EAnswer } from "./payments";
import { createRefund, readRefund } from "./refunds";

/**
 * Provider E's sandbox under /sandbox/provider-e/v2/…: POST payments, GET payments/{paymentId},
 * GET payments?merchantReference=…, POST refunds, GET refunds/{refundId},
 * GET refunds?merchantReference=… and GET merchant. Every request must carry a signature
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
        "POST /v2/refunds, GET /v2/refunds/{refundId}, GET /v2/refunds?merchantReference=… and GET /v2/merchant.",
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

export const providerESandbox: SandboxHandler = async (request, context) => {
  const authenticated = await authenticate(request, context);
  if ("refusal" in authenticated) return json(authenticated.refusal);
  const { account, raw } = authenticated;
  const [version, resource, id, ...rest] = context.path;
  if (version !== "v2" || rest.length > 0) return noSuchEndpoint();
  if (resource === "merchant" && id === undefined && request.method === "GET") {
    return json({ status: 200, body: { merchantId: account.credentials.merchant_id, currency: account.credentials.currency, status: "active" } });
  }
  const reference = new URL(request.url).searchParams.get("merchantReference");
  if (resource === "refunds") {
    if (request.method === "POST" && id === undefined) return json(await createRefund(context.db, account, parseJson(raw)));
    if (request.method !== "GET") return noSuchEndpoint();
    return json(await readRefund(context.db, account, id !== undefined ? { reference: id } : { refundKey: reference ?? undefined }));
  }
  if (resource !== "payments") return noSuchEndpoint();
  if (request.method === "POST" && id === undefined) return json(await createPayment(context.db, account, parseJson(raw), context.publicBaseUrl));
  if (request.method !== "GET") return noSuchEndpoint();
  if (id !== undefined) return json(await readPayment(context.db, account, await findRecordByReference(context.db, SLUG, id)));
  return json(await readPayment(context.db, account, reference ? await findRecordByIdempotencyKey(context.db, SLUG, account.connectionId, reference) : undefined));
};
