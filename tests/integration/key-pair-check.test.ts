import { eq } from "drizzle-orm";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

/** The session cookie is next-auth's business; here `auth()` answers with whoever the test signs in. */
const session = vi.hoisted(() => ({ userId: undefined as string | undefined }));
vi.mock("@/lib/auth", () => ({
  auth: async () => (session.userId ? { user: { id: session.userId } } : null),
}));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));

import { POST } from "@/app/api/connections/route";
import { PATCH } from "@/app/api/connections/[id]/route";
import { createConnectionAction, updateConnectionAction } from "@/lib/actions/connections";
import { testConnectionAction, testCredentialsAction } from "@/lib/actions/test-connection";
import { findConnectionRow } from "@/lib/connections/queries";
import { revealCredentials, sealSecrets, splitCredentials } from "@/lib/connections/store";
import { credentialsKey } from "@/lib/vault/vault-key";
import { connections } from "@/lib/db/schema";
import { getKind } from "@/lib/providers";
import { generateKeyPair } from "@/lib/providers/server/generate-key-pair";
import { sampleCredentials } from "@/lib/providers/server/sample-credentials";
import { createAttributes } from "./helpers/connection-fixtures";
import { setUpTestDb, unique } from "./helpers/db";
import { teamMerchant, type TeamMerchant } from "./helpers/invoice-fixtures";
import { serveSandboxes } from "./helpers/sandbox-http";

/**
 * Provider A signs with its private key and the provider checks with the payment key, so the two
 * files are one pair: a payment key from another pair is refused at save (form and API, create and
 * edit) with a field error that says so, and Test connection names it without sending anything.
 */
const t = setUpTestDb();
serveSandboxes(() => t.db, { asAppUrl: true });
let m: TeamMerchant;
const fetched: string[] = [];

beforeAll(async () => {
  m = await teamMerchant(t.db);
});
beforeEach(() => {
  session.userId = m.ownerId;
  const realFetch = globalThis.fetch;
  vi.spyOn(globalThis, "fetch").mockImplementation((input, init) => {
    fetched.push(input instanceof Request ? input.url : String(input));
    return realFetch(input, init);
  });
});
afterEach(() => {
  vi.restoreAllMocks();
  fetched.length = 0;
});

const MESSAGE = "Payment key and Private key are not a pair: the payment key was not made from this private key";

/** Provider A credentials whose payment key belongs to another pair. */
function mismatched(kind: "provider_account" | "h2h") {
  return { ...sampleCredentials("provider-a", kind, "test"), payment_key: generateKeyPair().publicKeyPem };
}

describe("Provider A's payment key and private key are one pair", () => {
  it.each(["provider_account", "h2h"] as const)(
    "%s: the create action refuses a mismatched pair on the payment key field, and stores nothing",
    async (kind) => {
      const label = unique("A mismatched");
      const refused = await createConnectionAction(createAttributes("provider-a", kind, "test", { label, credentials: mismatched(kind) }));
      expect(refused).toMatchObject({ ok: false, fieldErrors: { "credentials.payment_key": MESSAGE } });
      const rows = await t.db.select().from(connections).where(eq(connections.merchantId, m.merchantId));
      expect(rows.map((row) => row.label)).not.toContain(label);
    },
  );

  it("the connections API refuses it with 422 at /data/attributes/credentials/payment_key; an edit replacing only the payment key too", async () => {
    const post = (attributes: unknown) =>
      POST(
        new Request("http://test/api/connections", {
          method: "POST",
          headers: { authorization: `Bearer ${m.key}`, "content-type": "application/vnd.api+json" },
          body: JSON.stringify({ data: { type: "connection", attributes } }),
        }),
        { params: Promise.resolve({}) },
      );
    const refused = await post(createAttributes("provider-a", "provider_account", "test", { credentials: mismatched("provider_account") }));
    expect(refused.status).toBe(422);
    const errors = ((await refused.json()) as { errors: { code: string; detail: string; source: { pointer: string } }[] }).errors;
    expect(errors.map((e) => [e.code, e.source.pointer, e.detail])).toEqual([["key_pair_mismatch", "/data/attributes/credentials/payment_key", MESSAGE]]);

    const good = createAttributes("provider-a", "provider_account", "test");
    const created = await post(good);
    expect(created.status).toBe(201);
    const id = ((await created.json()) as { data: { id: string } }).data.id;
    const patch = await PATCH(
      new Request(`http://test/api/connections/${id}`, {
        method: "PATCH",
        headers: { authorization: `Bearer ${m.key}`, "content-type": "application/vnd.api+json" },
        body: JSON.stringify({ data: { type: "connection", attributes: { credentials: { payment_key: generateKeyPair().publicKeyPem } } } }),
      }),
      { params: Promise.resolve({ id }) },
    );
    expect(patch.status).toBe(422);
    const patchErrors = ((await patch.json()) as { errors: { source: { pointer: string } }[] }).errors;
    expect(patchErrors.map((e) => e.source.pointer)).toEqual(["/data/attributes/credentials/payment_key"]);
    const edited = await updateConnectionAction({ id, credentials: { payment_key: generateKeyPair().publicKeyPem } });
    expect(edited).toMatchObject({ ok: false, fieldErrors: { "credentials.payment_key": MESSAGE } });
    const stored = revealCredentials((await findConnectionRow(t.db, m.merchantId, id))!, credentialsKey());
    expect(stored.payment_key).toBe(String(good.credentials.payment_key).trim());
  });

  it("Test connection before saving names the mismatched pair and sends nothing; a matching pair is accepted", async () => {
    const attributes = createAttributes("provider-a", "provider_account", "test", { credentials: mismatched("provider_account") });
    expect(await testCredentialsAction(attributes)).toEqual({
      ok: true,
      data: { kind: "credentials_refused", message: `Credentials refused — ${MESSAGE}`, field: "payment_key" },
    });
    expect(fetched).toEqual([]);
    expect(await testCredentialsAction(createAttributes("provider-a", "provider_account", "test"))).toMatchObject({
      ok: true,
      data: { kind: expect.any(String) },
    });
    expect(fetched.length).toBeGreaterThan(0);
  });

  it("Test connection on a connection saved with a mismatched pair before this check names it and sends nothing", async () => {
    const created = await createConnectionAction(createAttributes("provider-a", "provider_account", "test"));
    const id = created.ok ? created.data.id : "";
    const kind = getKind("provider-a", "provider_account")!;
    const { publicCredentials, secrets } = splitCredentials(kind, mismatched("provider_account"));
    await t.db
      .update(connections)
      .set({ publicCredentials, ...sealSecrets(secrets, credentialsKey()) })
      .where(eq(connections.id, id));
    fetched.length = 0;
    expect(await testConnectionAction({ id })).toEqual({
      ok: true,
      data: { kind: "credentials_refused", message: `Credentials refused — ${MESSAGE}`, field: "payment_key" },
    });
    expect(fetched).toEqual([]);
  });
});
