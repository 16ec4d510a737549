import "server-only";
import { sameText } from "@/lib/providers/kit/callback-scheme";
import type { SandboxContext, SandboxHandler } from "@/lib/providers/kit/provider-server";
import { sandboxRoutes } from "@/lib/providers/kit/sandbox-routes";
import type { SandboxAccount } from "@/lib/sandbox/accounts";
import { findRecordByIdempotencyKey } from "@/lib/sandbox/records";
import { findAcceptingAccount } from "../../server/sandbox-account";
import { readBasicAuthorization } from "../wire";
import { currenciesOf, orderFromRecord, refuse, removeStoredCard, SLUG, takeOrder } from "./orders";
import { refundStatus, takeRefund } from "./refunds";
import { cancellationStatus, captureStatus, takeCancellation, takeCapture } from "./authorizations";
import { disputeStatus, takeAccept, takeEvidence } from "./disputes";

/**
 * Provider C's simulated shop API under /sandbox/provider-c/shop/: POST orders, GET
 * orders/{shop_order_id}, POST refunds, GET refunds/{shop_refund_id}, POST captures, GET
 * captures/{shop_capture_id}, POST cancellations, GET cancellations/{shop_cancellation_id}, GET
 * disputes/{id}, POST disputes/{id}/evidence, POST disputes/{id}/accept, GET whoami. HTTP Basic
 * authentication with the shop login and password. A login C does not know and a wrong password
 * get one and the same refusal: telling them apart would tell anyone which shop logins exist, and
 * the password (also the connection's callback secret) would be the only thing left to guess.
 */

const challenge = (response: Response) => {
  response.headers.set("www-authenticate", 'Basic realm="Provider C shop API"');
  return response;
};

async function authenticate(request: Request, context: SandboxContext): Promise<SandboxAccount | Response> {
  const basic = readBasicAuthorization(request.headers.get("authorization"));
  if (!basic) return challenge(refuse(401, "authentication_required", "Send the shop login and password with HTTP Basic authentication."));
  const found = await findAcceptingAccount(
    context.db,
    SLUG,
    (credentials) => credentials.shop_login === basic.login,
    (account) => typeof account.credentials.shop_password === "string" && sameText(account.credentials.shop_password, basic.password),
  );
  if (found.kind !== "found") return challenge(refuse(401, "invalid_credentials", "The shop login or password is wrong."));
  return found.account;
}

type Call = { request: Request; account: SandboxAccount; context: SandboxContext; params: Readonly<Record<string, string>> };

async function readOrder({ account, context, params }: Call): Promise<Response> {
  const record = await findRecordByIdempotencyKey(context.db, SLUG, account.connectionId, decodeURIComponent(params.id!));
  if (!record || record.operation !== "payment") return refuse(404, "order_not_found", "The shop has no order with that shop_order_id.");
  return Response.json(orderFromRecord(record));
}

const route = sandboxRoutes<(call: Call) => Promise<Response> | Response>({
  "GET shop/whoami": ({ account }) => Response.json({ shop_login: account.credentials.shop_login, currencies: currenciesOf(account) }),
  "POST shop/orders": async ({ request, account, context }) => takeOrder(await request.text(), account, context),
  "GET shop/orders/{id}": readOrder,
  "POST shop/refunds": async ({ request, account, context }) => takeRefund(await request.text(), account, context),
  "GET shop/refunds/{id}": ({ account, context, params }) => refundStatus(decodeURIComponent(params.id!), account, context),
  "POST shop/stored-cards/remove": async ({ request, account, context }) => removeStoredCard(await request.text(), account, context),
  // Authorize now, capture later (../wire.ts).
  "POST shop/captures": async ({ request, account, context }) => takeCapture(await request.text(), account, context),
  "GET shop/captures/{id}": ({ account, context, params }) => captureStatus(decodeURIComponent(params.id!), account, context),
  "POST shop/cancellations": async ({ request, account, context }) => takeCancellation(await request.text(), account, context),
  "GET shop/cancellations/{id}": ({ account, context, params }) => cancellationStatus(decodeURIComponent(params.id!), account, context),
  // Disputes (../wire.ts).
  "GET shop/disputes/{id}": ({ account, context, params }) => disputeStatus(decodeURIComponent(params.id!), account, context),
  "POST shop/disputes/{id}/evidence": async ({ request, account, context, params }) =>
    takeEvidence(decodeURIComponent(params.id!), await request.text(), account, context),
  "POST shop/disputes/{id}/accept": async ({ request, account, context, params }) =>
    takeAccept(decodeURIComponent(params.id!), await request.text(), account, context),
});

export const providerCSandbox: SandboxHandler = async (request, context) => {
  const match = route(request.method, context.path);
  if (match.kind !== "found") {
    return refuse(
      404,
      "not_found",
      "Provider C's shop API has POST /shop/orders, GET /shop/orders/{shop_order_id}, POST /shop/refunds, GET /shop/refunds/{shop_refund_id}, POST /shop/captures, GET /shop/captures/{shop_capture_id}, POST /shop/cancellations, GET /shop/cancellations/{shop_cancellation_id}, GET /shop/disputes/{id}, POST /shop/disputes/{id}/evidence, POST /shop/disputes/{id}/accept, POST /shop/stored-cards/remove and GET /shop/whoami.",
    );
  }
  const account = await authenticate(request, context);
  if (account instanceof Response) return account;
  return match.handler({ request, account, context, params: match.params });
};
