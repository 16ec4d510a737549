import "server-only";
import { isFresh, sameText } from "@/lib/providers/kit/callback-scheme";
import type { SandboxContext, SandboxHandler } from "@/lib/providers/kit/provider-server";
import { sandboxRoutes } from "@/lib/providers/kit/sandbox-routes";
import type { SandboxAccount } from "@/lib/sandbox/accounts";
import { findRecordByIdempotencyKey } from "@/lib/sandbox/records";
import { findAcceptingAccount } from "../../server/sandbox-account";
import { B_HEADERS, B_SIGN_IN_REFUSAL, bDigest, readSignatureHeader } from "../wire";
import { answerFromRecord, forgetCardToken, refuse, SLUG, takeCharge } from "./charges";
import { refundStatus, takeRefund } from "./refunds";
import { captureStatus, takeCapture, takeVoid, voidStatus } from "./authorizations";
import { disputeStatus, takeAccept, takeEvidence } from "./disputes";

/**
 * Provider B's simulated terminal API under /sandbox/provider-b/v1/: POST charges, GET
 * charges/{order_ref}, POST refunds, GET refunds/{refund_ref}, disputes (GET disputes/{dispute_txn},
 * POST disputes/evidence, POST disputes/accept), GET auth-check. `X-Terminal` names the terminal and `X-Signature:
 * t=…,v1=…` carries the HMAC-SHA256 of `${t}.${raw body}` with its secret key. A signature more
 * than five minutes old is refused (stale_timestamp) before any terminal is looked up; an unknown
 * terminal and a wrong signature get one refusal (../wire.ts).
 */

function proves(secret: unknown, timestamp: number, raw: string, digest: string): boolean {
  return typeof secret === "string" && sameText(bDigest(secret, timestamp, raw), digest);
}

async function authenticate(request: Request, context: SandboxContext, raw: string): Promise<SandboxAccount | Response> {
  const terminal = request.headers.get(B_HEADERS.terminal) ?? "";
  const { timestamp, digest } = readSignatureHeader(request.headers.get(B_HEADERS.signature) ?? "");
  const signature = timestamp === undefined || digest === undefined ? undefined : { timestamp, digest };
  if (!terminal || !signature) return refuse(401, "missing_signature", "X-Terminal and X-Signature are required.");
  if (!isFresh(signature.timestamp)) return refuse(401, "stale_timestamp", "The signature is older than five minutes.");
  const found = await findAcceptingAccount(
    context.db,
    SLUG,
    (credentials) => credentials.terminal_id === terminal,
    (account) => proves(account.credentials.secret_key, signature.timestamp, raw, signature.digest),
  );
  // An unknown terminal and a wrong signature are one refusal, or it would tell which terminal IDs exist.
  if (found.kind !== "found") return refuse(401, B_SIGN_IN_REFUSAL.error_code, B_SIGN_IN_REFUSAL.error_text);
  return found.account;
}

type Call = { raw: string; account: SandboxAccount; context: SandboxContext; params: Readonly<Record<string, string>> };

async function readCharge({ account, context, params }: Call): Promise<Response> {
  const record = await findRecordByIdempotencyKey(context.db, SLUG, account.connectionId, decodeURIComponent(params.id!));
  // Refunds share the account's key space: a refund is not a charge.
  if (!record || record.operation !== "payment") return refuse(404, "not_found", "No charge with that order_ref on this terminal.");
  return Response.json(answerFromRecord(record));
}

const route = sandboxRoutes<(call: Call) => Promise<Response> | Response>({
  "GET v1/auth-check": ({ account }) => Response.json({ result: "ok", terminal_id: account.credentials.terminal_id }),
  "POST v1/charges": ({ raw, account, context }) => takeCharge(raw, account, context),
  "GET v1/charges/{id}": readCharge,
  "POST v1/refunds": ({ raw, account, context }) => takeRefund(raw, account, context),
  "GET v1/refunds/{id}": ({ account, context, params }) => refundStatus(decodeURIComponent(params.id!), account, context),
  // Authorize now, capture later (../wire.ts).
  "POST v1/captures": ({ raw, account, context }) => takeCapture(raw, account, context),
  "GET v1/captures/{id}": ({ account, context, params }) => captureStatus(decodeURIComponent(params.id!), account, context),
  "POST v1/voids": ({ raw, account, context }) => takeVoid(raw, account, context),
  "GET v1/voids/{id}": ({ account, context, params }) => voidStatus(decodeURIComponent(params.id!), account, context),
  "POST v1/cards/forget": ({ raw, account, context }) => forgetCardToken(raw, account, context),
  // Disputes (../wire.ts).
  "GET v1/disputes/{id}": ({ account, context, params }) => disputeStatus(decodeURIComponent(params.id!), account, context),
  "POST v1/disputes/evidence": ({ raw, account, context }) => takeEvidence(raw, account, context),
  "POST v1/disputes/accept": ({ raw, account, context }) => takeAccept(raw, account, context),
});

export const providerBSandbox: SandboxHandler = async (request, context) => {
  const [version, , , ...rest] = context.path;
  if (version !== "v1" || rest.length > 0) return refuse(404, "not_found", "Provider B's API is under /v1.");
  const match = route(request.method, context.path);
  if (match.kind !== "found") {
    return refuse(
      404,
      "not_found",
      "Provider B has POST /v1/charges, GET /v1/charges/{order_ref}, POST /v1/refunds, GET /v1/refunds/{refund_ref}, POST /v1/captures, GET /v1/captures/{capture_ref}, POST /v1/voids, GET /v1/voids/{void_ref}, GET /v1/disputes/{dispute_txn}, POST /v1/disputes/evidence, POST /v1/disputes/accept and GET /v1/auth-check.",
    );
  }
  const raw = request.method === "GET" ? "" : await request.text();
  const account = await authenticate(request, context, raw);
  if (account instanceof Response) return account;
  return match.handler({ raw, account, context, params: match.params });
};
