import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

/** The session cookie is next-auth's business; here `auth()` answers with whoever the test signs in. */
const session = vi.hoisted(() => ({ userId: undefined as string | undefined }));
vi.mock("@/lib/auth", () => ({ auth: async () => (session.userId ? { user: { id: session.userId } } : null), signIn: async () => undefined }));
// Only for AuthError's class in lib/actions/account.ts: next-auth itself needs Next's runtime.
vi.mock("next-auth", () => ({ AuthError: class AuthError extends Error {} }));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));

import * as publicKeyRoute from "@/app/(dashboard)/connections/[id]/public-key/route";
import * as payPayRoute from "@/app/(public)/pay/[id]/pay/route";
import * as payReturnRoute from "@/app/(public)/pay/[id]/return/route";
import * as payPageRoute from "@/app/(public)/pay/[id]/route";
import * as payStatusRoute from "@/app/(public)/pay/[id]/status/route";
import * as paymentAttemptsRoute from "@/app/api/commerce/payment-invoices/[id]/attempts/route";
import * as paymentRoute from "@/app/api/commerce/payment-invoices/[id]/route";
import * as payoutAttemptsRoute from "@/app/api/commerce/payout-invoices/[id]/attempts/route";
import * as payoutProcessRoute from "@/app/api/commerce/payout-invoices/[id]/process/route";
import * as payoutCancelRoute from "@/app/api/commerce/payout-invoices/[id]/cancel/route";
import * as paymentRefundsRoute from "@/app/api/commerce/payment-invoices/[id]/refunds/route";
import * as paymentCaptureRoute from "@/app/api/commerce/payment-invoices/[id]/capture/route";
import * as paymentVoidRoute from "@/app/api/commerce/payment-invoices/[id]/void/route";
import * as refundRoute from "@/app/api/commerce/refunds/[id]/route";
import * as paymentMethodRoute from "@/app/api/commerce/payment-methods/[id]/route";
import * as blocklistEntryRoute from "@/app/api/risk/blocklist/[id]/route";
import * as disputeRoute from "@/app/api/commerce/disputes/[id]/route";
import * as disputeEvidenceRoute from "@/app/api/commerce/disputes/[id]/evidence/route";
import * as disputeSubmitRoute from "@/app/api/commerce/disputes/[id]/submit/route";
import * as disputeAcceptRoute from "@/app/api/commerce/disputes/[id]/accept/route";
import * as fileRoute from "@/app/api/commerce/files/[id]/route";
import * as payoutRoute from "@/app/api/commerce/payout-invoices/[id]/route";
import * as payoutCollectionRoute from "@/app/api/commerce/payout-invoices/route";
import * as connectionRoute from "@/app/api/connections/[id]/route";
import * as connectionCollectionRoute from "@/app/api/connections/route";
import * as dashboardInvoiceRoute from "@/app/api/dashboard/invoices/[id]/route";
import * as dashboardDisputeFilesRoute from "@/app/api/dashboard/disputes/[id]/files/route";
import * as dashboardFileRoute from "@/app/api/dashboard/files/[id]/route";
import * as dashboardDisputeExportRoute from "@/app/api/dashboard/disputes/export/route";
import * as dashboardExportRoute from "@/app/api/dashboard/invoices/export/route";
import * as dashboardListRoute from "@/app/api/dashboard/invoices/route";
import * as auditExportRoute from "@/app/api/dashboard/audit-log/export/route";
import * as paymentCollectionRoute from "@/app/api/commerce/payment-invoices/route";
import * as routingOrderRoute from "@/app/api/routing/[id]/route";
import * as routingCompareRoute from "@/app/api/routing/[id]/compare/route";
import * as routingRollbackRoute from "@/app/api/routing/[id]/rollback/route";
import * as routingVersionRoute from "@/app/api/routing/[id]/versions/[version]/route";
import * as routingVersionsRoute from "@/app/api/routing/[id]/versions/route";
import * as routingSettingsRoute from "@/app/api/routing/settings/route";
import { renameBusinessAction } from "@/lib/actions/account";
import { updateAlertRuleAction } from "@/lib/actions/alerts";
import { createApiKeyAction, revokeApiKeyAction, rollApiKeyAction } from "@/lib/actions/api-keys";
import { checkStatusNowAction } from "@/lib/actions/check-status";
import {
  createConnectionAction,
  deleteConnectionAction,
  generateKeyPairAction,
  setConnectionEnabledAction,
  updateConnectionAction,
} from "@/lib/actions/connections";
import { setRequireOwnerMfaAction } from "@/lib/actions/mfa";
import { processPayoutAction } from "@/lib/actions/process-payout";
import { refundInvoiceAction } from "@/lib/actions/refunds";
import { acceptDisputeAction, saveDisputeEvidenceAction, submitDisputeAction } from "@/lib/actions/disputes";
import { captureInvoiceAction, voidInvoiceAction } from "@/lib/actions/authorizations";
import { listChargeableCardsAction, removeSavedCardAction } from "@/lib/actions/payment-methods";
import { addBlocklistEntryAction, blockInvoiceCardAction, removeBlocklistEntryAction, saveRiskSettingsAction } from "@/lib/actions/risk";
import { DEFAULT_RISK_SETTINGS } from "@/lib/risk/settings";
import { cancelPayoutAction } from "@/lib/actions/cancel-payout";
import { sendComposedInvoiceAction } from "@/lib/actions/invoice-composer";
import { createPaymentLinkAction } from "@/lib/actions/payment-link";
import type { ActionResult } from "@/lib/actions/result";
import {
  compareRoutingVersionsAction,
  olderRoutingVersionsAction,
  rollbackRoutingAction,
  saveRoutingOrderAction,
  saveRoutingRulesAction,
  saveSuccessSettingsAction,
} from "@/lib/actions/routing";
import { setSandboxFaultAction } from "@/lib/actions/sandbox-faults";
import { updateInvoiceLifetimeAction, updateMerchantSettingsAction, updateMerchantTimeZoneAction } from "@/lib/actions/settings";
import { changeRoleAction, inviteMemberAction, removeMemberAction, resendInviteAction, revokeInviteAction } from "@/lib/actions/team";
import { testConnectionAction, testCredentialsAction } from "@/lib/actions/test-connection";
import {
  createWebhookEndpointAction,
  deleteWebhookEndpointAction,
  resendWebhookEventAction,
  rotateWebhookSecretAction,
  sendTestWebhookAction,
  updateWebhookEndpointAction,
} from "@/lib/actions/webhooks";
import { mintSessionCredential } from "@/lib/api-keys/session-credential";
import { resetRateLimits } from "@/lib/api/rate-limit";
import { findTemplate, templateEnvelope } from "@/lib/composer/templates";
import { logger } from "@/lib/logger";
import { sampleCredentials } from "@/lib/providers/server/sample-credentials";
import { getRoutingOrder, saveRoutingOrder } from "@/lib/routing/orders";
import { SANDBOX_FAULT_MODES } from "@/lib/sandbox/fault-modes";
import { createAttributes, editAttributes } from "./helpers/connection-fixtures";
import { and, eq, isNotNull, sql } from "drizzle-orm";
import * as schema from "@/lib/db/schema";
import { setUpTestDb, unique } from "./helpers/db";
import { setUpFakeProvider } from "./helpers/fake-provider";
import { newReference } from "./helpers/invoice-fixtures";
import * as accountModule from "@/lib/actions/account";
import * as alertsModule from "@/lib/actions/alerts";
import * as api_keysModule from "@/lib/actions/api-keys";
import * as authorizationsModule from "@/lib/actions/authorizations";
import * as payment_methodsModule from "@/lib/actions/payment-methods";
import * as riskModule from "@/lib/actions/risk";
import * as cancel_payoutModule from "@/lib/actions/cancel-payout";
import * as check_statusModule from "@/lib/actions/check-status";
import * as connectionsModule from "@/lib/actions/connections";
import * as invoice_composerModule from "@/lib/actions/invoice-composer";
import * as mfaModule from "@/lib/actions/mfa";
import * as payment_linkModule from "@/lib/actions/payment-link";
import * as process_payoutModule from "@/lib/actions/process-payout";
import * as refundsModule from "@/lib/actions/refunds";
import * as disputesModule from "@/lib/actions/disputes";
import * as routingModule from "@/lib/actions/routing";
import * as sandbox_faultsModule from "@/lib/actions/sandbox-faults";
import * as settingsModule from "@/lib/actions/settings";
import * as teamModule from "@/lib/actions/team";
import * as test_connectionModule from "@/lib/actions/test-connection";
import * as view_modeModule from "@/lib/actions/view-mode";
import * as webhooksModule from "@/lib/actions/webhooks";
import { allows, refusalFor, ROLE_ORDER, type Permission } from "@/lib/identity/permissions";
import { exportedActions, hasParam, readRepoFile, repoFiles, routeExports, seedTenant, snapshotTenant, type TenantWorld } from "./helpers/tenant-world";

/**
 * Every route handler under a [param] folder, every server action
 * and the id-carrying request bodies, tried by merchant A with merchant B's ids and by A's support
 * member with A's own ids where only owners may act. Each answer must be a refusal (404/403/401 or
 * the action's refusal message) carrying none of B's data, and the rows of the merchant attacked
 * must be exactly as before (snapshotTenant compares every table of the schema). The tables below
 * are checked against the files: a new route.ts or action export that they do not name fails the
 * coverage tests, so nothing new escapes this suite.
 */
const t = setUpTestDb();
const fake = setUpFakeProvider({ replace: ["provider-a"], providerZ: true });

let A: TenantWorld;
let B: TenantWorld;

beforeAll(async () => {
  vi.spyOn(logger, "info").mockImplementation(() => {});
  A = await seedTenant(t.db, "A");
  B = await seedTenant(t.db, "B", { withProviderZ: true });
  vi.restoreAllMocks();
});
beforeEach(() => {
  resetRateLimits();
  session.userId = undefined;
  vi.spyOn(logger, "info").mockImplementation(() => {});
});
afterEach(() => vi.restoreAllMocks());

// ---------------------------------------------------------------------------------------------
// Route handlers
// ---------------------------------------------------------------------------------------------

type Params = Record<string, string>;
type Handler = (request: Request, context: { params: Promise<Params> }) => Promise<Response>;
/** Route handlers are typed by their own params; the table calls them all with a plain record. */
const handler = (exported: unknown): Handler => exported as Handler;
type RouteCase = {
  handler: Handler;
  /** How a caller proves who it is: an API key, the dashboard session, or nothing (public). */
  auth: "key" | "session" | "public";
  params: (w: TenantWorld) => Params;
  body?: (w: TenantWorld) => unknown;
  query?: string;
  /** Session routes behind a permission (lib/identity/permissions.ts): a member of the same merchant whose role lacks it gets 403 (roleProbes). */
  needs?: Permission;
  /**
   * Key routes that also take the composer's short-lived session credential (COMPOSER_MAY_CALL):
   * reads of invoices, which support members may see anyway. Every other key route must refuse
   * that credential (401), so a support member cannot reach through the API what the dashboard
   * keeps for owners.
   */
  composer?: boolean;
};
type Exempt = { exempt: string };

const invoiceParams = (direction: "payment" | "payout") => (w: TenantWorld) => ({ id: direction === "payment" ? w.paymentId : w.payoutId });
const connectionBody = { data: { type: "connection", attributes: { label: "taken over" } } };

/** Every (route.ts under a [param] folder, exported method): a case, or why it takes no merchant's id. */
const ROUTES: Record<string, RouteCase | Exempt> = {
  "app/(dashboard)/connections/[id]/public-key/route.ts GET": {
    handler: handler(publicKeyRoute.GET),
    auth: "session",
    needs: "connections.write",
    params: (w) => ({ id: w.e.id }),
    query: "?field=public_key",
  },
  "app/(public)/pay/[id]/route.ts GET": { handler: handler(payPageRoute.GET), auth: "public", params: invoiceParams("payout") },
  // Public by design: a payment's unguessable id is the hosted page's key. A payout's id is no hosted page.
  "app/(public)/pay/[id]/pay/route.ts POST": {
    handler: handler(payPayRoute.POST),
    auth: "public",
    params: invoiceParams("payout"),
    body: () => ({ number: "4242 4242 4242 4242", expiry: "12/30", cvc: "737", holder: "Mallory" }),
  },
  "app/(public)/pay/assets/[file]/route.ts GET": {
    exempt: "the hosted page's stylesheet and script, named by a hash of their content: nothing of any merchant",
  },
  "app/(public)/pay/[id]/return/route.ts GET": { handler: handler(payReturnRoute.GET), auth: "public", params: invoiceParams("payout") },
  "app/(public)/pay/[id]/status/route.ts GET": { handler: handler(payStatusRoute.GET), auth: "public", params: invoiceParams("payout") },
  "app/api/auth/[...nextauth]/route.ts GET": { exempt: "next-auth's own endpoints (session, CSRF, providers): no merchant's id in the path" },
  "app/api/auth/[...nextauth]/route.ts POST": {
    exempt: "next-auth's sign-in and sign-out: no merchant's id in the path (the sign-in limit: e2e/tenants-sign-in-limit.api.spec.ts)",
  },
  "app/api/callbacks/[slug]/[connectionId]/route.ts POST": {
    exempt:
      "providers' callbacks: authenticated by the provider's signature over the body with that connection's credentials (callbacks-verification.test.ts), not by a merchant",
  },
  "app/api/commerce/[[...rest]]/route.ts GET": { exempt: "the catch-all answers 404 for every path" },
  "app/api/commerce/[[...rest]]/route.ts HEAD": { exempt: "the catch-all answers 404 for every path" },
  "app/api/commerce/[[...rest]]/route.ts POST": { exempt: "the catch-all answers 404 for every path" },
  "app/api/commerce/[[...rest]]/route.ts PUT": { exempt: "the catch-all answers 404 for every path" },
  "app/api/commerce/[[...rest]]/route.ts PATCH": { exempt: "the catch-all answers 404 for every path" },
  "app/api/commerce/[[...rest]]/route.ts DELETE": { exempt: "the catch-all answers 404 for every path" },
  "app/api/commerce/[[...rest]]/route.ts OPTIONS": { exempt: "the catch-all answers 404 for every path" },
  "app/api/[...rest]/route.ts GET": { exempt: "the catch-all answers 404 for every path" },
  "app/api/[...rest]/route.ts HEAD": { exempt: "the catch-all answers 404 for every path" },
  "app/api/[...rest]/route.ts POST": { exempt: "the catch-all answers 404 for every path" },
  "app/api/[...rest]/route.ts PUT": { exempt: "the catch-all answers 404 for every path" },
  "app/api/[...rest]/route.ts PATCH": { exempt: "the catch-all answers 404 for every path" },
  "app/api/[...rest]/route.ts DELETE": { exempt: "the catch-all answers 404 for every path" },
  "app/api/[...rest]/route.ts OPTIONS": { exempt: "the catch-all answers 404 for every path" },
  "app/api/commerce/payment-invoices/[id]/attempts/route.ts GET": {
    handler: handler(paymentAttemptsRoute.GET),
    auth: "key",
    composer: true,
    params: invoiceParams("payment"),
  },
  "app/api/commerce/payment-invoices/[id]/route.ts GET": { handler: handler(paymentRoute.GET), auth: "key", composer: true, params: invoiceParams("payment") },
  "app/api/commerce/payment-invoices/[id]/refunds/route.ts GET": {
    handler: handler(paymentRefundsRoute.GET),
    auth: "key",
    composer: true,
    params: invoiceParams("payment"),
  },
  "app/api/commerce/payment-invoices/[id]/refunds/route.ts POST": {
    handler: handler(paymentRefundsRoute.POST),
    auth: "key",
    composer: true,
    params: invoiceParams("payment"),
    body: () => ({ data: { type: "refund", attributes: { reference_id: unique("refund"), amount: "0.01" } } }),
  },
  "app/api/commerce/refunds/[id]/route.ts GET": { handler: handler(refundRoute.GET), auth: "key", composer: true, params: (w) => ({ id: w.refundId }) },
  // Another merchant's payment is 404 to a capture or void, as to a refund.
  "app/api/commerce/payment-invoices/[id]/capture/route.ts POST": {
    handler: handler(paymentCaptureRoute.POST),
    auth: "key",
    composer: true,
    params: invoiceParams("payment"),
    body: () => ({ data: { type: "capture", attributes: { amount: "0.01" } } }),
  },
  "app/api/commerce/payment-invoices/[id]/void/route.ts POST": {
    handler: handler(paymentVoidRoute.POST),
    auth: "key",
    composer: true,
    params: invoiceParams("payment"),
  },
  "app/api/commerce/payment-methods/[id]/route.ts GET": {
    handler: handler(paymentMethodRoute.GET),
    auth: "key",
    composer: true,
    params: (w) => ({ id: w.paymentMethodId }),
  },
  "app/api/commerce/payment-methods/[id]/route.ts DELETE": {
    handler: handler(paymentMethodRoute.DELETE),
    auth: "key",
    composer: true,
    params: (w) => ({ id: w.paymentMethodId }),
  },
  // Another merchant's dispute or file is 404 on every route, before anything reaches a provider.
  "app/api/risk/blocklist/[id]/route.ts GET": { handler: handler(blocklistEntryRoute.GET), auth: "key", params: (w) => ({ id: w.blocklistId }) },
  "app/api/risk/blocklist/[id]/route.ts DELETE": { handler: handler(blocklistEntryRoute.DELETE), auth: "key", params: (w) => ({ id: w.blocklistId }) },
  "app/api/commerce/disputes/[id]/route.ts GET": { handler: handler(disputeRoute.GET), auth: "key", params: (w) => ({ id: w.disputeId }) },
  "app/api/commerce/disputes/[id]/evidence/route.ts POST": {
    handler: handler(disputeEvidenceRoute.POST),
    auth: "key",
    params: (w) => ({ id: w.disputeId }),
    body: (w) => ({ data: { type: "dispute-evidence", attributes: { explanation: "taken over", file_ids: [w.fileId] } } }),
  },
  "app/api/commerce/disputes/[id]/submit/route.ts POST": { handler: handler(disputeSubmitRoute.POST), auth: "key", params: (w) => ({ id: w.disputeId }) },
  "app/api/commerce/disputes/[id]/accept/route.ts POST": { handler: handler(disputeAcceptRoute.POST), auth: "key", params: (w) => ({ id: w.disputeId }) },
  "app/api/commerce/files/[id]/route.ts GET": { handler: handler(fileRoute.GET), auth: "key", params: (w) => ({ id: w.fileId }) },
  "app/api/commerce/payout-invoices/[id]/attempts/route.ts GET": {
    handler: handler(payoutAttemptsRoute.GET),
    auth: "key",
    composer: true,
    params: invoiceParams("payout"),
  },
  "app/api/commerce/payout-invoices/[id]/process/route.ts POST": { handler: handler(payoutProcessRoute.POST), auth: "key", params: invoiceParams("payout") },
  "app/api/commerce/payout-invoices/[id]/cancel/route.ts POST": {
    handler: handler(payoutCancelRoute.POST),
    auth: "key",
    composer: true,
    params: invoiceParams("payout"),
  },
  "app/api/commerce/payout-invoices/[id]/route.ts GET": { handler: handler(payoutRoute.GET), auth: "key", composer: true, params: invoiceParams("payout") },
  "app/api/connections/[id]/route.ts GET": { handler: handler(connectionRoute.GET), auth: "key", params: (w) => ({ id: w.a.id }) },
  "app/api/connections/[id]/route.ts PATCH": {
    handler: handler(connectionRoute.PATCH),
    auth: "key",
    params: (w) => ({ id: w.a.id }),
    body: () => connectionBody,
  },
  "app/api/connections/[id]/route.ts DELETE": { handler: handler(connectionRoute.DELETE), auth: "key", params: (w) => ({ id: w.a.id }) },
  "app/api/dashboard/invoices/[id]/route.ts GET": { handler: handler(dashboardInvoiceRoute.GET), auth: "session", params: invoiceParams("payment") },
  // The dispute page's upload and the evidence files' download: another merchant's dispute or file is 404.
  "app/api/dashboard/disputes/[id]/files/route.ts POST": {
    handler: handler(dashboardDisputeFilesRoute.POST),
    auth: "session",
    needs: "disputes.respond",
    params: (w) => ({ id: w.disputeId }),
  },
  "app/api/dashboard/files/[id]/route.ts GET": { handler: handler(dashboardFileRoute.GET), auth: "session", params: (w) => ({ id: w.fileId }) },
  "app/api/routing/[id]/route.ts GET": { handler: handler(routingOrderRoute.GET), auth: "key", params: (w) => ({ id: w.routingOrderId }) },
  "app/api/routing/[id]/route.ts PATCH": {
    handler: handler(routingOrderRoute.PATCH),
    auth: "key",
    params: (w) => ({ id: w.routingOrderId }),
    body: (w) => ({ data: { type: "routing-order", attributes: { connection_ids: [w.z?.id ?? w.a.id] } } }),
  },
  "app/api/routing/[id]/versions/route.ts GET": { handler: handler(routingVersionsRoute.GET), auth: "key", params: (w) => ({ id: w.routingOrderId }) },
  "app/api/routing/[id]/versions/[version]/route.ts GET": {
    handler: handler(routingVersionRoute.GET),
    auth: "key",
    params: (w) => ({ id: w.routingOrderId, version: "1" }),
  },
  "app/api/routing/[id]/compare/route.ts GET": {
    handler: handler(routingCompareRoute.GET),
    auth: "key",
    params: (w) => ({ id: w.routingOrderId }),
    query: "?from=1&to=1",
  },
  "app/api/routing/[id]/rollback/route.ts POST": {
    handler: handler(routingRollbackRoute.POST),
    auth: "key",
    params: (w) => ({ id: w.routingOrderId }),
    body: () => ({ data: { type: "routing-rollback", attributes: { version: 1 } } }),
  },
  "app/sandbox/[slug]/[[...path]]/route.ts GET": {
    exempt: "the providers' simulated APIs: authenticated by each provider's own credentials and signatures (sandbox-accounts.test.ts)",
  },
  "app/sandbox/[slug]/[[...path]]/route.ts HEAD": { exempt: "the providers' simulated APIs (see GET)" },
  "app/sandbox/[slug]/[[...path]]/route.ts POST": { exempt: "the providers' simulated APIs (see GET)" },
  "app/sandbox/[slug]/[[...path]]/route.ts PUT": { exempt: "the providers' simulated APIs (see GET)" },
  "app/sandbox/[slug]/[[...path]]/route.ts PATCH": { exempt: "the providers' simulated APIs (see GET)" },
  "app/sandbox/[slug]/[[...path]]/route.ts DELETE": { exempt: "the providers' simulated APIs (see GET)" },
  "app/sandbox/[slug]/[[...path]]/route.ts OPTIONS": { exempt: "the providers' simulated APIs (see GET)" },
};

/** The route modules with cases, for the handlers lib/api/methods.ts adds for methods a route does not serve. */
const ROUTE_MODULES: Record<string, Record<string, unknown>> = {
  "app/(dashboard)/connections/[id]/public-key/route.ts": publicKeyRoute,
  "app/(public)/pay/[id]/route.ts": payPageRoute,
  "app/(public)/pay/[id]/pay/route.ts": payPayRoute,
  "app/(public)/pay/[id]/return/route.ts": payReturnRoute,
  "app/(public)/pay/[id]/status/route.ts": payStatusRoute,
  "app/api/commerce/payment-invoices/[id]/attempts/route.ts": paymentAttemptsRoute,
  "app/api/commerce/payment-invoices/[id]/route.ts": paymentRoute,
  "app/api/commerce/payment-invoices/[id]/refunds/route.ts": paymentRefundsRoute,
  "app/api/commerce/refunds/[id]/route.ts": refundRoute,
  "app/api/commerce/payment-invoices/[id]/capture/route.ts": paymentCaptureRoute,
  "app/api/commerce/payment-invoices/[id]/void/route.ts": paymentVoidRoute,
  "app/api/commerce/payment-methods/[id]/route.ts": paymentMethodRoute,
  "app/api/risk/blocklist/[id]/route.ts": blocklistEntryRoute,
  "app/api/commerce/disputes/[id]/route.ts": disputeRoute,
  "app/api/commerce/disputes/[id]/evidence/route.ts": disputeEvidenceRoute,
  "app/api/commerce/disputes/[id]/submit/route.ts": disputeSubmitRoute,
  "app/api/commerce/disputes/[id]/accept/route.ts": disputeAcceptRoute,
  "app/api/commerce/files/[id]/route.ts": fileRoute,
  "app/api/commerce/payout-invoices/[id]/attempts/route.ts": payoutAttemptsRoute,
  "app/api/commerce/payout-invoices/[id]/process/route.ts": payoutProcessRoute,
  "app/api/commerce/payout-invoices/[id]/cancel/route.ts": payoutCancelRoute,
  "app/api/commerce/payout-invoices/[id]/route.ts": payoutRoute,
  "app/api/connections/[id]/route.ts": connectionRoute,
  "app/api/dashboard/invoices/[id]/route.ts": dashboardInvoiceRoute,
  "app/api/dashboard/disputes/[id]/files/route.ts": dashboardDisputeFilesRoute,
  "app/api/dashboard/files/[id]/route.ts": dashboardFileRoute,
  "app/api/routing/[id]/route.ts": routingOrderRoute,
  "app/api/routing/[id]/versions/route.ts": routingVersionsRoute,
  "app/api/routing/[id]/versions/[version]/route.ts": routingVersionRoute,
  "app/api/routing/[id]/compare/route.ts": routingCompareRoute,
  "app/api/routing/[id]/rollback/route.ts": routingRollbackRoute,
};

/** Every route.ts under a [param] folder, with the methods it exports, read from the files. */
const DISCOVERED_ROUTES = repoFiles("app", (f) => f.endsWith("/route.ts") && hasParam(f)).map((file) => ({
  file,
  exports: routeExports(readRepoFile(file)),
}));

type Caller = { bearer?: string; userId?: string };
type Answer = { status: number; text: string };

async function callRoute(route: RouteCase, world: TenantWorld, caller: Caller, method: string): Promise<Answer> {
  session.userId = caller.userId;
  const headers = new Headers();
  if (caller.bearer) headers.set("authorization", `Bearer ${caller.bearer}`);
  const init: RequestInit = { method, headers };
  const body = route.body?.(world);
  if (body !== undefined) {
    headers.set("content-type", "application/vnd.api+json");
    init.body = JSON.stringify(body);
  }
  return answerOf(await route.handler(new Request(`http://test/tenant-probe${route.query ?? ""}`, init), { params: Promise.resolve(route.params(world)) }));
}

async function answerOf(response: Response): Promise<Answer> {
  return { status: response.status, text: await response.text() };
}

/** A support member's composer credential, as lib/actions/invoice-composer.ts mints it. */
const supportCredential = (w: TenantWorld) => mintSessionCredential({ merchantId: w.merchantId, userId: w.supportId, role: "support" });

/**
 * One probe: the attacked merchant's rows before and after must be equal, nothing may reach a
 * provider, and the answer must name nothing of the attacked merchant's data but the id it was asked.
 */
async function probe<T>(victim: () => TenantWorld, attempt: () => Promise<T>, text: (answer: T) => string): Promise<T> {
  const before = await snapshotTenant(t.db, victim().merchantId);
  const providerCalls = fake.calls.length;
  const answer = await attempt();
  expect(await snapshotTenant(t.db, victim().merchantId)).toEqual(before);
  expect(fake.calls.length).toBe(providerCalls);
  const said = text(answer);
  for (const marker of B.markers) expect(said).not.toContain(marker);
  return answer;
}

type Probe = { name: string; run: () => Promise<void> };

const routeProbes: Probe[] = Object.entries(ROUTES).flatMap(([name, entry]): Probe[] => {
  if ("exempt" in entry) return [];
  const method = name.split(" ").pop()!;
  const probes: Probe[] = [];
  const tenant = (caller: () => Caller, status: number) =>
    probes.push({
      name: `${name}: merchant A with merchant B's ids → ${status}`,
      run: async () => {
        const answer = await probe(
          () => B,
          () => callRoute(entry, B, caller(), method),
          (a) => a.text,
        );
        expect(answer.status).toBe(status);
      },
    });
  if (entry.auth === "key") tenant(() => ({ bearer: A.key }), 404);
  if (entry.auth === "session") tenant(() => ({ userId: A.ownerId }), 404);
  // The hosted page is public by design (the payment's unguessable id is the key); a payout's id is no hosted page.
  if (entry.auth === "public") tenant(() => ({}), 404);
  // The composer's credential names its merchant inside it: another merchant's ids are as unknown to it as to a key.
  if (entry.auth === "key" && entry.composer) tenant(() => ({ bearer: supportCredential(A) }), 404);
  if (entry.auth === "key" && !entry.composer) {
    probes.push({
      name: `${name}: merchant A's support member's composer credential with A's own ids → 401`,
      run: async () => {
        const answer = await probe(
          () => A,
          () => callRoute(entry, A, { bearer: supportCredential(A) }, method),
          (a) => a.text,
        );
        expect(answer.status).toBe(401);
      },
    });
  }
  return probes;
});

/**
 * Every dashboard route a session calls, by every role of the permission table: a role that has
 * the route's permission gets 200 with merchant A's own ids, any other 403 naming what it may not
 * do, and nothing of the merchant changes.
 */
const SESSION_ROUTES: { name: string; route: RouteCase }[] = [
  { name: "GET /connections/{id}/public-key", route: ROUTES["app/(dashboard)/connections/[id]/public-key/route.ts GET"] as RouteCase },
  { name: "GET /api/dashboard/invoices/{id}", route: ROUTES["app/api/dashboard/invoices/[id]/route.ts GET"] as RouteCase },
  { name: "GET /api/dashboard/invoices", route: { handler: handler(dashboardListRoute.GET), auth: "session", params: () => ({}) } },
  { name: "GET /api/dashboard/invoices/export", route: { handler: handler(dashboardExportRoute.GET), auth: "session", params: () => ({}), needs: "export" } },
  { name: "GET /api/dashboard/files/{id}", route: ROUTES["app/api/dashboard/files/[id]/route.ts GET"] as RouteCase },
  {
    name: "GET /api/dashboard/disputes/export",
    route: { handler: handler(dashboardDisputeExportRoute.GET), auth: "session", params: () => ({}), needs: "export" },
  },
  { name: "GET /api/dashboard/audit-log/export", route: { handler: handler(auditExportRoute.GET), auth: "session", params: () => ({}), needs: "audit.read" } },
];

/**
 * The composer's credential, minted for a person of each role, on the invoice API's changes: the
 * route's permission decides (403 otherwise, nothing changes). A role that has it passes the check
 * and meets the next one: an invoice id that does not exist (404) or a body that is not one (400/422).
 */
const COMPOSER_ROUTES: { name: string; route: RouteCase; needs: Permission; allowedStatus: number[] }[] = [
  {
    name: "POST /api/commerce/payment-invoices",
    route: {
      handler: handler(paymentCollectionRoute.POST),
      auth: "key",
      params: () => ({}),
      body: () => ({ data: { type: "payment-invoice", attributes: {} } }),
    },
    needs: "invoices.compose",
    allowedStatus: [422],
  },
  {
    name: "POST /api/commerce/payment-invoices/{id}/refunds",
    route: {
      handler: handler(paymentRefundsRoute.POST),
      auth: "key",
      params: (w) => ({ id: w.paymentId }),
      body: () => ({ data: { type: "refund", attributes: { reference_id: unique("refund"), amount: "0.01" } } }),
    },
    needs: "money.refund",
    allowedStatus: [404],
  },
  {
    name: "POST /api/commerce/payment-invoices/{id}/capture",
    route: { handler: handler(paymentCaptureRoute.POST), auth: "key", params: (w) => ({ id: w.paymentId }), body: () => ({ data: { type: "capture" } }) },
    needs: "money.capture",
    allowedStatus: [404],
  },
  {
    name: "POST /api/commerce/payment-invoices/{id}/void",
    route: { handler: handler(paymentVoidRoute.POST), auth: "key", params: (w) => ({ id: w.paymentId }) },
    needs: "money.capture",
    allowedStatus: [404],
  },
  {
    name: "POST /api/commerce/payout-invoices/{id}/cancel",
    route: { handler: handler(payoutCancelRoute.POST), auth: "key", params: (w) => ({ id: w.cancelablePayoutId }) },
    needs: "payout.cancel",
    allowedStatus: [404],
  },
];

const roleProbes: Probe[] = [
  ...SESSION_ROUTES.flatMap(({ name, route }) =>
    ROLE_ORDER.map((role): Probe => {
      const allowed = !route.needs || allows(role, route.needs);
      return {
        name: `${name}: merchant A's ${role} member with A's own ids → ${allowed ? 200 : 403}`,
        run: async () => {
          // An export that is made is recorded in the audit log (export.invoices): the one change it may make.
          const before = await snapshotTenant(t.db, A.merchantId);
          const answer = allowed
            ? await callRoute(route, A, { userId: A.members[role] }, "GET")
            : await probe(
                () => A,
                () => callRoute(route, A, { userId: A.members[role] }, "GET"),
                (a) => a.text,
              );
          if (allowed) {
            const { audit_log: _after, ...after } = await snapshotTenant(t.db, A.merchantId);
            const { audit_log: _before, ...rest } = before;
            expect(after).toEqual(rest);
          }
          expect(answer.status).toBe(allowed ? 200 : 403);
          if (!allowed) expect(JSON.parse(answer.text).errors[0].detail).toBe(refusalFor(role, route.needs!));
        },
      };
    }),
  ),
  ...COMPOSER_ROUTES.flatMap(({ name, route, needs, allowedStatus }) =>
    ROLE_ORDER.map((role): Probe => {
      const allowed = allows(role, needs);
      return {
        name: `${name}: the composer credential of merchant A's ${role} member → ${allowed ? `past the role check (${allowedStatus.join("/")})` : 403}`,
        run: async () => {
          const bearer = mintSessionCredential({ merchantId: A.merchantId, userId: A.members[role], role });
          // An allowed role is asked about an invoice that does not exist, so nothing is refunded or cancelled.
          const asked: RouteCase = allowed && route.params(A).id ? { ...route, params: () => ({ id: "inv_does_not_exist" }) } : route;
          const answer = await probe(
            () => A,
            () => callRoute(asked, A, { bearer }, "POST"),
            (a) => a.text,
          );
          expect(answer.status).toBe(allowed ? allowedStatus[0] : 403);
          if (!allowed) expect(JSON.parse(answer.text).errors[0].detail).toBe(refusalFor(role, needs));
        },
      };
    }),
  ),
];

/**
 * A key serves one mode (the invoice API, and the management API through lib/api/key-mode.ts):
 * merchant A's live key with A's own ids, all of test mode, finds none of them. The keys' last use
 * may move; nothing else of the merchant does, and nothing reaches a provider.
 */
const modeProbes: Probe[] = Object.entries(ROUTES)
  // DELETE last: were it not refused, what the other probes ask about would be gone and they would pass for that reason.
  .sort(([a], [b]) => Number(a.endsWith(" DELETE")) - Number(b.endsWith(" DELETE")))
  .flatMap(([name, entry]): Probe[] => {
    if ("exempt" in entry || entry.auth !== "key") return [];
    const method = name.split(" ").pop()!;
    return [
      {
        name: `${name}: merchant A's live key with A's own test ids → 404`,
        run: async () => {
          const { api_keys: _keysBefore, ...before } = await snapshotTenant(t.db, A.merchantId);
          const providerCalls = fake.calls.length;
          const answer = await callRoute(entry, A, { bearer: A.liveKey }, method);
          expect([answer.status, JSON.parse(answer.text).errors?.[0]?.code]).toEqual([404, "not_found"]);
          const { api_keys: _keysAfter, ...after } = await snapshotTenant(t.db, A.merchantId);
          expect(after).toEqual(before);
          expect(fake.calls.length).toBe(providerCalls);
        },
      },
    ];
  });

/**
 * Methods a route answers only with a refusal (405 with Allow, OPTIONS 204), found in the files
 * rather than listed: probed too, with merchant B's ids and merchant A's key or session.
 */
const notServedProbes: Probe[] = DISCOVERED_ROUTES.flatMap(({ file, exports }) =>
  exports
    .filter((e) => !e.served)
    .map(({ method }): Probe => ({
      name: `${file} ${method} (not served): merchant A with merchant B's ids → ${method === "OPTIONS" ? 204 : 405}`,
      run: async () => {
        const served = ROUTES[`${file} ${exports.find((e) => e.served)?.method}`];
        const refuser = ROUTE_MODULES[file]?.[method];
        if (!refuser || !served || "exempt" in served) throw new Error(`${file}: add its module to ROUTE_MODULES and its served methods to ROUTES`);
        const route: RouteCase = {
          ...served,
          handler: handler(refuser),
          body: method === "POST" || method === "PUT" || method === "PATCH" ? () => connectionBody : undefined,
        };
        const answer = await probe(
          () => B,
          () => callRoute(route, B, { bearer: A.key, userId: A.ownerId }, method),
          (a) => a.text,
        );
        expect(answer.status).toBe(method === "OPTIONS" ? 204 : 405);
      },
    })),
);

/** Ids that travel in a request body rather than the path: another merchant's connection is refused as unknown. */
const bodyProbes: Probe[] = [
  {
    name: "POST /api/commerce/payout-invoices pinned to merchant B's connection → 422, nothing created",
    run: async () => {
      const body = templateEnvelope(findTemplate("a-payout")!, { commerceAccount: A.account, referenceId: newReference() }) as {
        data: { attributes: Record<string, unknown>; relationships?: unknown };
      };
      body.data.attributes.options = { auto_process: false };
      body.data.attributes.test_mode = true;
      body.data.relationships = { connection: { data: { type: "connection", id: B.a.id } } };
      const route: RouteCase = { handler: handler(payoutCollectionRoute.POST), auth: "key", params: () => ({}), body: () => body };
      const beforeA = await snapshotTenant(t.db, A.merchantId);
      const answer = await probe(
        () => B,
        () => callRoute(route, A, { bearer: A.key }, "POST"),
        (a) => a.text,
      );
      expect(answer.status).toBe(422);
      expect(JSON.parse(answer.text).errors).toMatchObject([{ source: { pointer: "/data/relationships/connection/data/id" } }]);
      expect((await snapshotTenant(t.db, A.merchantId)).invoices).toEqual(beforeA.invoices);
    },
  },
  {
    name: "POST /api/connections naming merchant B's generated key pair → 422, B's pair stays unused",
    run: async () => {
      const attributes = withGeneratedKey(B.generatedKeyId);
      const route: RouteCase = {
        handler: handler(connectionCollectionRoute.POST),
        auth: "key",
        params: () => ({}),
        body: () => ({ data: { type: "connection", attributes } }),
      };
      const answer = await probe(
        () => B,
        () => callRoute(route, A, { bearer: A.key }, "POST"),
        (a) => a.text,
      );
      expect(answer.status).toBe(422);
      expect(JSON.parse(answer.text).errors).toMatchObject([{ code: "generated_key_unavailable" }]);
    },
  },
  {
    name: "updateConnectionAction: merchant A's owner swapping in merchant B's generated key pair on A's own connection → refused",
    run: async () => {
      const credentials = withGeneratedKey(B.generatedKeyId).credentials;
      const beforeA = await snapshotTenant(t.db, A.merchantId);
      const result = await probe(
        () => B,
        () => {
          session.userId = A.ownerId;
          return updateConnectionAction({ id: A.e.id, ...editAttributes({ credentials }) });
        },
        (r) => JSON.stringify(r),
      );
      expect(result.ok).toBe(false);
      if (!result.ok) expect(Object.values(result.fieldErrors).flat()).toContain(GENERATED_KEY_GONE);
      expect((await snapshotTenant(t.db, A.merchantId)).connections).toEqual(beforeA.connections);
    },
  },
  {
    name: "PATCH /api/routing/{A's order} listing merchant B's connection → 422, neither order changes",
    run: async () => {
      const route: RouteCase = {
        handler: handler(routingOrderRoute.PATCH),
        auth: "key",
        params: () => ({ id: `${A.a.services[0]}:test` }),
        body: () => ({ data: { type: "routing-order", attributes: { connection_ids: [B.a.id, A.a.id] } } }),
      };
      const beforeA = await snapshotTenant(t.db, A.merchantId);
      const answer = await probe(
        () => B,
        () => callRoute(route, A, { bearer: A.key }, "PATCH"),
        (a) => a.text,
      );
      expect(answer.status).toBe(422);
      expect((await snapshotTenant(t.db, A.merchantId)).routing_orders).toEqual(beforeA.routing_orders);
    },
  },
  {
    name: "GET and POST rollback on A's own routing order with a version number only merchant B's same order has → 404, neither merchant's versions change",
    run: async () => {
      // B's order of the same service gets versions 1 to 3, A's version 1 only (each rule sends every invoice where the order does anyway).
      const service = B.a.services[0]!;
      const saves: [TenantWorld, string][] = [
        [B, "B's first"],
        [B, "B's second"],
        [B, "B's third"],
        [A, "A's first"],
      ];
      for (const [w, name] of saves) {
        const saved = await saveRoutingOrder(
          t.db,
          { merchantId: w.merchantId, actor: { label: "setup" } },
          { service, mode: "test", rules: [{ name, conditions: {}, outcome: { kind: "cascade", connection_ids: [w.a.id] } }] },
        );
        if (!saved.ok || saved.value.version === 0) throw new Error(`setup: ${JSON.stringify(saved)}`);
      }
      const id = `${A.a.services[0]}:test`;
      const beforeA = await snapshotTenant(t.db, A.merchantId);
      const read: RouteCase = { handler: handler(routingVersionRoute.GET), auth: "key", params: () => ({ id, version: "3" }) };
      const roll: RouteCase = {
        handler: handler(routingRollbackRoute.POST),
        auth: "key",
        params: () => ({ id }),
        body: () => ({ data: { type: "routing-rollback", attributes: { version: 3 } } }),
      };
      const compared: RouteCase = { handler: handler(routingCompareRoute.GET), auth: "key", params: () => ({ id }), query: "?from=1&to=3" };
      for (const [route, method] of [
        [read, "GET"],
        [roll, "POST"],
        [compared, "GET"],
      ] as const) {
        const answer = await probe(
          () => B,
          () => callRoute(route, A, { bearer: A.key }, method),
          (a) => a.text,
        );
        expect(answer.status, method).toBe(404);
        expect(JSON.parse(answer.text).errors[0].detail, method).toMatch(/^Version 3 of payment_\w+ \(test\) does not exist: the versions are 1 to 1$/);
        expect(answer.text).not.toContain("B's third");
      }
      expect((await snapshotTenant(t.db, A.merchantId)).routing_versions).toEqual(beforeA.routing_versions);
    },
  },
  {
    name: "GET and PATCH /api/routing/settings name no merchant: merchant A's key reads and changes A's settings only, B's stay as they are",
    run: async () => {
      const settings = { window_hours: 3, min_sample: 7, exploration_percent: 2 };
      const patch: RouteCase = {
        handler: handler(routingSettingsRoute.PATCH),
        auth: "key",
        params: () => ({}),
        body: () => ({ data: { type: "routing-settings", attributes: settings } }),
      };
      // The settings hold for both modes: a live key changes them (a test key is refused, management-key-modes.test.ts).
      const answer = await probe(
        () => B,
        () => callRoute(patch, A, { bearer: A.liveKey }, "PATCH"),
        (a) => a.text,
      );
      expect(answer.status).toBe(200);
      const read: RouteCase = { handler: handler(routingSettingsRoute.GET), auth: "key", params: () => ({}) };
      expect(JSON.parse((await callRoute(read, A, { bearer: A.key }, "GET")).text).data.attributes).toEqual(settings);
      expect(JSON.parse((await callRoute(read, B, { bearer: B.key }, "GET")).text).data.attributes).not.toEqual(settings);
    },
  },
];

/**
 * Search and export name another merchant's invoices by their keys, not by a path id: merchant A
 * searching for merchant B's id, references, provider reference, customer e-mail or name, or B's
 * card's last four (both merchants' cards end in 4242 and their customers are the same) gets A's
 * own invoices or none, in the dashboard's list (the search box's query, JSON as the page refreshes
 * it), in its export (as CSV) and in the API's CSV list.
 */
const SEARCH_KEYS = [
  "payment id",
  "payment reference",
  "payout reference",
  "provider reference",
  "customer e-mail",
  "customer name prefix",
  "last four",
] as const;

/** The search text of each kind of key for one merchant's invoices, and the invoice of that merchant it finds. */
async function searchText(w: TenantWorld, key: (typeof SEARCH_KEYS)[number]): Promise<{ q: string; finds: string }> {
  const customer = async (id: string, field: "email" | "name") => {
    const [row] = await t.db
      .select({ value: sql<string | null>`${schema.invoices.resolvedCustomer} ->> ${field}` })
      .from(schema.invoices)
      .where(eq(schema.invoices.id, id));
    if (!row?.value) throw new Error(`setup: ${id} has no customer ${field}`);
    return row.value;
  };
  switch (key) {
    case "payment id":
      return { q: w.paymentId, finds: w.paymentId };
    case "payment reference":
      return { q: w.paymentReference, finds: w.paymentId };
    case "payout reference":
      return { q: w.payoutReference, finds: w.payoutId };
    case "provider reference": {
      const [attempt] = await t.db
        .select({ reference: schema.invoiceAttempts.providerReference })
        .from(schema.invoiceAttempts)
        .where(and(eq(schema.invoiceAttempts.invoiceId, w.paymentId), isNotNull(schema.invoiceAttempts.providerReference)));
      if (!attempt?.reference) throw new Error("setup: the paid payment has no provider reference");
      return { q: attempt.reference, finds: w.paymentId };
    }
    case "customer e-mail":
      return { q: (await customer(w.paymentId, "email")).toUpperCase(), finds: w.paymentId };
    case "customer name prefix":
      return { q: (await customer(w.paymentId, "name")).slice(0, 4).toLowerCase(), finds: w.paymentId };
    case "last four":
      return { q: "4242", finds: w.paymentId };
  }
}

const SEARCH_ROUTES = [
  ["GET /api/dashboard/invoices?q=…", dashboardListRoute.GET],
  ["GET /api/dashboard/invoices/export?q=…", dashboardExportRoute.GET],
] as const;

const searchProbes: Probe[] = [
  ...SEARCH_KEYS.flatMap((key) =>
    SEARCH_ROUTES.map(([label, get]): Probe => ({
      name: `${label} with merchant B's ${key}, as merchant A's owner → 200 with none of B's invoices`,
      run: async () => {
        const theirs = await searchText(B, key);
        const route: RouteCase = { handler: handler(get), auth: "session", params: () => ({}), query: `?q=${encodeURIComponent(theirs.q)}` };
        const answer = await probe(
          () => B,
          () => callRoute(route, B, { userId: A.ownerId }, "GET"),
          (a) => a.text,
        );
        expect(answer.status).toBe(200);
        if (get === dashboardExportRoute.GET) expect(answer.text).toMatch(/^id,type,status,/);
        for (const id of [B.paymentId, B.payoutId, B.cancelablePayoutId]) expect(answer.text).not.toContain(id);
        // The same search for A's own key finds A's invoice: a real search, not a broken one.
        const mine = await searchText(A, key);
        const own = await callRoute({ ...route, query: `?q=${encodeURIComponent(mine.q)}` }, A, { userId: A.ownerId }, "GET");
        expect(own.text).toContain(mine.finds);
      },
    })),
  ),
  {
    name: "GET /api/commerce/payment-invoices with Accept: text/csv and filter[reference_id]=<merchant B's reference>, with merchant A's key → 200, no row",
    run: async () => {
      const route: RouteCase = {
        handler: handler(paymentCollectionRoute.GET),
        auth: "key",
        params: () => ({}),
        query: `?filter[reference_id]=${encodeURIComponent(B.paymentReference)}`,
      };
      const answer = await probe(
        () => B,
        async () => {
          session.userId = undefined;
          const request = new Request(`http://test/tenant-probe${route.query}`, { headers: { authorization: `Bearer ${A.key}`, accept: "text/csv" } });
          return answerOf(await route.handler(request, { params: Promise.resolve({}) }));
        },
        (a) => a.text,
      );
      expect(answer.status).toBe(200);
      expect(answer.text.trim().split("\r\n")).toHaveLength(1);
    },
  },
];

// ---------------------------------------------------------------------------------------------
// Server actions
// ---------------------------------------------------------------------------------------------

type Outcome = ActionResult<unknown>;
type ActionCase = {
  /** Who may call it: anyone (public pages), any signed-in member, or the roles the permission table gives this to (lib/identity/permissions.ts). */
  role: "member" | "public" | Permission;
  /** Merchant A's owner (or, for public actions, anyone) with merchant B's ids, and the refusal expected. */
  tenant?: { run: () => Promise<Outcome>; refusal: string | (() => string) };
  /** Why there is no tenant case (the action names no id of anything a merchant owns). */
  noId?: string;
  /** Actions behind a permission: a valid call with merchant A's own ids, made by each of A's members whose role lacks it. */
  own?: () => Promise<Outcome>;
};

const CONNECTION_GONE = "This connection does not exist or was deleted.";
const ENDPOINT_GONE = "This endpoint does not exist.";
const GENERATED_KEY_GONE = "The generated key pair has expired or was already used. Generate a new pair, or upload your private key.";

/** Provider E's form with a generated key pair named by id instead of an uploaded private key. */
function withGeneratedKey(id: string) {
  const attributes = createAttributes("provider-e", "h2h", "test", { label: unique("E generated") });
  const credentials: Record<string, unknown> = { ...sampleCredentials("provider-e", "h2h", "test"), generated_key_id: id };
  delete credentials.private_key;
  return { ...attributes, credentials };
}

/** Every export of every "use server" module in lib/actions: a case, or why not. */
const ACTIONS: Record<string, ActionCase> = {
  "lib/actions/account.ts#changePasswordAction": { role: "member", noId: "changes the signed-in person's own password" },
  "lib/actions/account.ts#renameBusinessAction": {
    role: "settings.write",
    noId: "renames the viewer's own merchant",
    own: () => renameBusinessAction({ merchantName: "Support's Renamed Ltd" }),
  },
  "lib/actions/api-keys.ts#createApiKeyAction": {
    role: "keys.manage",
    noId: "creates a key for the viewer's merchant",
    own: () => createApiKeyAction({ name: "support's key", mode: "live", scope: "full" }),
  },
  "lib/actions/api-keys.ts#revokeApiKeyAction": {
    role: "keys.manage",
    tenant: { run: () => revokeApiKeyAction({ id: B.keyId }), refusal: "This key is already revoked or does not exist." },
    own: () => revokeApiKeyAction({ id: A.keyId }),
  },
  "lib/actions/api-keys.ts#rollApiKeyAction": {
    role: "keys.manage",
    tenant: {
      run: () => rollApiKeyAction({ id: B.keyId, grace: "7d" }),
      refusal: "This key cannot be rolled: it is revoked, expired, already rolled, or does not exist.",
    },
    own: () => rollApiKeyAction({ id: A.keyId, grace: "7d" }),
  },
  "lib/actions/authorizations.ts#captureInvoiceAction": {
    role: "money.capture",
    tenant: {
      run: () => captureInvoiceAction({ invoiceId: B.paymentId, requestKey: unique("capture"), amount: "0.01" }),
      refusal: "This payment does not exist.",
    },
    own: () => captureInvoiceAction({ invoiceId: A.paymentId, requestKey: unique("capture"), amount: "0.01" }),
  },
  "lib/actions/authorizations.ts#voidInvoiceAction": {
    role: "money.capture",
    tenant: { run: () => voidInvoiceAction({ invoiceId: B.paymentId, requestKey: unique("void") }), refusal: "This payment does not exist." },
    own: () => voidInvoiceAction({ invoiceId: A.paymentId, requestKey: unique("void") }),
  },
  "lib/actions/payment-methods.ts#removeSavedCardAction": {
    role: "cards.remove",
    tenant: { run: () => removeSavedCardAction({ id: B.paymentMethodId }), refusal: "This saved card does not exist." },
    own: () => removeSavedCardAction({ id: A.paymentMethodId }),
  },
  "lib/actions/payment-methods.ts#listChargeableCardsAction": {
    role: "invoices.compose",
    noId: "takes a customer reference, looked up within the viewer's merchant and mode only (tests/integration/dashboard-authorizations.test.ts)",
    own: () => listChargeableCardsAction({ customerReference: "customer-of-A", testMode: true }),
  },
  "lib/actions/risk.ts#addBlocklistEntryAction": {
    role: "risk.block",
    noId: "adds to the viewer's own merchant's blocklist",
    own: () => addBlocklistEntryAction({ kind: "email", value: "support-adds@example.com", note: "", mode: "live" }),
  },
  "lib/actions/risk.ts#removeBlocklistEntryAction": {
    role: "risk.block",
    tenant: { run: () => removeBlocklistEntryAction({ id: B.blocklistId, mode: "test" }), refusal: "This blocklist entry does not exist." },
    own: () => removeBlocklistEntryAction({ id: A.blocklistId, mode: "test" }),
  },
  "lib/actions/risk.ts#blockInvoiceCardAction": {
    role: "risk.block",
    tenant: { run: () => blockInvoiceCardAction({ invoiceId: B.paymentId }), refusal: "This invoice does not exist." },
    own: () => blockInvoiceCardAction({ invoiceId: A.paymentId }),
  },
  "lib/actions/risk.ts#saveRiskSettingsAction": {
    role: "risk.settings",
    noId: "tunes the viewer's own merchant's limits",
    own: () => saveRiskSettingsAction({ ...DEFAULT_RISK_SETTINGS, addressDeclines: 1000 }),
  },
  "lib/actions/risk.ts#simulateRiskAction": {
    role: "member",
    noId: "reads the viewer's own merchant's rules and counters",
  },
  "lib/actions/auth.ts#confirmSignUpAction": { role: "public", noId: "names a pending sign-up by its e-mailed link token, not an id" },
  "lib/actions/auth.ts#signInAction": { role: "public", noId: "takes an e-mail and password (the sign-in limit: e2e/tenants-sign-in-limit.api.spec.ts)" },
  "lib/actions/auth.ts#signOutAction": { role: "public", noId: "ends the caller's own session" },
  "lib/actions/auth.ts#signInSecondFactorAction": {
    role: "public",
    noId: "takes the sealed challenge of the password step and a code (tests/integration/mfa-sign-in.test.ts)",
  },
  "lib/actions/auth.ts#signUpAction": { role: "public", noId: "creates a new merchant" },
  "lib/actions/check-status.ts#checkStatusNowAction": {
    role: "member",
    tenant: { run: () => checkStatusNowAction({ id: B.paymentId }), refusal: "This invoice does not exist." },
  },
  "lib/actions/complete-three-ds.ts#completeThreeDsAction": {
    role: "public",
    noId: "the sandbox's simulated 3-D Secure page: names a sandbox record by the provider's own reference, no merchant's id",
  },
  "lib/actions/connections.ts#createConnectionAction": {
    role: "connections.write",
    tenant: {
      run: () => createConnectionAction(withGeneratedKey(B.generatedKeyId)),
      refusal: GENERATED_KEY_GONE,
    },
    own: () => createConnectionAction(withGeneratedKey(A.generatedKeyId)),
  },
  "lib/actions/connections.ts#deleteConnectionAction": {
    role: "connections.write",
    tenant: { run: () => deleteConnectionAction({ id: B.a.id }), refusal: CONNECTION_GONE },
    own: () => deleteConnectionAction({ id: A.a.id }),
  },
  "lib/actions/connections.ts#generateKeyPairAction": {
    role: "connections.write",
    noId: "generates a new pair for the viewer's merchant",
    own: () => generateKeyPairAction({}),
  },
  "lib/actions/connections.ts#setConnectionEnabledAction": {
    role: "connections.write",
    tenant: { run: () => setConnectionEnabledAction({ id: B.a.id, enabled: false }), refusal: CONNECTION_GONE },
    own: () => setConnectionEnabledAction({ id: A.a.id, enabled: false }),
  },
  "lib/actions/connections.ts#updateConnectionAction": {
    role: "connections.write",
    tenant: { run: () => updateConnectionAction({ id: B.a.id, ...editAttributes({ label: "taken over" }) }), refusal: CONNECTION_GONE },
    own: () => updateConnectionAction({ id: A.a.id, ...editAttributes({ label: "renamed by support" }) }),
  },
  "lib/actions/invoice-composer.ts#sendComposedInvoiceAction": {
    role: "invoices.compose",
    own: () =>
      sendComposedInvoiceAction({
        direction: "payment",
        body: JSON.stringify(templateEnvelope(findTemplate("a-payment")!, { commerceAccount: A.account, referenceId: newReference() })),
      }),
    noId: "relays an envelope to POST /api/commerce/{direction}-invoices over HTTP with the viewer's credential; a pinned connection of another merchant is the body case below",
  },
  "lib/actions/mfa.ts#startMfaEnrolmentAction": { role: "member", noId: "sets up the signed-in person's own two-factor sign-in" },
  "lib/actions/mfa.ts#confirmMfaEnrolmentAction": { role: "member", noId: "confirms the signed-in person's own two-factor sign-in" },
  "lib/actions/mfa.ts#regenerateRecoveryCodesAction": { role: "member", noId: "replaces the signed-in person's own recovery codes" },
  "lib/actions/mfa.ts#disableMfaAction": { role: "member", noId: "turns off the signed-in person's own two-factor sign-in" },
  "lib/actions/mfa.ts#setRequireOwnerMfaAction": {
    role: "settings.write",
    noId: "switches the viewer's own merchant's setting",
    own: () => setRequireOwnerMfaAction({ requireOwnerMfa: false }),
  },
  "lib/actions/password.ts#acceptInviteAction": { role: "public", noId: "names an invitation by its 256-bit link token, not an id" },
  "lib/actions/password.ts#forgotPasswordAction": { role: "public", noId: "takes an e-mail; answers the same for every address" },
  "lib/actions/password.ts#resetPasswordAction": { role: "public", noId: "names a reset by its 256-bit link token, not an id" },
  "lib/actions/process-payout.ts#processPayoutAction": {
    role: "payout.process",
    tenant: { run: () => processPayoutAction({ id: B.payoutId }), refusal: "This payout does not exist." },
    own: () => processPayoutAction({ id: A.payoutId }),
  },
  "lib/actions/cancel-payout.ts#cancelPayoutAction": {
    role: "payout.cancel",
    tenant: { run: () => cancelPayoutAction({ id: B.payoutId }), refusal: "This payout does not exist." },
    own: () => cancelPayoutAction({ id: A.cancelablePayoutId }),
  },
  "lib/actions/refunds.ts#refundInvoiceAction": {
    role: "money.refund",
    tenant: {
      run: () => refundInvoiceAction({ invoiceId: B.paymentId, referenceId: unique("refund"), amount: "0.01" }),
      refusal: "This payment does not exist.",
    },
    own: () => refundInvoiceAction({ invoiceId: A.paymentId, referenceId: unique("refund"), amount: "0.01" }),
  },
  "lib/actions/disputes.ts#saveDisputeEvidenceAction": {
    role: "disputes.respond",
    tenant: { run: () => saveDisputeEvidenceAction({ disputeId: B.disputeId, explanation: "taken over" }), refusal: "This dispute does not exist." },
    own: () => saveDisputeEvidenceAction({ disputeId: A.disputeId, explanation: "not mine to write" }),
  },
  "lib/actions/disputes.ts#submitDisputeAction": {
    role: "disputes.respond",
    tenant: { run: () => submitDisputeAction({ disputeId: B.disputeId }), refusal: "This dispute does not exist." },
    own: () => submitDisputeAction({ disputeId: A.disputeId }),
  },
  "lib/actions/disputes.ts#acceptDisputeAction": {
    role: "disputes.respond",
    tenant: { run: () => acceptDisputeAction({ disputeId: B.disputeId }), refusal: "This dispute does not exist." },
    own: () => acceptDisputeAction({ disputeId: A.disputeId }),
  },
  "lib/actions/routing.ts#saveRoutingOrderAction": {
    role: "routing.write",
    tenant: {
      run: () => saveRoutingOrderAction({ service: A.a.services[0], mode: "test", connectionIds: [B.a.id, A.a.id] }),
      refusal: () => `No connection ${B.a.id} exists for this merchant`,
    },
    own: () => saveRoutingOrderAction({ service: A.a.services[0], mode: "test", connectionIds: [A.a.id] }),
  },
  "lib/actions/routing.ts#saveRoutingRulesAction": {
    role: "routing.write",
    tenant: {
      run: () =>
        saveRoutingRulesAction({
          service: A.a.services[0],
          mode: "test",
          rules: [{ name: "Theirs", conditions: {}, outcome: { kind: "cascade", connection_ids: [B.a.id] } }],
        }),
      refusal: () => `No connection ${B.a.id} exists for this merchant`,
    },
    own: () =>
      saveRoutingRulesAction({
        service: A.a.services[0],
        mode: "test",
        rules: [{ name: "Ours", conditions: {}, outcome: { kind: "cascade", connection_ids: [A.a.id] } }],
      }),
  },
  "lib/actions/routing.ts#compareRoutingVersionsAction": {
    role: "member",
    tenant: {
      run: () => compareRoutingVersionsAction({ service: B.z!.services[0], mode: "test", from: 1, to: 1 }),
      refusal: () => `No connection of yours offers ${B.z!.services[0]} in test mode`,
    },
  },
  "lib/actions/routing.ts#olderRoutingVersionsAction": {
    role: "member",
    tenant: {
      run: () => olderRoutingVersionsAction({ service: B.z!.services[0], mode: "test", before: 2 }),
      refusal: () => `No connection of yours offers ${B.z!.services[0]} in test mode`,
    },
  },
  "lib/actions/routing.ts#rollbackRoutingAction": {
    role: "routing.write",
    tenant: {
      run: () => rollbackRoutingAction({ service: B.z!.services[0], mode: "test", version: 1 }),
      refusal: () => `No connection of yours offers ${B.z!.services[0]} in test mode`,
    },
    own: () => rollbackRoutingAction({ service: A.a.services[0], mode: "test", version: 1 }),
  },
  "lib/actions/routing.ts#saveSuccessSettingsAction": {
    role: "routing.write.live",
    noId: "changes the viewer's own merchant's success-rate ordering settings",
    own: () => saveSuccessSettingsAction({ window_hours: 2, min_sample: 5, exploration_percent: 1 }),
  },
  "lib/actions/routing.ts#simulateRoutingAction": {
    role: "member",
    noId: "simulates the viewer's own routing and creates nothing; a draft rule naming another merchant's connection finds no such connection (routing-rules.test.ts)",
  },
  "lib/actions/sandbox-faults.ts#setSandboxFaultAction": {
    role: "connections.write",
    tenant: { run: () => setSandboxFaultAction({ id: B.a.id, mode: SANDBOX_FAULT_MODES.at(-1)! }), refusal: CONNECTION_GONE },
    own: () => setSandboxFaultAction({ id: A.a.id, mode: SANDBOX_FAULT_MODES.at(-1)! }),
  },
  "lib/actions/alerts.ts#updateAlertRuleAction": {
    role: "alerts.manage",
    noId: "changes a rule of the viewer's own merchant, named by its kind",
    own: () => updateAlertRuleAction({ rule: "webhook_failures", enabled: false }),
  },
  "lib/actions/settings.ts#updateInvoiceLifetimeAction": {
    role: "settings.write",
    noId: "changes the viewer's own merchant",
    own: () => updateInvoiceLifetimeAction({ lifetimeMinutes: 5 }),
  },
  "lib/actions/settings.ts#updateMerchantSettingsAction": {
    role: "settings.write",
    noId: "changes the viewer's own merchant",
    own: () => updateMerchantSettingsAction({ allowLivePins: true }),
  },
  "lib/actions/settings.ts#updateMerchantTimeZoneAction": {
    role: "settings.write",
    noId: "changes the viewer's own merchant",
    own: () => updateMerchantTimeZoneAction({ timeZone: "Europe/Berlin" }),
  },
  "lib/actions/settings.ts#updatePersonTimeZoneAction": { role: "member", noId: "sets the signed-in person's own time zone" },
  "lib/actions/payment-link.ts#createPaymentLinkAction": {
    role: "invoices.compose",
    own: () => createPaymentLinkAction({ amount: "5.00", currency: "EUR", description: "Role probe", email: "probe@example.com", test_mode: true }),
    noId: "makes an invoice in the viewer's own merchant from amount, currency, description and an e-mail; names no id (support members send test links only: payment-link.test.ts)",
  },
  "lib/actions/team.ts#changeRoleAction": {
    role: "team.manage",
    tenant: { run: () => changeRoleAction({ userId: B.supportId, role: "owner" }), refusal: "This member does not exist." },
    // A member without team.manage tries to make the support member an owner.
    own: () => changeRoleAction({ userId: A.supportId, role: "owner" }),
  },
  "lib/actions/team.ts#inviteMemberAction": {
    role: "team.manage",
    noId: "invites into the viewer's own merchant",
    own: () => inviteMemberAction({ name: "Friend of support", email: `${unique("friend")}@example.com`, role: "owner" }),
  },
  "lib/actions/team.ts#removeMemberAction": {
    role: "team.manage",
    tenant: { run: () => removeMemberAction({ userId: B.ownerId }), refusal: "This member does not exist." },
    own: () => removeMemberAction({ userId: A.ownerId }),
  },
  "lib/actions/team.ts#resendInviteAction": {
    role: "team.manage",
    tenant: { run: () => resendInviteAction({ inviteId: B.inviteId }), refusal: "This invitation no longer exists." },
    own: () => resendInviteAction({ inviteId: A.inviteId }),
  },
  "lib/actions/team.ts#revokeInviteAction": {
    role: "team.manage",
    tenant: { run: () => revokeInviteAction({ inviteId: B.inviteId }), refusal: "This invitation no longer exists." },
    own: () => revokeInviteAction({ inviteId: A.inviteId }),
  },
  "lib/actions/test-connection.ts#testConnectionAction": {
    role: "connections.write",
    tenant: { run: () => testConnectionAction({ id: B.a.id }), refusal: CONNECTION_GONE },
    own: () => testConnectionAction({ id: A.a.id }),
  },
  "lib/actions/test-connection.ts#testCredentialsAction": {
    role: "connections.write",
    noId: "tests credentials typed into the New connection form",
    own: () => testCredentialsAction(createAttributes("provider-a", "h2h")),
  },
  "lib/actions/view-mode.ts#setViewModeAction": { role: "member", noId: "sets the viewer's own Test/Live cookie" },
  "lib/actions/webhooks.ts#createWebhookEndpointAction": {
    role: "webhooks.manage",
    noId: "adds an endpoint to the viewer's own merchant",
    own: () => createWebhookEndpointAction({ url: "http://127.0.0.1:9/own-hooks", description: "", enabled: true, allEvents: true, eventTypes: [] }),
  },
  "lib/actions/webhooks.ts#deleteWebhookEndpointAction": {
    role: "webhooks.manage",
    tenant: { run: () => deleteWebhookEndpointAction({ endpointId: B.endpointId }), refusal: ENDPOINT_GONE },
    own: () => deleteWebhookEndpointAction({ endpointId: A.endpointId }),
  },
  "lib/actions/webhooks.ts#resendWebhookEventAction": {
    role: "webhooks.manage",
    tenant: { run: () => resendWebhookEventAction({ eventId: B.eventId, endpointId: B.endpointId }), refusal: "This event does not exist." },
    own: () => resendWebhookEventAction({ eventId: A.eventId, endpointId: A.endpointId }),
  },
  "lib/actions/webhooks.ts#rotateWebhookSecretAction": {
    role: "webhooks.manage",
    tenant: { run: () => rotateWebhookSecretAction({ endpointId: B.endpointId }), refusal: ENDPOINT_GONE },
    own: () => rotateWebhookSecretAction({ endpointId: A.endpointId }),
  },
  "lib/actions/webhooks.ts#sendTestWebhookAction": {
    role: "webhooks.manage",
    tenant: { run: () => sendTestWebhookAction({ endpointId: B.endpointId }), refusal: ENDPOINT_GONE },
    own: () => sendTestWebhookAction({ endpointId: A.endpointId }),
  },
  "lib/actions/webhooks.ts#updateWebhookEndpointAction": {
    role: "webhooks.manage",
    tenant: {
      run: () =>
        updateWebhookEndpointAction({
          endpointId: B.endpointId,
          url: "https://attacker.example/hook",
          description: "",
          enabled: false,
          allEvents: true,
          eventTypes: [],
        }),
      refusal: ENDPOINT_GONE,
    },
    own: () =>
      updateWebhookEndpointAction({
        endpointId: A.endpointId,
        url: "https://attacker.example/hook",
        description: "",
        enabled: false,
        allEvents: true,
        eventTypes: [],
      }),
  },
};

/** The member actions' modules, by file: ACTION_FUNCTIONS["lib/actions/x.ts#name"] is the action itself. */
const ACTION_MODULES: Record<string, Record<string, unknown>> = {
  "lib/actions/account.ts": accountModule,
  "lib/actions/alerts.ts": alertsModule,
  "lib/actions/api-keys.ts": api_keysModule,
  "lib/actions/authorizations.ts": authorizationsModule,
  "lib/actions/payment-methods.ts": payment_methodsModule,
  "lib/actions/risk.ts": riskModule,
  "lib/actions/cancel-payout.ts": cancel_payoutModule,
  "lib/actions/check-status.ts": check_statusModule,
  "lib/actions/connections.ts": connectionsModule,
  "lib/actions/invoice-composer.ts": invoice_composerModule,
  "lib/actions/mfa.ts": mfaModule,
  "lib/actions/payment-link.ts": payment_linkModule,
  "lib/actions/process-payout.ts": process_payoutModule,
  "lib/actions/refunds.ts": refundsModule,
  "lib/actions/disputes.ts": disputesModule,
  "lib/actions/routing.ts": routingModule,
  "lib/actions/sandbox-faults.ts": sandbox_faultsModule,
  "lib/actions/settings.ts": settingsModule,
  "lib/actions/team.ts": teamModule,
  "lib/actions/test-connection.ts": test_connectionModule,
  "lib/actions/view-mode.ts": view_modeModule,
  "lib/actions/webhooks.ts": webhooksModule,
};
const ACTION_FUNCTIONS: Record<string, unknown> = Object.fromEntries(
  Object.entries(ACTION_MODULES).flatMap(([file, module]) => Object.entries(module).map(([name, fn]) => [`${file}#${name}`, fn])),
);

const isPermission = (role: ActionCase["role"]): role is Permission => role !== "member" && role !== "public";

const actionProbes: Probe[] = Object.entries(ACTIONS).flatMap(([name, entry]): Probe[] => {
  const probes: Probe[] = [];
  const { tenant, own } = entry;
  if (tenant) {
    probes.push({
      name: `${name}: ${entry.role === "public" ? "anyone" : "merchant A's owner"} with merchant B's ids → refused`,
      run: async () => {
        const result = await probe(
          () => B,
          () => {
            session.userId = entry.role === "public" ? undefined : A.ownerId;
            return tenant.run();
          },
          (r) => JSON.stringify(r),
        );
        expect(result.ok).toBe(false);
        const refusal = typeof tenant.refusal === "function" ? tenant.refusal() : tenant.refusal;
        if (!result.ok) expect([result.message, ...Object.values(result.fieldErrors).flat()], JSON.stringify(result)).toContain(refusal);
      },
    });
  }
  if (entry.role === "public") return probes;
  for (const role of ROLE_ORDER) {
    const permission = isPermission(entry.role) ? entry.role : undefined;
    if (permission && !allows(role, permission) && own) {
      const refusal = refusalFor(role, permission);
      probes.push({
        name: `${name}: merchant A's ${role} member with A's own ids → "${refusal}"`,
        run: async () => {
          const result = await probe(
            () => A,
            () => {
              session.userId = A.members[role];
              return own();
            },
            (r) => JSON.stringify(r),
          );
          expect(result).toEqual({ ok: false, fieldErrors: {}, message: refusal });
        },
      });
    } else {
      // Allowed: the role check passes and the input is looked at (a body that is no object is refused by the schema, so nothing changes).
      probes.push({
        name: `${name}: merchant A's ${role} member passes the role check (its input is parsed)`,
        run: async () => {
          const result = await probe(
            () => A,
            () => {
              session.userId = A.members[role];
              return (ACTION_FUNCTIONS[name] as (input: unknown) => Promise<Outcome>)(null);
            },
            (r) => JSON.stringify(r),
          );
          expect(result.ok).toBe(false);
          if (!result.ok) expect(result.message ?? "").not.toMatch(/^Your role|^Your session|^Your business requires/);
        },
      });
    }
  }
  return probes;
});

// ---------------------------------------------------------------------------------------------

describe("the tables cover every route, page folder and action in the repository", () => {
  it("names every served method of every route.ts under a [param] folder", () => {
    const found = DISCOVERED_ROUTES.flatMap(({ file, exports }) => exports.filter((e) => e.served).map((e) => `${file} ${e.method}`));
    expect(found.length).toBeGreaterThan(10);
    expect(Object.keys(ROUTES).sort()).toEqual(found.sort());
    for (const [name, entry] of Object.entries(ROUTES)) {
      if (!("exempt" in entry)) expect(ROUTE_MODULES[name.split(" ")[0]!]?.[name.split(" ")[1]!], name).toBe(entry.handler as unknown);
    }
  });

  it("names every export of every server action module in lib/actions", () => {
    const found = repoFiles("lib/actions", (f) => f.endsWith(".ts") && !f.endsWith(".test.ts"))
      .filter((file) => /^\s*["']use server["']/.test(readRepoFile(file)))
      .flatMap((file) => exportedActions(readRepoFile(file)).map((name) => `${file}#${name}`));
    expect(Object.keys(ACTIONS).sort()).toEqual(found.sort());
  });

  it("gives each action a tenant case or the reason it names no id, and each action behind a permission an own() case for the roles without it", () => {
    for (const [name, entry] of Object.entries(ACTIONS)) {
      expect(Boolean(entry.tenant) !== Boolean(entry.noId), `${name}: exactly one of tenant / noId`).toBe(true);
      expect(isPermission(entry.role), `${name}: actions behind a permission need an own() case, others none`).toBe(Boolean(entry.own));
      if (entry.role !== "public") expect(ACTION_FUNCTIONS[name], `${name}: in ACTION_FUNCTIONS`).toBeTypeOf("function");
    }
  });

  it("every permission an action needs leaves some role without it, so the refusals are probed", () => {
    for (const entry of Object.values(ACTIONS))
      if (isPermission(entry.role)) expect(ROLE_ORDER.some((role) => !allows(role, entry.role as Permission))).toBe(true);
  });
});

describe("merchant A cannot read or change merchant B's data through a route", () => {
  it.each(routeProbes.map((p) => [p.name, p] as const))("%s", async (_name, p) => p.run());
});

describe("methods a route does not serve answer 405 (or OPTIONS 204) whoever asks", () => {
  // it.each refuses an empty table: while no route has such a method, this says so instead.
  if (notServedProbes.length === 0) it("(no route exports a refusing handler yet)", () => expect(notServedProbes).toEqual([]));
  else it.each(notServedProbes.map((p) => [p.name, p] as const))("%s", async (_name, p) => p.run());
});

describe("every role of the permission table on the dashboard's session routes and the composer's credential", () => {
  it.each(roleProbes.map((p) => [p.name, p] as const))("%s", async (_name, p) => p.run());
});

describe("ids in request bodies", () => {
  it.each(bodyProbes.map((p) => [p.name, p] as const))("%s", async (_name, p) => p.run());
});

// After the body probes, whose own count of A's routing versions this would change.
describe("a key finds nothing of the other mode through a route", () => {
  beforeAll(async () => {
    // The version routes need a version of A's order to refuse, whichever probes ran before.
    const [service] = A.routingOrderId.split(":");
    if ((await getRoutingOrder(t.db, A.merchantId, service!, "test"))?.version) return;
    const rules = [{ name: "A's mode probe", conditions: {}, outcome: { kind: "cascade" as const, connection_ids: [A.a.id] } }];
    const saved = await saveRoutingOrder(t.db, { merchantId: A.merchantId, actor: { label: "setup" } }, { service: service!, mode: "test", rules });
    if (!saved.ok || saved.value.version === 0) throw new Error(`setup: ${JSON.stringify(saved)}`);
  });
  it.each(modeProbes.map((p) => [p.name, p] as const))("%s", async (_name, p) => p.run());
});

describe("search and export find only the merchant's own invoices", () => {
  it.each(searchProbes.map((p) => [p.name, p] as const))("%s", async (_name, p) => p.run());
});

describe("server actions refuse other merchants' ids, and every role the permission table does not allow", () => {
  it.each(actionProbes.map((p) => [p.name, p] as const))("%s", async (_name, p) => p.run());
});

describe("mode-scoped permissions: a role allowed in test mode only is refused in live mode and changes nothing", () => {
  const liveKeyId = async () => {
    const [row] = await t.db
      .select({ id: schema.apiKeys.id })
      .from(schema.apiKeys)
      .where(and(eq(schema.apiKeys.merchantId, A.merchantId), eq(schema.apiKeys.mode, "live")));
    return row!.id;
  };
  const cases: { name: string; role: "developer" | "support"; run: () => Promise<Outcome>; refusal: string }[] = [
    {
      name: "a developer creates a live API key",
      role: "developer",
      run: () => createApiKeyAction({ name: "dev live", mode: "live", scope: "full" }),
      refusal: "Your role (Developer) may not create, roll and revoke live API keys.",
    },
    {
      name: "a developer revokes a live API key",
      role: "developer",
      run: async () => revokeApiKeyAction({ id: await liveKeyId() }),
      refusal: "Your role (Developer) may not create, roll and revoke live API keys.",
    },
    {
      name: "a developer rolls a live API key",
      role: "developer",
      run: async () => rollApiKeyAction({ id: await liveKeyId(), grace: "now" }),
      refusal: "Your role (Developer) may not create, roll and revoke live API keys.",
    },
    {
      name: "a developer saves live routing",
      role: "developer",
      run: () => saveRoutingOrderAction({ service: A.a.services[0], mode: "live", connectionIds: [] }),
      refusal: "Your role (Developer) may not change live routing and the success-rate settings.",
    },
    {
      name: "a developer changes the success-rate settings (both modes)",
      role: "developer",
      run: () => saveSuccessSettingsAction({ window_hours: 2, min_sample: 5, exploration_percent: 1 }),
      refusal: "Your role (Developer) may not change live routing and the success-rate settings.",
    },
  ];
  it.each(cases.map((c) => [c.name, c] as const))("%s → refused", async (_name, c) => {
    const result = await probe(
      () => A,
      () => {
        session.userId = A.members[c.role];
        return c.run();
      },
      (r) => JSON.stringify(r),
    );
    expect(result).toEqual({ ok: false, fieldErrors: {}, message: c.refusal });
  });

  it("a developer creates a test API key and saves test routing", async () => {
    session.userId = A.members.developer;
    expect(await createApiKeyAction({ name: "dev test", mode: "test", scope: "full" })).toMatchObject({ ok: true });
    session.userId = A.members.developer;
    expect(await saveRoutingOrderAction({ service: A.a.services[0], mode: "test", connectionIds: [A.a.id] })).toMatchObject({ ok: true });
  });
});

describe("the refusals are refusals, not a broken set-up", () => {
  it("merchant B's owner can do with B's ids what A was refused", async () => {
    session.userId = B.ownerId;
    expect(await checkStatusNowAction({ id: B.paymentId })).toMatchObject({ ok: false, message: expect.stringContaining("Nothing to ask the provider") });
    const route = ROUTES["app/api/connections/[id]/route.ts GET"] as RouteCase;
    expect((await callRoute(route, B, { bearer: B.key }, "GET")).status).toBe(200);
    const download = ROUTES["app/(dashboard)/connections/[id]/public-key/route.ts GET"] as RouteCase;
    expect((await callRoute(download, B, { userId: B.ownerId }, "GET")).status).toBe(200);
    const invoice = ROUTES["app/api/dashboard/invoices/[id]/route.ts GET"] as RouteCase;
    expect((await callRoute(invoice, B, { userId: B.supportId }, "GET")).status).toBe(200);
    const order = ROUTES["app/api/routing/[id]/route.ts GET"] as RouteCase;
    expect((await callRoute(order, B, { bearer: B.key }, "GET")).status).toBe(200);
    const hosted = await payStatusRoute.GET(new Request("http://test/x"), { params: Promise.resolve({ id: B.paymentId }) });
    expect(hosted.status).toBe(200);
  });

  it("a change to the merchant's rows shows in its snapshot (so an unchanged snapshot means nothing changed)", async () => {
    const before = await snapshotTenant(t.db, B.merchantId);
    session.userId = B.ownerId;
    const created = await createApiKeyAction({ name: "harness check", mode: "test", scope: "full" });
    expect(created.ok).toBe(true);
    const after = await snapshotTenant(t.db, B.merchantId);
    expect(after.api_keys).toHaveLength(before.api_keys!.length + 1);
    session.userId = B.ownerId;
    if (created.ok) expect(await revokeApiKeyAction({ id: (created.data as { id: string }).id })).toEqual({ ok: true, data: undefined });
    expect(await snapshotTenant(t.db, B.merchantId)).not.toEqual(after);
  });
});

afterAll(() => {
  const cases = routeProbes.length + roleProbes.length + modeProbes.length + notServedProbes.length + bodyProbes.length + actionProbes.length;
  process.stdout.write(`tenants-roles: ${cases} (entry x attacker) cases\n`);
});
