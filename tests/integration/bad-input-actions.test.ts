import fs from "node:fs";
import fc from "fast-check";
import { beforeAll, describe, expect, it, vi } from "vitest";

/** The session cookie is next-auth's business; here `auth()` answers with the signed-in owner. */
const session = vi.hoisted(() => ({ userId: undefined as string | undefined }));
vi.mock("@/lib/auth", () => ({
  auth: async () => (session.userId ? { user: { id: session.userId } } : null),
  signIn: async () => undefined,
  signOut: async () => undefined,
}));
vi.mock("@/lib/auth/reissue", () => ({ reissueSession: async () => true }));
// next-auth itself does not load outside Next (it imports "next/server" without an extension).
vi.mock("next-auth", () => ({ AuthError: class AuthError extends Error {} }));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));
vi.mock("next/headers", () => ({
  headers: async () => new Headers({ "x-forwarded-for": `198.51.100.${Math.floor(Math.random() * 250)}` }),
  cookies: async () => ({ get: () => undefined, set: () => undefined, delete: () => undefined }),
}));

import { changePasswordAction, renameBusinessAction } from "@/lib/actions/account";
import { createApiKeyAction, revokeApiKeyAction } from "@/lib/actions/api-keys";
import { confirmSignUpAction, signInAction, signUpAction } from "@/lib/actions/auth";
import { checkStatusNowAction } from "@/lib/actions/check-status";
import { createConnectionAction, deleteConnectionAction, generateKeyPairAction, setConnectionEnabledAction, updateConnectionAction } from "@/lib/actions/connections";
import { acceptInviteAction, forgotPasswordAction, resetPasswordAction } from "@/lib/actions/password";
import { processPayoutAction } from "@/lib/actions/process-payout";
import type { ActionResult } from "@/lib/actions/result";
import { saveRoutingOrderAction } from "@/lib/actions/routing";
import { setSandboxFaultAction } from "@/lib/actions/sandbox-faults";
import { updateInvoiceLifetimeAction, updateMerchantSettingsAction } from "@/lib/actions/settings";
import { changeRoleAction, inviteMemberAction, removeMemberAction, resendInviteAction, revokeInviteAction } from "@/lib/actions/team";
import { resendWebhookEventAction, saveWebhookUrlAction } from "@/lib/actions/webhooks";
import { changedTables, formInputArb, isNextControlFlow, rowCounts } from "./helpers/bad-input";
import { createAttributes } from "./helpers/connection-fixtures";
import { setUpTestDb } from "./helpers/db";
import { teamMerchant, type TeamMerchant } from "./helpers/invoice-fixtures";

/**
 * Issue 13 suite 5, "Bad input", for the server actions behind every form: each is called as a
 * signed-in owner with generated input (anything at all, odd records, near-valid forms with one
 * field wrong). No throw escapes but Next's redirect/notFound, no "something went wrong on our
 * side" (an action's 500), and a refused call writes no row anywhere.
 */

const t = setUpTestDb();
let m: TeamMerchant;
let connectionId = "";
const RUNS = Number(process.env.BAD_INPUT_ACTION_RUNS ?? 70);
const SEED = Number(process.env.BAD_INPUT_SEED ?? Date.now() % 2 ** 31);
const INTERNAL = "Something went wrong on our side";

type Action = (input: unknown) => Promise<ActionResult<unknown> | void>;
const actions: Record<string, { call: Action; valid: () => Record<string, unknown>; runs?: number }> = {
  changePassword: { call: changePasswordAction, valid: () => ({ currentPassword: "wrong-password-1", newPassword: "another-pass-42", confirmPassword: "another-pass-42" }) },
  renameBusiness: { call: renameBusinessAction, valid: () => ({ businessName: "Renamed Ltd" }) },
  createApiKey: { call: createApiKeyAction, valid: () => ({ name: "fuzz" }) },
  revokeApiKey: { call: revokeApiKeyAction, valid: () => ({ id: m.keyId }) },
  createConnection: { call: createConnectionAction, valid: () => createAttributes("provider-c", "h2h") as unknown as Record<string, unknown> },
  updateConnection: { call: updateConnectionAction, valid: () => ({ id: connectionId, label: "Renamed" }) },
  setConnectionEnabled: { call: setConnectionEnabledAction, valid: () => ({ id: connectionId, enabled: false }) },
  deleteConnection: { call: deleteConnectionAction, valid: () => ({ id: `${connectionId}x` }) },
  generateKeyPair: { call: generateKeyPairAction, valid: () => ({ provider: "provider-a", kind: "not-a-kind" }), runs: 20 }, // an accepted form makes an RSA key pair: slow
  checkStatusNow: { call: checkStatusNowAction, valid: () => ({ id: "cpi_x" }) },
  processPayout: { call: processPayoutAction, valid: () => ({ id: "cpoi_x" }) },
  saveRoutingOrder: { call: saveRoutingOrderAction, valid: () => ({ id: "payment_card_eur_hpp:test", connectionIds: [connectionId] }) },
  setSandboxFault: { call: setSandboxFaultAction, valid: () => ({ connectionId, fault: "none" }) },
  updateMerchantSettings: { call: updateMerchantSettingsAction, valid: () => ({ maxAttempts: 3 }) },
  updateInvoiceLifetime: { call: updateInvoiceLifetimeAction, valid: () => ({ minutes: 60 }) },
  inviteMember: { call: inviteMemberAction, valid: () => ({ email: "not-an-address", role: "support" }) },
  resendInvite: { call: resendInviteAction, valid: () => ({ id: "inv_x" }) },
  revokeInvite: { call: revokeInviteAction, valid: () => ({ id: "inv_x" }) },
  changeRole: { call: changeRoleAction, valid: () => ({ userId: m.supportId, role: "support" }) },
  removeMember: { call: removeMemberAction, valid: () => ({ userId: `${m.supportId}x` }) },
  saveWebhookUrl: { call: saveWebhookUrlAction, valid: () => ({ url: "https://example.com/hook" }) },
  resendWebhookEvent: { call: resendWebhookEventAction, valid: () => ({ id: "evt_x" }) },
  signUp: { call: signUpAction, valid: () => ({ name: "N", email: "x", password: "short", businessName: "B", commerceAccount: "acct" }) },
  confirmSignUp: { call: confirmSignUpAction, valid: () => ({ token: "tok_x", password: "correct-horse-42" }) },
  signIn: { call: (input) => signInAction(input, (input as { next?: unknown } | null)?.next as string), valid: () => ({ email: "nobody", password: "x", next: "//evil.example" }) },
  forgotPassword: { call: forgotPasswordAction, valid: () => ({ email: "not-an-address" }) },
  resetPassword: { call: resetPasswordAction, valid: () => ({ token: "tok_x", password: "correct-horse-42" }) },
  acceptInvite: { call: acceptInviteAction, valid: () => ({ token: "tok_x", name: "N", password: "correct-horse-42" }) },
};

/** The fields a form has: what an empty submission is told is missing, plus the valid sample's. */
async function fieldsOf(call: Action): Promise<string[]> {
  try {
    const result = await call({});
    return result && !result.ok ? Object.keys(result.fieldErrors) : [];
  } catch {
    return [];
  }
}

const totals = { tried: 0, internal: 0, thrown: 0, refusedWithWrites: 0 };

beforeAll(async () => {
  m = await teamMerchant(t.db);
  session.userId = m.ownerId;
  const created = await createConnectionAction(createAttributes("provider-c", "h2h"));
  if (!created.ok) throw new Error(`setup: ${JSON.stringify(created)}`);
  connectionId = created.data.id;
});

describe("server actions behind the forms take generated input as a signed-in owner", () => {
  for (const [name, action] of Object.entries(actions)) {
    it(`${name}: a result or Next's redirect, never an escaped throw or an internal error, and no row for a refusal`, async () => {
      session.userId = m.ownerId;
      const fields = await fieldsOf(action.call);
      const failures: string[] = [];
      await fc.assert(
        fc.asyncProperty(formInputArb(fields, action.valid()), async (input) => {
          session.userId = m.ownerId;
          const before = await rowCounts(t.db);
          let result: ActionResult<unknown> | void = undefined;
          let refused = true;
          totals.tried++;
          try {
            result = await action.call(input);
            refused = !!result && !result.ok;
          } catch (error) {
            if (!isNextControlFlow(error)) {
              totals.thrown++;
              failures.push(`threw ${(error as Error)?.message ?? String(error)} for ${JSON.stringify(input)?.slice(0, 200)}`);
            }
            refused = false;
          }
          if (result && !result.ok && result.message?.startsWith(INTERNAL)) {
            totals.internal++;
            failures.push(`internal error for ${JSON.stringify(input)?.slice(0, 200)}`);
          }
          if (refused) {
            const changed = changedTables(before, await rowCounts(t.db));
            if (changed.length) {
              totals.refusedWithWrites++;
              failures.push(`refused but wrote ${changed.join(", ")} for ${JSON.stringify(input)?.slice(0, 200)}`);
            }
          }
        }),
        { numRuns: action.runs ?? RUNS, seed: SEED },
      );
      expect(failures.slice(0, 5), `seed ${SEED}`).toEqual([]);
    }, 60_000);
  }

  it("counts what was tried", () => {
    fs.mkdirSync("test-reports", { recursive: true });
    const report = { seed: SEED, actions: Object.keys(actions).length, runsPerAction: RUNS, ...totals, fiveHundreds: totals.internal };
    fs.writeFileSync("test-reports/bad-input-actions.json", `${JSON.stringify(report, null, 2)}\n`);
    console.log(`bad input (actions): ${JSON.stringify(report)}`);
    expect(totals.tried).toBe(Object.values(actions).reduce((sum, action) => sum + (action.runs ?? RUNS), 0));
  });
});
