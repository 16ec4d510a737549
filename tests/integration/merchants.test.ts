import { describe, expect, it, vi } from "vitest";
import { eq } from "drizzle-orm";
import { authenticateApiKey, createApiKey, listApiKeys, revokeApiKey } from "@/lib/api-keys/queries";
import { users } from "@/lib/db/schema";
import { verifyPassword } from "@/lib/identity/password";
import { signUpSchema } from "@/lib/identity/schemas";
import { findUserByEmail, findViewer } from "@/lib/identity/membership";
import { renameMerchant } from "@/lib/merchants/business";
import { createMerchantWithOwner } from "@/lib/merchants/queries";
import { changeMemberRole, listMembers, removeMember, addTeamMember } from "@/lib/merchants/team";
import { unique, setUpTestDb } from "./helpers/db";
import { invoiceMerchant } from "./helpers/invoice-fixtures";

const t = setUpTestDb();

function signUp(overrides: Record<string, string> = {}) {
  const account = unique("acct");
  return signUpSchema.parse({
    name: "Ada Owner",
    email: `${account}@example.com`,
    password: "correct-horse-42",
    merchantName: "Ada Ltd",
    commerceAccount: account,
    ...overrides,
  });
}

describe("sign-up creates a merchant and its owner", () => {
  it("stores a bcrypt hash, never the password, and the owner role", async () => {
    const input = signUp();
    const created = await createMerchantWithOwner(t.db, input);
    expect(created.ok).toBe(true);
    const user = await findUserByEmail(t.db, input.email.toUpperCase());
    expect(user?.role).toBe("owner");
    expect(user?.passwordHash).not.toContain(input.password);
    expect(await verifyPassword(input.password, user!.passwordHash)).toBe(true);
  });

  it("refuses a duplicate e-mail and a duplicate commerce account together, creating nothing", async () => {
    const first = signUp();
    await createMerchantWithOwner(t.db, first);
    const again = signUp({ email: first.email, commerceAccount: first.commerceAccount });
    const result = await createMerchantWithOwner(t.db, again);
    expect(result).toEqual({
      ok: false,
      problems: [
        { path: ["email"], message: "An account with this e-mail already exists", code: "taken" },
        { path: ["commerceAccount"], message: "This commerce account is taken", code: "taken" },
      ],
    });
  });

  it("gives exactly one winner when the same sign-up races", async () => {
    const input = signUp();
    const results = await Promise.all(Array.from({ length: 5 }, () => createMerchantWithOwner(t.db, input)));
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok).every((r) => !r.ok && r.problems.some((e) => e.path[0] === "email"))).toBe(true);
  });
});

describe("API keys", () => {
  it("authenticates a new key, stores only its hash, and stops after revocation", async () => {
    const created = await createMerchantWithOwner(t.db, signUp());
    if (!created.ok) throw new Error("setup");
    const merchantId = created.value.merchant.id;
    const { key, summary } = await createApiKey(t.db, { merchantId, name: "CI" });
    expect(key).toMatch(/^pok_test_[A-Za-z0-9_-]{43}$/);
    expect(summary.lastFour).toBe(key.slice(-4));
    const auth = await authenticateApiKey(t.db, key);
    expect(auth?.merchant.id).toBe(merchantId);
    // The last-use write does not hold up the request: it lands a moment later.
    await vi.waitFor(async () => expect((await listApiKeys(t.db, merchantId))[0]?.lastUsedAt).toBeInstanceOf(Date));
    const [listed] = await listApiKeys(t.db, merchantId);
    expect(JSON.stringify(listed)).not.toContain(key);
    expect(await revokeApiKey(t.db, merchantId, summary.id)).toBe(true);
    expect(await authenticateApiKey(t.db, key)).toBeUndefined();
    expect(await authenticateApiKey(t.db, "pok_not-a-key")).toBeUndefined();
  });

  it("a renamed business is what the next API call of any of its keys sees", async () => {
    const created = await createMerchantWithOwner(t.db, signUp());
    if (!created.ok) throw new Error("setup");
    const { merchant } = created.value;
    const { key } = await createApiKey(t.db, { merchantId: merchant.id, name: "CI" });
    expect((await authenticateApiKey(t.db, key))?.merchant.name).toBe("Ada Ltd");
    const viewer = await findViewer(t.db, created.value.user.id);
    await renameMerchant(t.db, viewer!, "Ada Trading");
    expect((await authenticateApiKey(t.db, key))?.merchant.name).toBe("Ada Trading");
  });

  it("does not let one merchant revoke another's key", async () => {
    const a = await createMerchantWithOwner(t.db, signUp());
    const b = await createMerchantWithOwner(t.db, signUp());
    if (!a.ok || !b.ok) throw new Error("setup");
    const { key, summary } = await createApiKey(t.db, { merchantId: a.value.merchant.id, name: "A" });
    expect(await revokeApiKey(t.db, b.value.merchant.id, summary.id)).toBe(false);
    expect(await authenticateApiKey(t.db, key)).toBeDefined();
  });
});

describe("team", () => {
  it("adds a support member, keeps the last owner, and removes members of its own merchant only", async () => {
    const created = await createMerchantWithOwner(t.db, signUp());
    if (!created.ok) throw new Error("setup");
    const owner = (await findViewer(t.db, created.value.user.id))!;
    const added = await addTeamMember(t.db, owner.merchant.id, {
      name: "Sam Support",
      email: `${unique("sam")}@example.com`,
      role: "support",
      password: "support-pass-99",
    });
    if (!added.ok) throw new Error("setup");
    expect((await listMembers(t.db, owner.merchant.id)).map((m) => m.role)).toEqual(["owner", "support"]);
    const demote = await changeMemberRole(t.db, owner, owner.user.id, "support");
    expect(demote.ok).toBe(false);
    const other = await createMerchantWithOwner(t.db, signUp());
    if (!other.ok) throw new Error("setup");
    const stranger = (await findViewer(t.db, other.value.user.id))!;
    expect((await removeMember(t.db, stranger, added.value.id)).ok).toBe(false);
    expect((await removeMember(t.db, owner, added.value.id)).ok).toBe(true);
    expect(await listMembers(t.db, owner.merchant.id)).toHaveLength(1);
  });
});

describe("two owners changing roles at once", () => {
  it("never lets two owners demote each other at once and leave the merchant without one", async () => {
    const m = await invoiceMerchant(t.db);
    const [first] = await t.db.select().from(users).where(eq(users.merchantId, m.merchantId));
    const second = await addTeamMember(t.db, m.merchantId, { name: "Two", email: `${unique("two")}@example.com`, role: "owner", password: "owner-pass-123" });
    if (!second.ok) throw new Error("setup");
    const viewerA = (await findViewer(t.db, first!.id))!;
    const viewerB = (await findViewer(t.db, second.value.id))!;
    const results = await Promise.all([changeMemberRole(t.db, viewerA, first!.id, "support"), changeMemberRole(t.db, viewerB, second.value.id, "support")]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    const roles = (await t.db.select({ role: users.role }).from(users).where(eq(users.merchantId, m.merchantId))).map((r) => r.role);
    expect(roles).toContain("owner");
  });
});
