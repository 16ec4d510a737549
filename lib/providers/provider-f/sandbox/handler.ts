import "server-only";
import { parseJson } from "@/lib/providers/kit/callback-scheme";
import type { SandboxContext, SandboxHandler } from "@/lib/providers/kit/provider-server";
import { sandboxRoutes } from "@/lib/providers/kit/sandbox-routes";
import { findAcceptingAccount } from "@/lib/providers/server/sandbox-account";
import type { SandboxAccount } from "@/lib/sandbox/accounts";
import { findRecordByIdempotencyKey, findRecordByReference } from "@/lib/sandbox/records";
import { F_SIGN_IN_REFUSAL, verifyF } from "../wire";
import { createCharge, detachSavedCard, fError, readCharge, SLUG, type FAnswer } from "./charges";
import { closeDispute, readDispute, submitEvidence } from "./disputes";
import { createRefund, readRefund } from "./refunds";

/**
 * Provider F's sandbox under /sandbox/provider-f/v1/: POST charges, GET charges/{id}, GET
 * charges?idempotency_key={reference}, POST refunds, GET refunds/{id}, GET
 * refunds?idempotency_key={reference}, GET disputes/{id}, POST disputes/{id}/evidence, POST
 * disputes/{id}/close, GET account. Authentication comes before routing (spec 5.2):
 * any path, known or not, without x-merchant-id, with a public key the sandbox does not know
 * (prod_ keys never: they belong to live processing) or with a bad x-signature is answered 401
 * with a JSON error; an unknown dev_ key and a bad signature with the same one (`F_SIGN_IN_REFUSAL`).
 */

const json = ({ status, body }: FAnswer) => Response.json(body, { status });

type Authenticated = { account: SandboxAccount; raw: string } | { refusal: FAnswer };

async function authenticate(request: Request, context: SandboxContext): Promise<Authenticated> {
  const publicKey = request.headers.get("x-merchant-id")?.trim() ?? "";
  if (publicKey === "")
    return { refusal: fError(401, "authentication_error", "missing_merchant_id", "No API key: send your public key in the x-merchant-id header.") };
  if (publicKey.startsWith("prod_")) {
    return { refusal: fError(401, "authentication_error", "unknown_merchant_id", "prod_ keys belong to live processing; the sandbox takes dev_ keys.") };
  }
  const raw = await request.text();
  const signature = request.headers.get("x-signature") ?? "";
  const found = await findAcceptingAccount(
    context.db,
    SLUG,
    (credentials) => credentials.public_key === publicKey,
    (account) => verifyF(String(account.credentials.secret_key ?? ""), raw, signature),
  );
  // An unknown public key and a bad signature are one refusal, or it would tell which public keys exist.
  if (found.kind !== "found") return { refusal: fError(401, F_SIGN_IN_REFUSAL.type, F_SIGN_IN_REFUSAL.code, F_SIGN_IN_REFUSAL.message) };
  return { account: found.account, raw };
}

const missing = (): FAnswer =>
  fError(
    404,
    "invalid_request_error",
    "resource_missing",
    "No such endpoint. Provider F has POST /v1/charges, GET /v1/charges/{id}, GET /v1/charges?idempotency_key={reference}, " +
      "POST /v1/refunds, GET /v1/refunds/{id}, GET /v1/refunds?idempotency_key={reference}, GET /v1/disputes/{id}, " +
      "POST /v1/disputes/{id}/evidence, POST /v1/disputes/{id}/close and GET /v1/account.",
  );

type Call = { account: SandboxAccount; raw: string; context: SandboxContext; params: Readonly<Record<string, string>>; key: string | null };

const route = sandboxRoutes<(call: Call) => Promise<FAnswer> | FAnswer>({
  "GET v1/account": ({ account }) => ({
    status: 200,
    body: { object: "account", id: account.credentials.public_key, livemode: false, currency: account.credentials.currency },
  }),
  "POST v1/refunds": ({ account, raw, context }) => createRefund(context.db, account, parseJson(raw)),
  "GET v1/refunds/{id}": ({ account, context, params }) => readRefund(context.db, account, { id: params.id! }),
  "GET v1/refunds": ({ account, context, key }) => readRefund(context.db, account, { reference: key ?? undefined }),
  "POST v1/charges": ({ account, raw, context }) => createCharge(context.db, account, parseJson(raw), context.publicBaseUrl),
  "POST v1/saved_cards/detach": ({ account, raw, context }) => detachSavedCard(context.db, account, parseJson(raw)),
  "GET v1/charges/{id}": async ({ account, context, params }) => readCharge(account, await findRecordByReference(context.db, SLUG, params.id!)),
  // Disputes (../wire.ts).
  "GET v1/disputes/{id}": ({ account, context, params }) => readDispute(context.db, account, decodeURIComponent(params.id!)),
  "POST v1/disputes/{id}/evidence": ({ account, raw, context, params }) => submitEvidence(context.db, account, decodeURIComponent(params.id!), parseJson(raw)),
  "POST v1/disputes/{id}/close": ({ account, raw, context, params }) => closeDispute(context.db, account, decodeURIComponent(params.id!), parseJson(raw)),
  "GET v1/charges": async ({ account, context, key }) =>
    readCharge(account, key ? await findRecordByIdempotencyKey(context.db, SLUG, account.connectionId, key) : undefined),
});

export const providerFSandbox: SandboxHandler = async (request, context) => {
  const authenticated = await authenticate(request, context);
  if ("refusal" in authenticated) return json(authenticated.refusal);
  const match = route(request.method, context.path);
  if (match.kind !== "found") return json(missing());
  const key = new URL(request.url).searchParams.get("idempotency_key");
  return json(await match.handler({ account: authenticated.account, raw: authenticated.raw, context, params: match.params, key }));
};
