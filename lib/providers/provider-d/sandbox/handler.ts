import "server-only";
import { createHash, timingSafeEqual } from "node:crypto";
import type { SandboxContext, SandboxHandler } from "@/lib/providers/kit/provider-server";
import { sandboxRoutes } from "@/lib/providers/kit/sandbox-routes";
import { findAcceptingAccount } from "@/lib/providers/server/sandbox-account";
import type { SandboxAccount } from "@/lib/sandbox/accounts";
import { D_CARD_PATHS, D_PATHS, D_SIGN_IN_REFUSAL, verifyD } from "../wire";
import { runDisputeAccept, runDisputeEvidence, runDisputeStatus } from "./disputes";
import { runRefund, runRefundStatus } from "./refunds";
import { runCardRemove, runSale, runStatus, SLUG, type DAnswer } from "./sale";

/**
 * Provider D's sandbox under /sandbox/provider-d: POST /merchant/v1/sale, /p2p/v1/transfer,
 * /status, /refund, /refund/status, /dispute/status, /dispute/evidence, /dispute/accept and /ping. POST only, JSON bodies, `{ result }` or
 * `{ error: { code, message } }`. It knows the merchant by `merchant_id` in the body, then checks
 * `Api-Key` against that merchant's API key and `Sign` (HMAC-SHA512 of the raw body) against its
 * secret key. Whichever of the three is wrong, the refusal is the same 401 unauthorized
 * (`D_SIGN_IN_REFUSAL` in ../wire.ts): a right Api-Key must not show itself.
 */

const json = ({ status, body }: DAnswer) => Response.json(body, { status });
const refuse = (status: number, code: string, message: string) => json({ status, body: { error: { code, message } } });

type Authenticated = { account: SandboxAccount; body: unknown } | { refusal: Response };

async function authenticate(request: Request, context: SandboxContext): Promise<Authenticated> {
  const raw = await request.text();
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    return { refusal: refuse(400, "bad_request", "The body must be JSON.") };
  }
  const merchantId = (body as { merchant_id?: unknown } | null)?.merchant_id;
  const apiKey = request.headers.get("api-key") ?? "";
  if (typeof merchantId !== "string" || merchantId === "") return { refusal: refuse(401, "unknown_merchant", "merchant_id is missing.") };
  const sign = request.headers.get("sign") ?? "";
  // The account is the one whose API key and secret key both prove the request (merchants may share a merchant_id).
  const found = await findAcceptingAccount(
    context.db,
    SLUG,
    (credentials) => credentials.merchant_id === merchantId,
    (account) => {
      // Both checks always run, compared by digest (no early exit, no length shortcut): the time taken
      // must not show a right Api-Key any more than the answer does.
      const keyMatches = timingSafeEqual(digestOf(String(account.credentials.api_key ?? "")), digestOf(apiKey));
      const signMatches = verifyD(String(account.credentials.secret_key ?? ""), raw, sign);
      return apiKey !== "" && typeof account.credentials.api_key === "string" && keyMatches && signMatches;
    },
  );
  // An unknown merchant, a wrong Api-Key and a wrong Sign are one refusal: none of them may show that another part was right.
  if (found.kind !== "found") return { refusal: refuse(401, D_SIGN_IN_REFUSAL.code, D_SIGN_IN_REFUSAL.message) };
  return { account: found.account, body };
}

const digestOf = (text: string) => createHash("sha256").update(text, "utf8").digest();

function ping(account: SandboxAccount, body: unknown): DAnswer {
  const serviceId = (body as { service_id?: unknown } | null)?.service_id;
  if (serviceId !== account.credentials.service_id) {
    return { status: 401, body: { error: { code: "unknown_merchant", message: "This service_id does not belong to the merchant_id." } } };
  }
  return { status: 200, body: { result: { pong: true, merchant_id: account.credentials.merchant_id, p2p: account.credentials.p2p === true } } };
}

type Call = { db: SandboxContext["db"]; account: SandboxAccount; body: unknown };

const route = sandboxRoutes<(call: Call) => Promise<DAnswer> | DAnswer>({
  [`POST ${D_PATHS.sale}`]: ({ db, account, body }) => runSale(db, account, "merchant", body),
  [`POST ${D_PATHS.transfer}`]: ({ db, account, body }) => runSale(db, account, "p2p", body),
  [`POST ${D_PATHS.status}`]: ({ db, account, body }) => runStatus(db, account, body),
  [`POST ${D_PATHS.refund}`]: ({ db, account, body }) => runRefund(db, account, body),
  [`POST ${D_PATHS.refundStatus}`]: ({ db, account, body }) => runRefundStatus(db, account, body),
  [`POST ${D_PATHS.ping}`]: ({ account, body }) => ping(account, body),
  [`POST ${D_CARD_PATHS.remove}`]: ({ db, account, body }) => runCardRemove(db, account, body),
  [`POST ${D_PATHS.disputeStatus}`]: ({ db, account, body }) => runDisputeStatus(db, account, body),
  [`POST ${D_PATHS.disputeEvidence}`]: ({ db, account, body }) => runDisputeEvidence(db, account, body),
  [`POST ${D_PATHS.disputeAccept}`]: ({ db, account, body }) => runDisputeAccept(db, account, body),
});

export const providerDSandbox: SandboxHandler = async (request, context) => {
  if (request.method !== "POST") return refuse(405, "not_found", "Provider D takes POST requests only.");
  const match = route(request.method, context.path);
  if (match.kind !== "found") {
    return refuse(404, "not_found", `No endpoint /${context.path.join("/")}. Provider D has POST ${Object.values(D_PATHS).join(", ")}.`);
  }
  const authenticated = await authenticate(request, context);
  if ("refusal" in authenticated) return authenticated.refusal;
  return json(await match.handler({ db: context.db, account: authenticated.account, body: authenticated.body }));
};
