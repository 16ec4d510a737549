import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { createInvoice } from "@/lib/invoices/create/create-invoice";
import { payoutExample } from "@/tests/fixtures/invoices";
import { loadCredentialsKey } from "@/lib/vault";
import { setUpTestDb } from "./helpers/db";
import { bodyFor, connect, invoiceMerchant, newReference, type InvoiceMerchant } from "./helpers/invoice-fixtures";

/**
 * The card fingerprint inside a request hash is keyed by the credentials key, so a key rotation
 * changes it: a retry sent before the rotation and again after it must still be a replay while the
 * old key is in CREDENTIALS_KEY_PREVIOUS (docs/deploy.md "Rotating the credentials key").
 */
const t = setUpTestDb();
const keyA = randomBytes(32);
const keyB = randomBytes(32);
const load = (env: Record<string, string>) => loadCredentialsKey({ env, dataDir: "/nonexistent", embedded: false });
const underA = load({ CREDENTIALS_KEY: keyA.toString("base64") });
const rotated = load({ CREDENTIALS_KEY: keyB.toString("base64"), CREDENTIALS_KEY_PREVIOUS: keyA.toString("base64") });
const afterRotation = load({ CREDENTIALS_KEY: keyB.toString("base64") });

let m: InvoiceMerchant;
beforeAll(async () => {
  m = await invoiceMerchant(t.db);
  await connect(t.db, m.merchantId, "provider-a", "h2h");
});

const payout = (reference: string, card = "4111111111111111") =>
  bodyFor(payoutExample(), m.account, { reference_id: reference, fields: { card_number: card } });

describe("idempotent replays across a credentials key rotation", () => {
  it("a card request created under A replays under B while A is a previous key, and another card still conflicts", async () => {
    const reference = newReference();
    const first = await createInvoice(t.db, m.merchant, "payout", payout(reference), { secretKey: () => underA });
    expect(first.kind).toBe("created");
    const retry = await createInvoice(t.db, m.merchant, "payout", payout(reference), { secretKey: () => rotated });
    expect(retry).toMatchObject({ kind: "replayed", invoice: { id: first.kind === "created" ? first.invoice.id : "" } });
    const other = await createInvoice(t.db, m.merchant, "payout", payout(reference, "5555555555554444"), { secretKey: () => rotated });
    expect(other.kind).toBe("conflict");
  });

  it("once A is dropped, the pre-rotation hash no longer matches: the guide says to keep A for the retry window", async () => {
    const reference = newReference();
    expect((await createInvoice(t.db, m.merchant, "payout", payout(reference), { secretKey: () => underA })).kind).toBe("created");
    expect((await createInvoice(t.db, m.merchant, "payout", payout(reference), { secretKey: () => afterRotation })).kind).toBe("conflict");
  });
});
