import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

/** The session cookie is next-auth's business; here `auth()` answers with whoever the test signs in. */
const session = vi.hoisted(() => ({ userId: undefined as string | undefined }));
vi.mock("@/lib/auth", () => ({
  auth: async () => (session.userId ? { user: { id: session.userId } } : null),
}));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));

import { createConnectionAction } from "@/lib/actions/connections";
import { testConnectionAction, testCredentialsAction } from "@/lib/actions/test-connection";
import { UNSAVED_CHECKED } from "@/lib/actions/test-connection-message";
import { createConnectionSchema } from "@/lib/connections/schemas";
import { RECEIPT_TTL_MS, testReceipt } from "@/lib/connections/test-receipt";
import { getSetupChecklist } from "@/lib/dashboard/home";
import { checkConnectionHealth } from "@/lib/processing/connection-test";
import { getProviderServer } from "@/lib/providers/server/servers";
import { mintUnsavedAccountToken, UNSAVED_ACCOUNT_HEADER } from "@/lib/sandbox/unsaved-account";
import { auditLog, connections } from "@/lib/db/schema";
import { generateKeyPair } from "@/lib/providers/server/generate-key-pair";
import { sampleCredentials } from "@/lib/providers/server/sample-credentials";
import { PROVIDER_KINDS, createAttributes, kindSpec } from "./helpers/connection-fixtures";
import { setUpTestDb } from "./helpers/db";
import { teamMerchant } from "./helpers/invoice-fixtures";
import { adapterContext, closedPortUrl, createTestConnection, serveSandboxes } from "./helpers/sandbox-http";

/** Test connection: the connection page's button and the New connection form's, through their server actions. */
const t = setUpTestDb();
const sandbox = serveSandboxes(() => t.db, { asAppUrl: true });
let ownerId: string;
let supportId: string;

beforeAll(async () => {
  ({ ownerId, supportId } = await teamMerchant(t.db));
});
beforeEach(() => {
  session.userId = ownerId;
});

async function connectionMerchant(id: string): Promise<string | undefined> {
  const [row] = await t.db.select({ merchantId: connections.merchantId }).from(connections).where(eq(connections.id, id));
  return row?.merchantId;
}

async function createConnection(provider: string, kind: "provider_account" | "h2h", credentials = sampleCredentials(provider, kind, "test")) {
  const created = await createConnectionAction(createAttributes(provider, kind, "test", { credentials }));
  if (!created.ok) throw new Error(`setup: ${JSON.stringify(created)}`);
  return created.data.id;
}

describe("testConnectionAction", () => {
  it.each(PROVIDER_KINDS.map(([provider, kind]) => [provider, kind]))("%s %s: reachable, credentials accepted", async (provider, kind) => {
    const id = await createConnection(provider, kind);
    expect(await testConnectionAction({ id })).toEqual({ ok: true, data: { kind: "ok", message: "Reachable — credentials accepted" } });
    const audit = await t.db.select().from(auditLog).where(eq(auditLog.targetId, id));
    expect(audit.map((entry) => entry.action)).toContain("connection.tested");
  });

  it("unreachable when nothing answers at the sandbox's address", async () => {
    const id = await createConnection("provider-c", "h2h");
    process.env.APP_URL = await closedPortUrl();
    try {
      const result = await testConnectionAction({ id });
      expect(result).toMatchObject({ ok: true, data: { kind: "unreachable", message: expect.stringMatching(/^Unreachable — /) } });
    } finally {
      process.env.APP_URL = sandbox.origin;
    }
  });

  it("support members and strangers' ids are refused", async () => {
    const id = await createConnection("provider-b", "h2h");
    session.userId = supportId;
    expect(await testConnectionAction({ id })).toMatchObject({ ok: false });
    session.userId = ownerId;
    expect(await testConnectionAction({ id: "conn_nope" })).toMatchObject({ ok: false, message: "This connection does not exist or was deleted." });
  });
});

describe("testCredentialsAction (the New connection form, before saving)", () => {
  const ACCEPTED = {
    kind: "ok",
    message: "Reachable — the sandbox accepted these credentials (not saved yet)",
    detail: UNSAVED_CHECKED.test,
    receipt: expect.stringMatching(/^\d{13}\.[\w-]{43}$/),
  };

  it.each(PROVIDER_KINDS.map(([provider, kind]) => [provider, kind]))(
    "%s %s: typed values no sandbox account has yet are accepted, saying they are not saved and what was checked; once saved, the saved connection is",
    async (provider, kind) => {
      const credentials = sampleCredentials(provider, kind, "test");
      expect(await testCredentialsAction({ provider, kind, label: "", mode: "test", credentials })).toEqual({ ok: true, data: ACCEPTED });
      // Provider D allows one enabled connection per currency and mode: another merchant's.
      const { connectionId } = await createTestConnection(t.db, provider, kind, credentials);
      expect(await checkConnectionHealth(t.db, (await connectionMerchant(connectionId))!, connectionId)).toMatchObject({ kind: "ok" });
    },
  );

  it("tells nothing about saved accounts: a saved terminal's ID with a wrong secret gets the very answer its right secret gets", async () => {
    for (const [provider, kind, secret] of [
      ["provider-b", "h2h", "secret_key"],
      ["provider-c", "h2h", "shop_password"],
    ] as const) {
      const credentials = sampleCredentials(provider, kind, "test");
      await createConnection(provider, kind, credentials);
      const right = await testCredentialsAction({ provider, kind, mode: "test", credentials });
      const wrong = await testCredentialsAction({
        provider,
        kind,
        mode: "test",
        credentials: { ...credentials, [secret]: `a-wrong-secret-${randomBytes(6).toString("hex")}` },
      });
      expect(right).toEqual({ ok: true, data: ACCEPTED });
      // Each passed test has its own receipt (of the values it passed); the answers are otherwise the same.
      expect(wrong).toEqual({ ok: true, data: ACCEPTED });
      expect(receiptOf(wrong)).not.toBe(receiptOf(right));
    }
  });

  /** Another value of the kind's first secret credential: a key of another pair, or a random token with the same prefix. */
  function anotherSecret(provider: string, kind: "provider_account" | "h2h", credentials: Record<string, unknown>) {
    const secret = kindSpec(provider, kind).fields.find((field) => field.secret && typeof credentials[field.id] === "string")!;
    const stored = String(credentials[secret.id]);
    const other = stored.includes("-----BEGIN")
      ? generateKeyPair().privateKeyPem
      : stored.replace(/^((?:dev|prod)_sec_)?.*$/, (_all, prefix: string | undefined) => `${prefix ?? ""}${randomBytes(24).toString("base64url")}`);
    return { ...credentials, [secret.id]: other };
  }

  it.each(PROVIDER_KINDS.map(([provider, kind]) => [provider, kind]))(
    "%s %s: the sandbox really checks the request against the typed values: one made with another secret, or naming another ID, is refused with its one refusal",
    async (provider, kind) => {
      const credentials = sampleCredentials(provider, kind, "test");
      const adapter = getProviderServer(provider)!.adapter;
      const check = (used: Record<string, unknown>, token: string | undefined) =>
        adapter.healthCheck({
          ...adapterContext(`${sandbox.origin}/sandbox/${provider}`, provider, kind, used as never),
          ...(token ? { unsavedAccountToken: token } : {}),
        });
      const token = mintUnsavedAccountToken(provider, credentials);
      expect(await check(credentials, token)).toMatchObject({ kind: "ok" });
      expect(await check(anotherSecret(provider, kind, credentials), token)).toMatchObject({ kind: "credentials_refused" });
      // The public ID the provider knows the account by comes first among the credentials it refuses together.
      const idField = kindSpec(provider, kind).refusedTogether![0]!;
      expect(kindSpec(provider, kind).fields.find((field) => field.id === idField)).toMatchObject({ secret: false });
      expect(await check({ ...credentials, [idField]: `${String(credentials[idField])}X` }, token)).toMatchObject({ kind: "credentials_refused" });
    },
  );

  it("a saved account's own credentials with a forged, expired or other provider's token are refused: with the header, saved accounts are never looked at", async () => {
    const credentials = sampleCredentials("provider-b", "h2h", "test");
    await createConnection("provider-b", "h2h", credentials);
    const adapter = getProviderServer("provider-b")!.adapter;
    const check = (token?: string) =>
      adapter.healthCheck({
        ...adapterContext(`${sandbox.origin}/sandbox/provider-b`, "provider-b", "h2h", credentials),
        ...(token === undefined ? {} : { unsavedAccountToken: token }),
      });
    expect(await check()).toMatchObject({ kind: "ok" });
    for (const token of [
      "v2.forged.token",
      mintUnsavedAccountToken("provider-b", credentials, Date.now() - 61_000),
      mintUnsavedAccountToken("provider-c", credentials),
    ]) {
      expect(await check(token)).toMatchObject({ kind: "credentials_refused" });
    }
  });

  it("the token carrying the typed values is never written into the exchange log", async () => {
    const credentials = sampleCredentials("provider-f", "h2h", "test");
    const context = {
      ...adapterContext(`${sandbox.origin}/sandbox/provider-f`, "provider-f", "h2h", credentials),
      unsavedAccountToken: mintUnsavedAccountToken("provider-f", credentials),
    };
    expect(await getProviderServer("provider-f")!.adapter.healthCheck(context)).toMatchObject({ kind: "ok" });
    const logged = JSON.stringify(context.exchanges.list());
    expect(context.exchanges.list().length).toBeGreaterThan(0);
    expect(logged).not.toContain(UNSAVED_ACCOUNT_HEADER);
    expect(logged).not.toContain(context.unsavedAccountToken);
  });

  it("Provider A: a private key of another pair is named as no pair before anything is sent", async () => {
    const credentials = sampleCredentials("provider-a", "provider_account", "test");
    expect(
      await testCredentialsAction({
        provider: "provider-a",
        kind: "provider_account",
        mode: "test",
        credentials: { ...credentials, private_key: generateKeyPair().privateKeyPem },
      }),
    ).toMatchObject({
      ok: true,
      data: {
        message: "Credentials refused — Payment key and Private key are not a pair: the payment key was not made from this private key",
        field: "payment_key",
      },
    });
  });

  it("form values the schema refuses come back as field errors", async () => {
    const result = await testCredentialsAction({ provider: "provider-b", kind: "h2h", mode: "test", credentials: { currency: "EUR" } });
    expect(result).toMatchObject({ ok: false, fieldErrors: { "credentials.terminal_id": expect.any(String) } });
  });
});

const receiptOf = (result: Awaited<ReturnType<typeof testCredentialsAction>>) => (result.ok ? result.data.receipt : undefined);

describe("Test connection before saving, then Save", () => {
  async function testedStep(merchantId: string) {
    return (await getSetupChecklist(t.db, merchantId)).tested;
  }

  async function testedEntries(id: string) {
    return (await t.db.select().from(auditLog).where(eq(auditLog.targetId, id)))
      .filter((entry) => entry.action === "connection.tested")
      .map((entry) => entry.changes);
  }

  /** A merchant of its own, so the checklist's step starts to do. */
  async function freshOwner() {
    const { ownerId: owner, merchantId } = await teamMerchant(t.db);
    session.userId = owner;
    expect(await testedStep(merchantId)).toBe(false);
    return { merchantId, owner };
  }

  it("saving exactly the values a Test passed counts the connection as tested: the audit trail says before saving and the setup checklist ticks", async () => {
    const { merchantId } = await freshOwner();
    const attributes = createAttributes("provider-b", "h2h");
    const receipt = receiptOf(await testCredentialsAction({ ...attributes, label: "" }));
    expect(receipt).toBeDefined();
    const created = await createConnectionAction({ ...attributes, test_receipt: receipt });
    if (!created.ok) throw new Error(JSON.stringify(created));
    expect(await testedEntries(created.data.id)).toEqual([["ok", "before saving"]]);
    expect(await testedStep(merchantId)).toBe(true);
  });

  it("values changed after the Test, a refused Test, a forged, expired or other merchant's receipt: saved, but not tested", async () => {
    const { merchantId, owner } = await freshOwner();
    const attributes = createAttributes("provider-b", "h2h");
    const passed = receiptOf(await testCredentialsAction(attributes))!;
    const [expiresAt, mac] = passed.split(".");
    const otherMerchant = await teamMerchant(t.db);
    session.userId = otherMerchant.ownerId;
    const othersReceipt = receiptOf(await testCredentialsAction(attributes))!;
    session.userId = owner;
    // A refused test (Provider A's keys of two pairs) answers no receipt at all.
    const refused = await testCredentialsAction({
      ...createAttributes("provider-a", "provider_account"),
      credentials: { ...sampleCredentials("provider-a", "provider_account", "test"), private_key: generateKeyPair().privateKeyPem },
    });
    expect(refused).toMatchObject({ ok: true, data: { kind: "credentials_refused" } });
    expect(receiptOf(refused)).toBeUndefined();

    const cases: { how: string; attributes: ReturnType<typeof createAttributes>; receipt: string }[] = [
      {
        how: "another secret typed after the Test",
        attributes: { ...attributes, credentials: { ...attributes.credentials, secret_key: randomBytes(18).toString("base64url") } },
        receipt: passed,
      },
      { how: "the other mode", attributes: { ...attributes, mode: "live", credentials: sampleCredentials("provider-b", "h2h", "live") }, receipt: passed },
      { how: "a forged MAC", attributes, receipt: `${expiresAt}.${randomBytes(32).toString("base64url")}` },
      { how: "a later expiry on the same MAC", attributes, receipt: `${Number(expiresAt) + 1}.${mac}` },
      { how: "another merchant's receipt for the same values", attributes, receipt: othersReceipt },
      { how: "not a receipt", attributes, receipt: "constructor" },
    ];
    for (const { how, attributes: saved, receipt } of cases) {
      const created = await createConnectionAction({ ...saved, label: `${how} ${randomBytes(3).toString("hex")}`, test_receipt: receipt });
      if (!created.ok) throw new Error(`${how}: ${JSON.stringify(created)}`);
      expect(await testedEntries(created.data.id), how).toEqual([]);
    }
    expect(await testedStep(merchantId)).toBe(false);
  });

  it("a receipt from more than half an hour ago no longer counts", async () => {
    const { merchantId } = await freshOwner();
    const attributes = createAttributes("provider-c", "h2h");
    const parsed = createConnectionSchema.parse(attributes);
    const stale = testReceipt(merchantId, parsed, Date.now() - RECEIPT_TTL_MS - 1_000);
    const fresh = testReceipt(merchantId, parsed);
    const old = await createConnectionAction({ ...attributes, test_receipt: stale });
    if (!old.ok) throw new Error(JSON.stringify(old));
    expect(await testedEntries(old.data.id)).toEqual([]);
    const now = await createConnectionAction({ ...attributes, label: `${attributes.label} again`, test_receipt: fresh });
    if (!now.ok) throw new Error(JSON.stringify(now));
    expect(await testedEntries(now.data.id)).toEqual([["ok", "before saving"]]);
  });

  it("a receipt that is not text is a field error, and nothing is saved", async () => {
    await freshOwner();
    const attributes = createAttributes("provider-b", "h2h");
    const result = await createConnectionAction({ ...attributes, test_receipt: 42 });
    expect(result).toMatchObject({ ok: false, fieldErrors: { test_receipt: expect.any(String) } });
    expect(await t.db.select().from(connections).where(eq(connections.label, attributes.label))).toEqual([]);
  });
});
