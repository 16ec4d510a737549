import fs from "node:fs";
import { eq } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

/**
 * next-auth's session, sign-in and sign-out are next-auth's business; here `auth()` answers with
 * the signed-in owner, and signIn / signOut record what they were asked, so the suite can see where
 * a sign-in would send the browser and that a sign-out was asked for.
 */
const seen = vi.hoisted(() => ({
  userId: undefined as string | undefined,
  signIns: [] as unknown[],
  signOuts: [] as unknown[],
  cookiesSet: [] as { name: string; value: string }[],
}));
vi.mock("@/lib/auth", () => ({
  auth: async () => (seen.userId ? { user: { id: seen.userId } } : null),
  signIn: async (_provider: string, options: unknown) => void seen.signIns.push(options),
  signOut: async (options: unknown) => void seen.signOuts.push(options),
}));
vi.mock("@/lib/auth/reissue", () => ({ reissueSession: async () => true }));
// next-auth itself does not load outside Next (it imports "next/server" without an extension).
vi.mock("next-auth", () => ({ AuthError: class AuthError extends Error {} }));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));
// A new client address per call, so the per-address limits (sign-up, reset) do not end the fuzz
// early; the cookie jar records what an action sets (the Test/Live switch).
vi.mock("next/headers", () => ({
  headers: async () => new Headers({ "x-forwarded-for": `198.51.100.${Math.floor(Math.random() * 250)}` }),
  cookies: async () => ({ get: () => undefined, set: (name: string, value: string) => void seen.cookiesSet.push({ name, value }), delete: () => undefined }),
}));

import * as paymentInvoicesRoute from "@/app/api/commerce/payment-invoices/route";
import * as payoutInvoicesRoute from "@/app/api/commerce/payout-invoices/route";
import * as accountActions from "@/lib/actions/account";
import * as alertActions from "@/lib/actions/alerts";
import * as apiKeyActions from "@/lib/actions/api-keys";
import * as authorizationActions from "@/lib/actions/authorizations";
import * as paymentMethodActions from "@/lib/actions/payment-methods";
import * as riskActions from "@/lib/actions/risk";
import * as authActions from "@/lib/actions/auth";
import * as checkStatusActions from "@/lib/actions/check-status";
import * as threeDsActions from "@/lib/actions/complete-three-ds";
import * as connectionActions from "@/lib/actions/connections";
import * as composerActions from "@/lib/actions/invoice-composer";
import * as paymentLinkActions from "@/lib/actions/payment-link";
import * as mfaActions from "@/lib/actions/mfa";
import * as passwordActions from "@/lib/actions/password";
import * as payoutActions from "@/lib/actions/process-payout";
import * as refundActions from "@/lib/actions/refunds";
import * as disputeActions from "@/lib/actions/disputes";
import * as cancelPayoutActions from "@/lib/actions/cancel-payout";
import * as routingActions from "@/lib/actions/routing";
import * as sandboxFaultActions from "@/lib/actions/sandbox-faults";
import * as settingsActions from "@/lib/actions/settings";
import * as teamActions from "@/lib/actions/team";
import * as testConnectionActions from "@/lib/actions/test-connection";
import * as viewModeActions from "@/lib/actions/view-mode";
import * as webhookActions from "@/lib/actions/webhooks";
import { createApiKey } from "@/lib/api-keys/queries";
import { createEndpoint } from "@/lib/webhooks/endpoints";
import { sealSignUp } from "@/lib/auth/signup-link";
import { findTemplate, templateEnvelope } from "@/lib/composer/templates";
import { publicBaseUrl } from "@/lib/config";
import { VIEW_MODE_COOKIE } from "@/lib/dashboard/view-mode";
import { disputes, invites } from "@/lib/db/schema";
import { startPasswordReset } from "@/lib/identity/account";
import { findViewer } from "@/lib/identity/membership";
import { hashPassword } from "@/lib/identity/password";
import { logger } from "@/lib/logger";
import { backgroundMailSettled } from "@/lib/mail";
import { createInvite } from "@/lib/merchants/invites";
import { addTeamMember } from "@/lib/merchants/team";
import { dispatchSandboxRequest } from "@/lib/providers/server/sandbox-dispatch";
import { saveRecord } from "@/lib/sandbox/records";
import { THREE_DS_PENDING_STATUS, THREE_DS_REQUIRED } from "@/lib/sandbox/three-ds";
import {
  changedTables,
  exportedNames,
  formDataOf,
  formInputArb,
  isNextControlFlow,
  NOT_COMPARED,
  odd,
  readRepoFile,
  redirectTarget,
  repoPath,
  serverActionFiles,
  snapshotStore,
  startLoopbackServer,
  type LoopbackServer,
} from "./helpers/bad-input";
import { createAttributes, editAttributes } from "./helpers/connection-fixtures";
import { setUpTestDb, unique } from "./helpers/db";
import { connect, newReference } from "./helpers/invoice-fixtures";
import { seedTenant, type TenantWorld } from "./helpers/tenant-world";
import { DEFAULT_RISK_SETTINGS } from "@/lib/risk/settings";

/**
 * For the server actions behind every form: every export of every
 * "use server" module is called as a signed-in owner of a merchant with real data, with generated
 * input (anything at all, odd records, near-valid forms with one field wrong, built from a
 * submission that works). For each call:
 * - no throw escapes but Next's redirect/notFound, and no "something went wrong on our side" (an
 *   action's 500; for the composer, no 5xx from the invoice API it relays to);
 * - a refusal says why (a message or a field's error);
 * - a refused call stores nothing: every table's row count and the full content of the merchant's
 *   rows are as before (so an in-place update counts too), and it sends nothing to a provider's
 *   sandbox, the invoice API or the merchant's webhook receiver;
 * - a redirect goes to a page of this server only;
 * - what an action does beyond the database is checked where it shows: the Test/Live cookie, the
 *   sign-in's destination, the sign-out, the webhook receiver.
 * The last describe block checks against the files that every action there is fuzzed.
 */

const t = setUpTestDb();
// 40 generated inputs per action from a seed that changes every run (BAD_INPUT_SEED repeats one): the
// file was the suite's largest at 70 (over 4,600 calls, each with a digest of the store before and after).
const RUNS = Number(process.env.BAD_INPUT_ACTION_RUNS ?? 40);
const SEED = Number(process.env.BAD_INPUT_SEED ?? Date.now() % 2 ** 31);
const INTERNAL = "Something went wrong on our side";

/** The "use server" modules, by file, as the fuzz imports them. */
const MODULES: Record<string, Record<string, unknown>> = {
  "lib/actions/account.ts": accountActions,
  "lib/actions/alerts.ts": alertActions,
  "lib/actions/api-keys.ts": apiKeyActions,
  "lib/actions/authorizations.ts": authorizationActions,
  "lib/actions/payment-methods.ts": paymentMethodActions,
  "lib/actions/risk.ts": riskActions,
  "lib/actions/auth.ts": authActions,
  "lib/actions/check-status.ts": checkStatusActions,
  "lib/actions/complete-three-ds.ts": threeDsActions,
  "lib/actions/connections.ts": connectionActions,
  "lib/actions/invoice-composer.ts": composerActions,
  "lib/actions/payment-link.ts": paymentLinkActions,
  "lib/actions/mfa.ts": mfaActions,
  "lib/actions/password.ts": passwordActions,
  "lib/actions/process-payout.ts": payoutActions,
  "lib/actions/refunds.ts": refundActions,
  "lib/actions/disputes.ts": disputeActions,
  "lib/actions/cancel-payout.ts": cancelPayoutActions,
  "lib/actions/routing.ts": routingActions,
  "lib/actions/sandbox-faults.ts": sandboxFaultActions,
  "lib/actions/settings.ts": settingsActions,
  "lib/actions/team.ts": teamActions,
  "lib/actions/test-connection.ts": testConnectionActions,
  "lib/actions/view-mode.ts": viewModeActions,
  "lib/actions/webhooks.ts": webhookActions,
};

/**
 * Actions deliberately not fuzzed, each with the reason ("file#export": reason). Empty: every
 * action is fuzzed.
 */
const NOT_FUZZED: Record<string, string> = {};

type Fn = (...args: unknown[]) => Promise<unknown>;
type Outcome =
  { kind: "returned"; value: unknown } | { kind: "redirect"; url: string } | { kind: "control"; digest: string } | { kind: "threw"; error: unknown };
/** What the call caused outside the database, counted from just before it. */
type Effects = { requests: string[]; deliveries: string[]; cookies: { name: string; value: string }[]; signIns: unknown[]; signOuts: unknown[] };

type Case = {
  /** A submission that works (or is refused for a reason past the form's checks): names every field. */
  valid: () => Record<string, unknown>;
  runs?: number;
  /** More input beside formInputArb's. */
  more?: (valid: Record<string, unknown>) => fc.Arbitrary<unknown>;
  /** The action takes a form's FormData (a `<form action>`), not an object. */
  form?: boolean;
  invoke?: (fn: Fn, input: unknown) => Promise<unknown>;
  /** Why an accepted call may still write after it answered: the suite waits for that to end. */
  background?: string;
  setUp?: () => Promise<void>;
  /** Default: an ActionResult with ok: false. */
  refused?: (outcome: Outcome) => boolean;
  /** Requests a refused call may still make (default: none). */
  refusalMaySend?: RegExp;
  /** Inputs tried on every run besides the generated ones (what an earlier seed found). */
  examples?: () => unknown[];
  /** Checks of what the call did beyond the database; each string is a failure. */
  check?: (outcome: Outcome, effects: Effects, refused: boolean, input: unknown) => string[];
};

let w: TenantWorld;
let app: LoopbackServer;
let receiver: LoopbackServer;
const world = {
  deletable: "",
  deletableEndpointId: "",
  switchable: "",
  removableUserId: "",
  revocableInviteId: "",
  inviteToken: "",
  resetToken: "",
  signUpToken: "",
  threeDsReference: "",
  rollableKeyId: "",
  ownerEmail: "",
  closedDisputeId: "",
};

const PASSWORD = "correct-horse-42";
const ok = (outcome: Outcome) => outcome.kind === "returned" && (outcome.value as { ok?: unknown } | null)?.ok === true;
const dataOf = (outcome: Outcome) =>
  (outcome.kind === "returned" ? (outcome.value as { data?: unknown }).data : undefined) as Record<string, unknown> | undefined;

/** A sign-in sends the browser to a page of this server only. */
function signInChecks(effects: Effects, refused: boolean): string[] {
  if (refused && effects.signIns.length) return [`refused but signed in: ${JSON.stringify(effects.signIns)}`];
  return effects.signIns
    .map((options) => (options as { redirectTo?: unknown }).redirectTo)
    .filter((to) => typeof to !== "string" || !to.startsWith("/") || to.startsWith("//") || to.startsWith("/\\"))
    .map((to) => `signed in with a redirect off this server: ${JSON.stringify(to)}`);
}

/** A delivery reached the merchant's receiver exactly when the action answered with one. */
function deliveryChecks(outcome: Outcome, effects: Effects, refused: boolean): string[] {
  if (refused) return [];
  const data = dataOf(outcome);
  if (effects.deliveries.length !== 1) return [`answered ${JSON.stringify(data)} after ${effects.deliveries.length} deliveries to the receiver`];
  return data?.succeeded === true && data.statusCode === 200 ? [] : [`the receiver answered 200, the action told ${JSON.stringify(data)}`];
}

const composerBody = (direction: "payment" | "payout") => {
  const envelope = templateEnvelope(findTemplate(direction === "payment" ? "a-payment" : "a-payout")!, {
    commerceAccount: w.account,
    referenceId: newReference(),
  }) as {
    data: { attributes: Record<string, unknown> };
  };
  envelope.data.attributes.test_mode = true;
  return envelope;
};

const CASES: Record<string, Case> = {
  "lib/actions/account.ts#changePasswordAction": {
    // A wrong current password: the form passes, the account refuses (and counts the attempt).
    valid: () => ({ currentPassword: "wrong-password-1", password: "another-pass-42", confirmPassword: "another-pass-42" }),
  },
  "lib/actions/account.ts#renameBusinessAction": { valid: () => ({ merchantName: "Renamed Ltd" }) },
  "lib/actions/alerts.ts#updateAlertRuleAction": {
    valid: () => ({ rule: "success_rate", enabled: true, threshold: 80, windowMinutes: 60 }),
    examples: () => [
      { rule: "success_rate", enabled: true, threshold: 0, windowMinutes: 60 },
      { rule: "success_rate", enabled: true, threshold: 80, windowMinutes: 100000 },
      { rule: "webhook_failures", enabled: true },
      { rule: "webhook_failures", enabled: "yes", threshold: 5 },
      { rule: "nope", enabled: true },
    ],
  },
  "lib/actions/api-keys.ts#createApiKeyAction": { valid: () => ({ name: "fuzz", mode: "live", scope: "read_only" }) },
  // The first accepted call revokes the key; the rest are refused as already revoked.
  "lib/actions/api-keys.ts#revokeApiKeyAction": { valid: () => ({ id: w.keyId }) },
  // A key of its own: the first accepted call rolls it; the rest are refused as already rolled.
  "lib/actions/api-keys.ts#rollApiKeyAction": { valid: () => ({ id: world.rollableKeyId, grace: "1h" }) },
  // The paid charge: refused past the form's checks (a charge has no authorization to capture or void); nothing moves.
  "lib/actions/authorizations.ts#captureInvoiceAction": { valid: () => ({ invoiceId: w.paymentId, requestKey: unique("capture"), amount: "0.01" }) },
  "lib/actions/authorizations.ts#voidInvoiceAction": { valid: () => ({ invoiceId: w.paymentId, requestKey: unique("void") }) },
  // The saved card: the first accepted call detaches it (the provider's sandbox is told), later ones find it detached.
  "lib/actions/payment-methods.ts#removeSavedCardAction": { valid: () => ({ id: w.paymentMethodId }) },
  "lib/actions/payment-methods.ts#listChargeableCardsAction": { valid: () => ({ customerReference: `customer-of-${w.name}`, testMode: true }) },
  // The blocklist: entries added (the same one again answers it), the seeded one removed once, the paid payment's card blocked.
  "lib/actions/risk.ts#addBlocklistEntryAction": { valid: () => ({ kind: "address", value: "203.0.113.0/24", note: "fuzz", mode: "test" }) },
  "lib/actions/risk.ts#removeBlocklistEntryAction": { valid: () => ({ id: w.blocklistId, mode: "test" }) },
  "lib/actions/risk.ts#blockInvoiceCardAction": { valid: () => ({ invoiceId: w.paymentId }) },
  "lib/actions/risk.ts#saveRiskSettingsAction": { valid: () => ({ ...DEFAULT_RISK_SETTINGS, cardDeclines: 7 }) },
  "lib/actions/risk.ts#simulateRiskAction": { valid: () => ({ mode: "test", bin: "424242", address: "127.0.0.1", email: "someone@example.com" }) },
  "lib/actions/auth.ts#confirmSignUpAction": {
    // A real link: the first accepted call makes the merchant, later ones are told the e-mail has an account.
    valid: () => ({ token: world.signUpToken, password: PASSWORD }),
    runs: Math.ceil(RUNS / 2), // every call that passes the form costs a bcrypt comparison or two
    check: (_outcome, effects, refused) => signInChecks(effects, refused),
  },
  "lib/actions/auth.ts#signInAction": {
    valid: () => ({ email: "nobody@example.com", password: "x", next: "//evil.example" }),
    // The sign-in form passes its `next` query parameter as the second argument.
    invoke: (fn, input) => fn(input, (input as { next?: unknown } | null)?.next),
    check: (_outcome, effects, refused) => signInChecks(effects, refused),
  },
  "lib/actions/auth.ts#signInSecondFactorAction": {
    valid: () => ({ challenge: "A".repeat(80), code: "123456", next: "//evil.example" }),
    invoke: (fn, input) => fn(input, (input as { next?: unknown } | null)?.next),
    check: (_outcome, effects, refused) => signInChecks(effects, refused),
  },
  "lib/actions/auth.ts#signOutAction": {
    valid: () => ({}),
    // Its only effect is next-auth's signOut (recorded by the mock): nothing of ours may be stored, whatever it is sent.
    refused: () => true,
    check: (outcome, effects) => {
      const problems: string[] = [];
      if (outcome.kind === "returned" && outcome.value !== undefined) problems.push(`returned ${JSON.stringify(outcome.value)}`);
      if (JSON.stringify(effects.signOuts) !== JSON.stringify([{ redirectTo: "/sign-in" }]))
        problems.push(`asked next-auth for ${JSON.stringify(effects.signOuts)}`);
      return problems;
    },
  },
  "lib/actions/auth.ts#signUpAction": {
    valid: () => ({ name: "N", email: `${unique("fuzz")}@example.com`, password: PASSWORD, merchantName: "B", commerceAccount: unique("fuzz") }),
    background: "the confirmation e-mail is sent without waiting (the answer must not tell whether the address has an account)",
    // An accepted sign-up marks the browser (lib/auth/signup-browser.ts); a refused one sets nothing.
    check: (_outcome, effects, refused) =>
      refused
        ? effects.cookies.map((c) => `refused but set ${c.name}`)
        : effects.cookies.length === 1 && effects.cookies[0]!.name === "signup_browser"
          ? []
          : [`set ${JSON.stringify(effects.cookies.map((c) => c.name))}`],
  },
  // A paid payment: "nothing to ask the provider".
  "lib/actions/check-status.ts#checkStatusNowAction": { valid: () => ({ id: w.paymentId }) },
  "lib/actions/complete-three-ds.ts#completeThreeDsAction": {
    valid: () => ({ provider: w.a.provider, reference: world.threeDsReference, answer: "pass", return: "/pay/cpi_x/return" }),
    form: true,
    // A NUL in the reference once reached the sandbox's query (seed 261009468).
    examples: () => [formDataOf({ provider: w.a.provider, reference: "a\u0000b", answer: "pass", return: "/pay/cpi_x/return" })],
    // Always a redirect: back to the 3-D Secure page when refused (home when the call named no page), else to the return URL.
    refused: (outcome) => outcome.kind !== "redirect" || outcome.url.startsWith("/sandbox/3ds/") || outcome.url === "/",
    check: (outcome) => (outcome.kind === "redirect" || outcome.kind === "threw" ? [] : [`answered ${outcome.kind} instead of a redirect`]),
  },
  "lib/actions/connections.ts#createConnectionAction": { valid: () => createAttributes("provider-c", "h2h") },
  "lib/actions/connections.ts#updateConnectionAction": { valid: () => ({ id: w.a.id, ...editAttributes({ label: "Renamed" }) }) },
  "lib/actions/connections.ts#setConnectionEnabledAction": { valid: () => ({ id: world.switchable, enabled: false }) },
  "lib/actions/connections.ts#deleteConnectionAction": { valid: () => ({ id: world.deletable }) },
  "lib/actions/connections.ts#generateKeyPairAction": { valid: () => ({}), runs: 20 }, // an accepted call makes an RSA key pair: slow
  "lib/actions/invoice-composer.ts#sendComposedInvoiceAction": {
    valid: () => ({ direction: "payment", body: JSON.stringify(composerBody("payment")) }),
    // Besides the form's two fields, envelopes with one attribute changed or removed (a fresh reference each).
    more: () =>
      fc
        .tuple(fc.constantFrom("payment" as const, "payout" as const), fc.string({ maxLength: 20 }), odd, fc.boolean())
        .map(([direction, pick, value, remove]) => {
          const envelope = composerBody(direction);
          const keys = Object.keys(envelope.data.attributes);
          const key = keys[pick.length % keys.length]!;
          if (remove) delete envelope.data.attributes[key];
          else envelope.data.attributes[key] = value;
          return { direction, body: JSON.stringify(envelope) ?? "" };
        }),
    // The API refusing the envelope (4xx) is a refusal too: nothing stored, only that one request made.
    refused: (outcome) => !ok(outcome) || Number(dataOf(outcome)?.status) >= 400,
    refusalMaySend: /^POST \/api\/commerce\/(payment|payout)-invoices$/,
    check: (outcome) => {
      const status = Number(dataOf(outcome)?.status);
      return ok(outcome) && !(status >= 200 && status < 500) ? [`the invoice API answered ${status}`] : [];
    },
  },
  "lib/actions/payment-link.ts#createPaymentLinkAction": {
    valid: () => ({ amount: "25.00", currency: "EUR", description: "Two blue mugs", email: "ada@example.com", test_mode: true }),
  },
  "lib/actions/password.ts#acceptInviteAction": {
    // The first accepted call makes the member and signs them in; later ones are told the link is used.
    valid: () => ({ token: world.inviteToken, name: "Fuzz Member", password: PASSWORD, confirmPassword: PASSWORD }),
    check: (_outcome, effects, refused) => signInChecks(effects, refused),
  },
  "lib/actions/password.ts#forgotPasswordAction": {
    // The owner's address: a reset is started and its e-mail sent (until the per-account limit).
    valid: () => ({ email: world.ownerEmail }),
    background: "the reset e-mail is sent without waiting (the answer must not tell whether the address has an account)",
  },
  "lib/actions/password.ts#resetPasswordAction": { valid: () => ({ token: world.resetToken, password: PASSWORD, confirmPassword: PASSWORD }) },
  // The payout waiting to be processed: the first accepted call sends it to the provider's sandbox.
  "lib/actions/process-payout.ts#processPayoutAction": { valid: () => ({ id: w.payoutId }) },
  // A payout of its own waiting to be sent: the first accepted call cancels it, later ones are told it is canceled.
  "lib/actions/cancel-payout.ts#cancelPayoutAction": { valid: () => ({ id: w.cancelablePayoutId }) },
  // The paid payment: each accepted call refunds one cent of it (until nothing is left).
  "lib/actions/refunds.ts#refundInvoiceAction": { valid: () => ({ invoiceId: w.paymentId, referenceId: unique("refund"), amount: "0.01", reason: "fuzz" }) },
  // The world's open dispute: each accepted call replaces its evidence draft.
  "lib/actions/disputes.ts#saveDisputeEvidenceAction": {
    valid: () => ({ disputeId: w.disputeId, product_description: "Two blue mugs", explanation: "Delivered and signed for." }),
  },
  // A dispute the provider already decided: valid input is refused past the form's checks, before any provider call
  // (an accepted submit or accept reaches the provider; tests/integration/disputes-actions.test.ts covers those).
  "lib/actions/disputes.ts#submitDisputeAction": { valid: () => ({ disputeId: world.closedDisputeId }) },
  "lib/actions/disputes.ts#acceptDisputeAction": { valid: () => ({ disputeId: world.closedDisputeId }) },
  "lib/actions/routing.ts#saveRoutingOrderAction": { valid: () => ({ service: w.a.services[0], mode: "test", connectionIds: [w.a.id] }) },
  "lib/actions/routing.ts#saveRoutingRulesAction": {
    valid: () => ({
      service: w.a.services[0],
      mode: "test",
      rules: [{ name: "Big", conditions: { amount_min: "100" }, outcome: { kind: "cascade", connection_ids: [w.a.id] } }],
    }),
  },
  "lib/actions/routing.ts#saveSuccessSettingsAction": { valid: () => ({ window_hours: "12", min_sample: "10", exploration_percent: "5" }) },
  "lib/actions/routing.ts#simulateRoutingAction": {
    valid: () => ({ service: w.a.services[0], test_mode: true, amount: "12.50", customer_country: "FR", card_bin: "424242" }),
  },
  // Versions 1 and 2 are saved in beforeAll; comparing changes nothing, an accepted rollback saves a new version (or, once equal, nothing).
  "lib/actions/routing.ts#compareRoutingVersionsAction": {
    valid: () => ({ service: w.a.services[0], mode: "test", from: 1, to: 2 }),
    // The refusals a person meets: a version that does not exist, from after to, not a number.
    examples: () => [
      { service: w.a.services[0], mode: "test", from: 1, to: 999 },
      { service: w.a.services[0], mode: "test", from: 2, to: 1 },
      { service: w.a.services[0], mode: "test", from: "one", to: 2 },
    ],
  },
  "lib/actions/routing.ts#olderRoutingVersionsAction": {
    valid: () => ({ service: w.a.services[0], mode: "test", before: 2 }),
    examples: () => [
      { service: w.a.services[0], mode: "test", before: 0 },
      { service: w.a.services[0], mode: "test", before: "two" },
      { service: "payment_nope", mode: "test", before: 2 },
    ],
  },
  "lib/actions/routing.ts#rollbackRoutingAction": {
    valid: () => ({ service: w.a.services[0], mode: "test", version: 1 }),
    examples: () => [
      { service: w.a.services[0], mode: "test", version: 999 },
      { service: w.a.services[0], mode: "test", version: 1.5 },
      { service: w.a.services[0], mode: "test", version: "1" },
    ],
  },
  "lib/actions/sandbox-faults.ts#setSandboxFaultAction": { valid: () => ({ id: w.a.id, mode: "none" }) },
  "lib/actions/settings.ts#updateInvoiceLifetimeAction": { valid: () => ({ lifetimeMinutes: 60 }) },
  "lib/actions/settings.ts#updateMerchantSettingsAction": { valid: () => ({ allowLivePins: true }) },
  "lib/actions/settings.ts#updateMerchantTimeZoneAction": { valid: () => ({ timeZone: "Europe/Berlin" }) },
  "lib/actions/settings.ts#updatePersonTimeZoneAction": { valid: () => ({ timeZone: "Europe/Berlin" }) },
  // The owner has no two-factor: starting stores a pending secret; a code is then refused as wrong
  // (or, for the others, as not set up), and turning the requirement on is refused until enrolled.
  // A wrong current password: the forms pass, the account refuses (and counts the attempt).
  "lib/actions/mfa.ts#startMfaEnrolmentAction": { valid: () => ({ password: "wrong-password-1" }) },
  "lib/actions/mfa.ts#confirmMfaEnrolmentAction": { valid: () => ({ password: "wrong-password-1", code: "123456" }) },
  "lib/actions/mfa.ts#regenerateRecoveryCodesAction": { valid: () => ({ code: "123456" }) },
  "lib/actions/mfa.ts#disableMfaAction": { valid: () => ({ password: "wrong-password-1", code: "123456" }) },
  "lib/actions/mfa.ts#setRequireOwnerMfaAction": { valid: () => ({ requireOwnerMfa: true }) },
  "lib/actions/team.ts#changeRoleAction": { valid: () => ({ userId: w.supportId, role: "support" }) },
  "lib/actions/team.ts#inviteMemberAction": { valid: () => ({ name: "Friend", email: `${unique("friend")}@example.com`, role: "support" }) },
  "lib/actions/team.ts#removeMemberAction": { valid: () => ({ userId: world.removableUserId }) },
  "lib/actions/team.ts#resendInviteAction": { valid: () => ({ inviteId: w.inviteId }) },
  "lib/actions/team.ts#revokeInviteAction": { valid: () => ({ inviteId: world.revocableInviteId }) },
  "lib/actions/test-connection.ts#testConnectionAction": {
    valid: () => ({ id: w.a.id }),
    check: (outcome, effects, refused) =>
      refused || (typeof dataOf(outcome)?.kind === "string" && effects.requests.some((r) => r.includes("/sandbox/")))
        ? []
        : [`answered ${JSON.stringify(dataOf(outcome))} after ${JSON.stringify(effects.requests)}`],
  },
  "lib/actions/test-connection.ts#testCredentialsAction": {
    valid: () => ({ ...createAttributes("provider-c", "h2h"), label: "" }),
    // Test mode asks the sandbox; live mode has no provider address here (PROVIDER_C_LIVE_URL unset), so it says so without a request.
    examples: () => [{ ...createAttributes("provider-c", "h2h"), label: "", mode: "live" }],
    check: (outcome, effects, refused, input) => {
      if (refused) return [];
      const answer = dataOf(outcome);
      const live = (input as { mode?: unknown } | null)?.mode === "live";
      const asked = effects.requests.some((r) => r.includes("/sandbox/"));
      const fine = live
        ? answer?.kind === "unreachable" && /PROVIDER_C_LIVE_URL/.test(String(answer.message)) && !asked
        : typeof answer?.kind === "string" && asked;
      return fine ? [] : [`answered ${JSON.stringify(answer)} after ${JSON.stringify(effects.requests)}`];
    },
  },
  "lib/actions/view-mode.ts#setViewModeAction": {
    valid: () => ({ mode: "live" }),
    check: (outcome, effects, refused) => {
      if (refused) return effects.cookies.length ? [`refused but set ${JSON.stringify(effects.cookies)}`] : [];
      const mode = dataOf(outcome) as unknown;
      const expected = [{ name: VIEW_MODE_COOKIE, value: mode }];
      return (mode === "test" || mode === "live") && JSON.stringify(effects.cookies) === JSON.stringify(expected)
        ? []
        : [`answered ${JSON.stringify(mode)} and set ${JSON.stringify(effects.cookies)}`];
    },
  },
  "lib/actions/webhooks.ts#createWebhookEndpointAction": {
    valid: () => ({ url: `${receiver.origin}/hooks`, description: "fuzz", enabled: true, allEvents: false, eventTypes: ["refund.created"] }),
  },
  // The first accepted call deletes the endpoint; the rest are refused as gone.
  "lib/actions/webhooks.ts#deleteWebhookEndpointAction": { valid: () => ({ endpointId: world.deletableEndpointId }) },
  "lib/actions/webhooks.ts#resendWebhookEventAction": {
    valid: () => ({ eventId: w.eventId, endpointId: w.endpointId }),
    setUp: async () => void (await saveReceiverUrl()),
    check: deliveryChecks,
  },
  "lib/actions/webhooks.ts#rotateWebhookSecretAction": { valid: () => ({ endpointId: w.endpointId }) },
  "lib/actions/webhooks.ts#sendTestWebhookAction": {
    valid: () => ({ endpointId: w.endpointId }),
    setUp: async () => void (await saveReceiverUrl()),
    check: deliveryChecks,
  },
  "lib/actions/webhooks.ts#updateWebhookEndpointAction": {
    valid: () => ({ endpointId: w.endpointId, url: `${receiver.origin}/hooks`, description: "fuzz", enabled: true, allEvents: true, eventTypes: [] }),
  },
};

/** The world's endpoint (the one its payment's events went to) now points at this suite's receiver. */
async function saveReceiverUrl() {
  seen.userId = w.ownerId;
  const saved = await webhookActions.updateWebhookEndpointAction({
    endpointId: w.endpointId,
    url: `${receiver.origin}/hooks`,
    description: "fuzz",
    enabled: true,
    allEvents: true,
    eventTypes: [],
  });
  if (!saved.ok) throw new Error(`setup: ${JSON.stringify(saved)}`);
}

beforeAll(async () => {
  // The app's own origin over loopback: the providers' sandboxes under /sandbox/<slug> (APP_URL,
  // as in production) and the invoice API the composer posts to (INVOICE_API_BASE_URL), served by
  // their real modules so the actions reach them over HTTP as they do in the app. Neither is a
  // mock: requests are only counted, so a refused call can be seen to send nothing.
  app = await startLoopbackServer(async (request) => {
    const url = new URL(request.url);
    const [, first, second, ...rest] = url.pathname.split("/");
    if (first === "sandbox" && second) return dispatchSandboxRequest(request, second, rest);
    const context = { params: Promise.resolve({}) };
    if (request.method === "POST" && url.pathname === "/api/commerce/payment-invoices") return paymentInvoicesRoute.POST(request, context);
    if (request.method === "POST" && url.pathname === "/api/commerce/payout-invoices") return payoutInvoicesRoute.POST(request, context);
    return new Response("not found", { status: 404 });
  });
  // The merchant's webhook receiver: answers every delivery with 200.
  receiver = await startLoopbackServer(async () => Response.json({ received: true }));
  vi.stubEnv("APP_URL", app.origin);
  vi.stubEnv("INVOICE_API_BASE_URL", app.origin);

  vi.spyOn(logger, "info").mockImplementation(() => {});
  w = await seedTenant(t.db, `fuzz-${unique("m")}`);
  seen.userId = w.ownerId;
  const owner = (await findViewer(t.db, w.ownerId))!;
  // Things an accepted call destroys get one of their own, so the rest of the world stays.
  world.deletable = (await connect(t.db, w.merchantId, "provider-c", "h2h")).id;
  world.rollableKeyId = (await createApiKey(t.db, { merchantId: w.merchantId, name: "rollable" })).summary.id;
  world.switchable = (await connect(t.db, w.merchantId, "provider-c", "h2h")).id;
  const endpoint = await createEndpoint(t.db, w.merchantId, {
    url: "http://127.0.0.1:9/deletable",
    description: "",
    enabled: true,
    allEvents: true,
    eventTypes: [],
  });
  if (!endpoint.ok) throw new Error("setup: endpoint");
  world.deletableEndpointId = endpoint.value.id;
  const removable = await addTeamMember(t.db, w.merchantId, {
    name: "Rem",
    email: `${unique("rem")}@example.com`,
    role: "support",
    password: "support-pass-99",
  });
  if (!removable.ok) throw new Error("setup: member");
  world.removableUserId = removable.value.id;
  const resettable = await addTeamMember(t.db, w.merchantId, {
    name: "Res",
    email: `${unique("res")}@example.com`,
    role: "support",
    password: "support-pass-99",
  });
  if (!resettable.ok) throw new Error("setup: member");
  world.resetToken = (await startPasswordReset(t.db, resettable.value.email))!.token;
  const revocable = await createInvite(t.db, owner, { name: "Rev", email: `${unique("rev")}@example.com`, role: "support" });
  const acceptable = await createInvite(t.db, owner, { name: "Acc", email: `${unique("acc")}@example.com`, role: "support" });
  if (!revocable.ok || !acceptable.ok) throw new Error("setup: invites");
  world.inviteToken = acceptable.value.token;
  world.revocableInviteId = (await t.db.select().from(invites).where(eq(invites.email, revocable.value.email)))[0]!.id;
  world.ownerEmail = owner.user.email;
  world.signUpToken = sealSignUp({
    name: "Signed Up",
    email: `${unique("signup")}@example.com`,
    merchantName: "Signed Up Ltd",
    commerceAccount: unique("signup"),
    passwordHash: await hashPassword(PASSWORD),
  });
  // A payment of the merchant's waiting at the sandbox's 3-D Secure page.
  world.threeDsReference = (
    await saveRecord(t.db, {
      provider: w.a.provider,
      connectionId: w.a.id,
      operation: "payment",
      reference: unique("ref"),
      idempotencyKey: unique("idem"),
      amountMinor: 1000n,
      currency: "EUR",
      status: THREE_DS_PENDING_STATUS,
      details: { ...THREE_DS_REQUIRED },
    })
  ).reference;
  // A lost dispute of the paid payment, for Submit and Accept.
  const [open] = await t.db.select().from(disputes).where(eq(disputes.id, w.disputeId));
  world.closedDisputeId = `dp_${unique("closed").replace(/[^A-Za-z0-9]/g, "")}`;
  await t.db.insert(disputes).values({
    ...open!,
    id: world.closedDisputeId,
    providerReference: unique("closed-dispute"),
    status: "lost",
    evidence: {},
    closedAt: new Date(),
  });
  // Two versions of the routing, for the history's actions (compare, roll back).
  for (const name of ["First", "Second"]) {
    const saved = await routingActions.saveRoutingRulesAction({
      service: w.a.services[0],
      mode: "test",
      rules: [{ name, conditions: {}, outcome: { kind: "cascade", connection_ids: [w.a.id] } }],
    });
    if (!saved.ok) throw new Error(`setup: routing ${JSON.stringify(saved)}`);
  }
  await saveReceiverUrl();
  vi.restoreAllMocks();
});

afterAll(async () => {
  vi.unstubAllEnvs();
  await app?.close();
  await receiver?.close();
});

/**
 * Input as the call receives it. A `form` action gets its form's FormData (now and then with a file
 * where text was expected), and one call in five the raw value instead: a request to the action's
 * endpoint may carry any serialisable argument, not only what the page's form would send.
 */
function inputArb(entry: Case): fc.Arbitrary<unknown> {
  const valid = entry.valid();
  const base = entry.more ? fc.oneof({ weight: 2, arbitrary: formInputArb(valid) }, { weight: 1, arbitrary: entry.more(valid) }) : formInputArb(valid);
  if (!entry.form) return base;
  return fc
    .tuple(base, fc.constantFrom("form", "form", "form", "file", "raw"), fc.constantFrom(...Object.keys(valid)))
    .map(([input, how, fileAt]) =>
      how !== "raw" && input && typeof input === "object" && !Array.isArray(input)
        ? formDataOf(input as Record<string, unknown>, how === "file" ? fileAt : undefined)
        : input,
    );
}

function describeInput(input: unknown): string {
  const text =
    input instanceof FormData
      ? `FormData ${JSON.stringify([...input.entries()].map(([k, v]) => [k, typeof v === "string" ? v : "(file)"]))}`
      : JSON.stringify(input);
  return String(text).slice(0, 300);
}

async function outcomeOf(call: () => Promise<unknown>): Promise<Outcome> {
  try {
    return { kind: "returned", value: await call() };
  } catch (error) {
    if (!isNextControlFlow(error)) return { kind: "threw", error };
    const url = redirectTarget(error);
    return url === undefined ? { kind: "control", digest: String((error as { digest: string }).digest) } : { kind: "redirect", url };
  }
}

/** A page of this server: a path ("/x", not "//host" or "/\host") or an absolute URL on APP_URL's origin. */
function ownTarget(url: string): boolean {
  if (url.startsWith("/")) return !url.startsWith("//") && !url.startsWith("/\\");
  try {
    return new URL(url).origin === new URL(publicBaseUrl()).origin;
  } catch {
    return false;
  }
}

/**
 * Waits until what an accepted call left running has written: the e-mails sent in the background
 * (awaited, so a slow machine cannot let one land during the next call), then the store stops changing.
 */
async function settle(): Promise<void> {
  await backgroundMailSettled();
  let last = JSON.stringify(await snapshotStore(t.db, w.merchantId));
  for (let i = 0; i < 100; i++) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    const now = JSON.stringify(await snapshotStore(t.db, w.merchantId));
    if (now === last) return;
    last = now;
  }
}

const totals = { tried: 0, internal: 0, thrown: 0, unclear: 0, refused: 0, refusedWithWrites: 0, refusedButSent: 0, otherFailures: 0 };
const calls: Record<string, number> = {};
/** Per action, for the report: how many calls were refused (the rest were accepted). */
const perAction: Record<string, { tried: number; refused: number }> = {};

describe("server actions behind the forms take generated input as a signed-in owner", () => {
  for (const [name, entry] of Object.entries(CASES)) {
    const [file, exportName] = name.split("#") as [string, string];
    it(`${name}: never a throw, an internal error, an unclear refusal or a write for a refusal`, async () => {
      const action = MODULES[file]?.[exportName] as Fn | undefined;
      if (typeof action !== "function") throw new Error(`${name}: add its module to MODULES`);
      seen.userId = w.ownerId;
      await entry.setUp?.();
      // The store as the last refused call left it, when it changed nothing: the next call's "before"
      // (half the snapshots; refusals are most calls). Anything else takes a fresh one.
      let unchanged: Record<string, string> | undefined;
      const failures: string[] = [];
      const fail = (what: keyof typeof totals, text: string) => {
        totals[what]++;
        failures.push(text);
      };
      await fc.assert(
        fc.asyncProperty(inputArb(entry), async (input) => {
          seen.userId = w.ownerId;
          const before = unchanged ?? (await snapshotStore(t.db, w.merchantId));
          unchanged = undefined;
          const marks = {
            requests: app.requests.length,
            deliveries: receiver.requests.length,
            failures: app.failures.length,
            cookies: seen.cookiesSet.length,
            signIns: seen.signIns.length,
            signOuts: seen.signOuts.length,
          };
          totals.tried++;
          calls[name] = (calls[name] ?? 0) + 1;
          const tally = (perAction[name] ??= { tried: 0, refused: 0 });
          tally.tried++;
          const outcome = await outcomeOf(() => (entry.invoke ? entry.invoke(action, input) : action(input)));
          const effects: Effects = {
            requests: app.requests.slice(marks.requests),
            deliveries: receiver.requests.slice(marks.deliveries),
            cookies: seen.cookiesSet.slice(marks.cookies),
            signIns: seen.signIns.slice(marks.signIns),
            signOuts: seen.signOuts.slice(marks.signOuts),
          };
          const shown = describeInput(input);

          if (outcome.kind === "threw") {
            const error = outcome.error as Error | undefined;
            fail("thrown", `threw ${error?.stack?.split("\n").slice(0, 3).join(" ") ?? String(error)} for ${shown}`);
          }
          for (const failure of app.failures.slice(marks.failures)) fail("internal", `the app's server failed (500): ${failure.slice(0, 300)} for ${shown}`);
          if (outcome.kind === "redirect" && !ownTarget(outcome.url)) fail("otherFailures", `redirected off this server to ${outcome.url} for ${shown}`);

          // Actions with a result of their own say how a refusal shows; the rest answer an ActionResult.
          const value =
            outcome.kind === "returned" ? (outcome.value as { ok?: unknown; fieldErrors?: unknown; message?: unknown } | null | undefined) : undefined;
          if (!entry.refused && outcome.kind === "returned") {
            const shaped = value && (value.ok === true || (value.ok === false && typeof value.fieldErrors === "object" && value.fieldErrors !== null));
            if (!shaped) fail("otherFailures", `answered ${JSON.stringify(value)?.slice(0, 200)} (no ActionResult) for ${shown}`);
          }
          if (value && value.ok === false) {
            const message = typeof value.message === "string" ? value.message.trim() : "";
            const fieldErrors = Object.values((value.fieldErrors ?? {}) as Record<string, unknown>);
            if (message.startsWith(INTERNAL)) fail("internal", `internal error for ${shown}`);
            else if (!message && !fieldErrors.some((e) => typeof e === "string" && e.trim()))
              fail("unclear", `refused without saying why (${JSON.stringify(value)}) for ${shown}`);
          }

          const refused = outcome.kind !== "threw" && (entry.refused ? entry.refused(outcome) : value?.ok === false);
          for (const problem of entry.check?.(outcome, effects, refused, input) ?? []) fail("otherFailures", `${problem} for ${shown}`);
          if (refused) {
            totals.refused++;
            tally.refused++;
            const after = await snapshotStore(t.db, w.merchantId);
            const changed = changedTables(before, after);
            if (!changed.length) unchanged = after;
            else fail("refusedWithWrites", `refused (${JSON.stringify(value ?? outcome)?.slice(0, 200)}) but stored ${changed.join(", ")} for ${shown}`);
            const sent = [...effects.requests.filter((r) => !entry.refusalMaySend?.test(r)), ...effects.deliveries.map((r) => `webhook ${r}`)];
            if (sent.length) fail("refusedButSent", `refused but sent ${sent.join(", ")} for ${shown}`);
          } else if (entry.background) {
            await settle();
          }
        }),
        { numRuns: entry.runs ?? RUNS, seed: SEED, examples: entry.examples?.().map((input) => [input] as [unknown]) },
      );
      expect(failures.slice(0, 5), `seed ${SEED}; ${failures.length} failures`).toEqual([]);
    }, 60_000);
  }
});

describe("every server action in the repository is fuzzed", () => {
  const FOLDERS = ["app", "components", "lib"];

  it('every export of every "use server" module under app, components and lib is a case above (or excluded with a reason)', async () => {
    const files = serverActionFiles(FOLDERS);
    expect(files.length).toBeGreaterThan(10);
    const found: string[] = [];
    for (const { file } of files.filter((f) => f.module)) {
      // What the module exports at run time, and what its source says it exports (a re-export included).
      const loaded = (await import(/* @vite-ignore */ repoPath(file))) as Record<string, unknown>;
      const names = new Set([...Object.keys(loaded), ...exportedNames(readRepoFile(file))]);
      for (const exportName of names) {
        found.push(`${file}#${exportName}`);
        if (MODULES[file]?.[exportName] !== loaded[exportName]) {
          throw new Error(`${file}#${exportName}: the fuzz does not call this export (add the module to MODULES)`);
        }
      }
    }
    const missing = found.filter((name) => !(name in CASES) && !(name in NOT_FUZZED));
    expect(missing, "server actions the fuzz does not call: add a case to CASES").toEqual([]);
    const gone = [...Object.keys(CASES), ...Object.keys(NOT_FUZZED)].filter((name) => !found.includes(name));
    expect(gone, 'cases naming no export of a "use server" module').toEqual([]);
    for (const [name, reason] of Object.entries(NOT_FUZZED)) expect(reason.trim(), name).not.toBe("");
    expect(
      Object.keys(CASES).filter((name) => name in NOT_FUZZED),
      "both fuzzed and excluded",
    ).toEqual([]);
  });

  it('no server action is defined inline (a "use server" function inside a component or another module): none could be called here', () => {
    const inline = serverActionFiles(FOLDERS)
      .filter((f) => f.inlineDirectives > 0)
      .map((f) => `${f.file}: ${f.inlineDirectives} inline "use server"`);
    expect(inline, "move them to a module under lib/actions, which the fuzz covers").toEqual([]);
  });

  it("the snapshot sees an in-place change of one of the merchant's rows (so an unchanged snapshot means nothing changed)", async () => {
    const before = await snapshotStore(t.db, w.merchantId);
    seen.userId = w.ownerId;
    const renamed = await accountActions.renameBusinessAction({ merchantName: unique("Snapshot check") });
    expect(renamed).toEqual({ ok: true, data: undefined });
    // The rename and its audit log row (lib/audit).
    expect(changedTables(before, await snapshotStore(t.db, w.merchantId))).toEqual([
      "merchants: a row changed in place",
      expect.stringMatching(/^audit_log: (\d+) → \d+ rows$/),
    ]);
  });

  it("counts what was tried: every action, as many times as asked", () => {
    fs.mkdirSync("test-reports", { recursive: true });
    const report = {
      seed: SEED,
      actions: Object.keys(calls).length,
      runsPerAction: RUNS,
      ...totals,
      fiveHundreds: totals.internal,
      notCompared: Object.keys(NOT_COMPARED),
    };
    fs.writeFileSync("test-reports/bad-input-actions.json", `${JSON.stringify({ ...report, perAction }, null, 2)}\n`);
    console.log(`bad input (actions): ${JSON.stringify(report)}`);
    for (const [name, entry] of Object.entries(CASES)) expect(calls[name] ?? 0, name).toBe(entry.runs ?? RUNS);
    expect(totals.tried).toBe(Object.values(CASES).reduce((sum, entry) => sum + (entry.runs ?? RUNS), 0));
  });
});
