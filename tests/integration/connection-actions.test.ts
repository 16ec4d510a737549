import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

/** The session cookie is next-auth's business; here `auth()` answers with whoever the test signs in. */
const session = vi.hoisted(() => ({ userId: undefined as string | undefined }));
vi.mock("@/lib/auth", () => ({
  auth: async () => (session.userId ? { user: { id: session.userId } } : null),
}));
// Outside a Next request there is no page cache to revalidate.
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));

import { createConnectionAction, updateConnectionAction } from "@/lib/actions/connections";
import { getConnection } from "@/lib/connections/queries";
import { setUpTestDb, unique } from "./helpers/db";
import { createAttributes } from "./helpers/connection-fixtures";
import { teamMerchant, type InvoiceMerchant } from "./helpers/invoice-fixtures";

/** The edit form's server action: the same editConnection as PATCH /api/connections/:id, behind validatedAction. */
const t = setUpTestDb();
let m: InvoiceMerchant;
let ownerId: string;
let supportId: string;

beforeAll(async () => {
  ({ ownerId, supportId, ...m } = await teamMerchant(t.db));
});
beforeEach(() => {
  session.userId = undefined;
});

async function createAsOwner(): Promise<string> {
  session.userId = ownerId;
  const created = await createConnectionAction(createAttributes("provider-c", "h2h"));
  if (!created.ok) throw new Error(`setup: ${JSON.stringify(created)}`);
  return created.data.id;
}

describe("updateConnectionAction", () => {
  it("saves an owner's edit and answers with the id", async () => {
    const id = await createAsOwner();
    const label = unique("Edited");
    expect(await updateConnectionAction({ id, label })).toEqual({ ok: true, data: { id } });
    expect((await getConnection(t.db, m.merchantId, id))!.label).toBe(label);
  });

  it("refuses a different provider or kind on their fields, with the other field errors", async () => {
    const id = await createAsOwner();
    const refused = await updateConnectionAction({ id, provider: "provider-b", kind: "provider_account", label: "" });
    expect(refused.ok).toBe(false);
    const fieldErrors = refused.ok ? {} : refused.fieldErrors;
    expect(Object.keys(fieldErrors).sort()).toEqual(["kind", "label", "provider"]);
    expect(fieldErrors.provider).toContain("create a new connection");
    expect(await updateConnectionAction({ id, provider: "provider-c", kind: "h2h", label: unique("Same") })).toMatchObject({ ok: true });
  });

  it("answers an unknown id, a missing id, another role and no session with a message or a field error", async () => {
    const id = await createAsOwner();
    expect(await updateConnectionAction({ id: "conn_unknown", label: "x" })).toMatchObject({
      ok: false,
      message: "This connection does not exist or was deleted.",
    });
    expect(await updateConnectionAction({ label: "x" })).toMatchObject({ ok: false, fieldErrors: { id: expect.any(String) } });
    session.userId = supportId;
    expect(await updateConnectionAction({ id, label: "x" })).toMatchObject({
      ok: false,
      message: "Your role (Support) may not connect providers and change their credentials.",
    });
    session.userId = undefined;
    expect(await updateConnectionAction({ id, label: "x" })).toMatchObject({ ok: false, message: "Your session has ended. Sign in again." });
  });
});
