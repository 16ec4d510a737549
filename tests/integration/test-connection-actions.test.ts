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
import { connectionAudit } from "@/lib/db/schema";
import { generateKeyPair } from "@/lib/providers/server/generate-key-pair";
import { sampleCredentials } from "@/lib/providers/server/sample-credentials";
import { PROVIDER_KINDS, createAttributes, kindSpec } from "./helpers/connection-fixtures";
import { setUpTestDb, unique } from "./helpers/db";
import { teamMerchant } from "./helpers/invoice-fixtures";
import { closedPortUrl, createTestConnection, serveSandboxes } from "./helpers/sandbox-http";

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

async function createConnection(provider: string, kind: "provider_account" | "h2h", credentials = sampleCredentials(provider, kind, "test")) {
  const created = await createConnectionAction(createAttributes(provider, kind, "test", { credentials }));
  if (!created.ok) throw new Error(`setup: ${JSON.stringify(created)}`);
  return created.data.id;
}

describe("testConnectionAction", () => {
  it.each(PROVIDER_KINDS.map(([provider, kind]) => [provider, kind]))("%s %s: reachable, credentials accepted", async (provider, kind) => {
    const id = await createConnection(provider, kind);
    expect(await testConnectionAction({ id })).toEqual({ ok: true, data: { kind: "ok", message: "Reachable — credentials accepted" } });
    const audit = await t.db.select().from(connectionAudit).where(eq(connectionAudit.connectionId, id));
    expect(audit.map((entry) => entry.action)).toContain("tested");
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
  it("accepts the typed values of a known sandbox account, without a label", async () => {
    const credentials = sampleCredentials("provider-b", "h2h", "test");
    await createConnection("provider-b", "h2h", credentials);
    const result = await testCredentialsAction({ provider: "provider-b", kind: "h2h", label: "", mode: "test", credentials });
    expect(result).toEqual({ ok: true, data: { kind: "ok", message: "Reachable — credentials accepted" } });
  });

  it.each([
    // Every sandbox refuses an unknown account and a wrong secret alike, so both are named.
    ["provider-b", "h2h", { secret_key: "a-wrong-secret-1234" }, "Credentials refused — check Terminal ID and Secret key"],
    ["provider-b", "h2h", { terminal_id: unique("TERM") }, "Credentials refused — check Terminal ID and Secret key"],
    ["provider-c", "provider_account", { shop_password: "a-wrong-password" }, "Credentials refused — check Shop login and Shop password"],
    ["provider-c", "h2h", { shop_login: unique("nobody") }, "Credentials refused — check Shop login and Shop password"],
  ] as const)("%s %s with a wrong credential: refused, naming the fields it may be", async (provider, kind, wrong, message) => {
    const credentials = sampleCredentials(provider, kind, "test");
    await createConnection(provider, kind, credentials);
    const result = await testCredentialsAction({ provider, kind, mode: "test", credentials: { ...credentials, ...wrong } });
    expect(result).toMatchObject({ ok: true, data: { kind: "credentials_refused", message } });
  });

  it("Provider A: an unknown merchant ID is refused naming the merchant ID and private key together; another private key is named as no pair", async () => {
    const credentials = sampleCredentials("provider-a", "provider_account", "test");
    await createConnection("provider-a", "provider_account", credentials);
    const test = (changes: Record<string, unknown>) =>
      testCredentialsAction({ provider: "provider-a", kind: "provider_account", mode: "test", credentials: { ...credentials, ...changes } });
    expect(await test({ merchant_id: unique("A") })).toMatchObject({ ok: true, data: { message: "Credentials refused — check Merchant ID and Private key" } });
    expect(await test({ private_key: generateKeyPair().privateKeyPem })).toMatchObject({
      ok: true,
      data: { message: "Credentials refused — Payment key and Private key are not a pair: the payment key was not made from this private key", field: "payment_key" },
    });
  });

  it.each(PROVIDER_KINDS.map(([provider, kind]) => [provider, kind]))("%s %s with another secret: credentials refused", async (provider, kind) => {
    // Another merchant's sandbox account: Provider D allows one enabled connection per currency and mode.
    const { credentials } = await createTestConnection(t.db, provider, kind);
    const secret = kindSpec(provider, kind).fields.find((field) => field.secret && typeof credentials[field.id] === "string")!;
    const stored = String(credentials[secret.id]);
    const other = stored.includes("-----BEGIN")
      ? generateKeyPair().privateKeyPem
      : stored.replace(/^((?:dev|prod)_sec_)?.*$/, (_all, prefix: string | undefined) => `${prefix ?? ""}${randomBytes(24).toString("base64url")}`);
    const result = await testCredentialsAction({ provider, kind, mode: "test", credentials: { ...credentials, [secret.id]: other } });
    // A private key of another pair is named as such before anything is sent (Providers A and E).
    const refusal = stored.includes("-----BEGIN") ? /^Credentials refused — .+ are not a pair: / : /^Credentials refused — check /;
    expect(result).toMatchObject({ ok: true, data: { kind: "credentials_refused", message: expect.stringMatching(refusal) } });
  });

  it("form values the schema refuses come back as field errors", async () => {
    const result = await testCredentialsAction({ provider: "provider-b", kind: "h2h", mode: "test", credentials: { currency: "EUR" } });
    expect(result).toMatchObject({ ok: false, fieldErrors: { "credentials.terminal_id": expect.any(String) } });
  });
});
