import { describe, expect, it } from "vitest";
import {
  findRecordByIdempotencyKey,
  findRecordByReference,
  listRecordsByReferences,
  listRecordsForConnection,
  saveRecord,
  updateRecord,
} from "@/lib/sandbox/records";
import { completeThreeDs, THREE_DS_PENDING_STATUS, THREE_DS_REQUIRED } from "@/lib/sandbox/three-ds";
import { setUpTestDb, unique } from "./helpers/db";

const t = setUpTestDb();
const FULL = "4242424242424242";

function record(overrides: Record<string, unknown> = {}) {
  return {
    provider: "provider-b",
    connectionId: unique("conn"),
    operation: "payment",
    reference: unique("ref"),
    idempotencyKey: unique("idem"),
    amountMinor: 1000n,
    currency: "USD",
    status: "succeeded",
    ...overrides,
  };
}

describe("sandbox records", () => {
  it("saves and finds a record by reference and by idempotency key", async () => {
    const saved = await saveRecord(t.db, record());
    expect(await findRecordByReference(t.db, "provider-b", saved.reference)).toEqual(saved);
    expect(await findRecordByIdempotencyKey(t.db, "provider-b", saved.connectionId!, saved.idempotencyKey!)).toEqual(saved);
    expect(await findRecordByIdempotencyKey(t.db, "provider-b", unique("conn"), saved.idempotencyKey!)).toBeUndefined();
    expect(await findRecordByReference(t.db, "provider-c", saved.reference)).toBeUndefined();
  });

  it("returns the account's first record for a repeated idempotency key instead of a second payment; another account's key is its own", async () => {
    const connectionId = unique("conn");
    const key = unique("same-key");
    const first = await saveRecord(t.db, record({ connectionId, idempotencyKey: key }));
    const again = await saveRecord(t.db, record({ connectionId, idempotencyKey: key, amountMinor: 5n }));
    expect(again).toEqual(first);
    const other = await saveRecord(t.db, record({ idempotencyKey: key, amountMinor: 5n }));
    expect(other).toMatchObject({ amountMinor: 5n, idempotencyKey: key });
    expect(other.id).not.toBe(first.id);
    expect(await findRecordByIdempotencyKey(t.db, "provider-b", connectionId, key)).toEqual(first);
  });

  it("never stores a full card number, in details, request or response", async () => {
    const saved = await saveRecord(
      t.db,
      record({
        details: { card: FULL, tokenize: true },
        request: { pan: FULL, nested: [`card ${FULL}`], card_number: "4000000000000002", shop_password: "hunter22" },
        response: { echo: FULL },
      }),
    );
    const stored = JSON.stringify(await findRecordByReference(t.db, "provider-b", saved.reference), (_k, v) => (typeof v === "bigint" ? String(v) : v));
    expect(stored).not.toContain(FULL);
    expect(stored).not.toContain("4000000000000002");
    expect(stored).not.toContain("hunter22");
    expect(stored).toContain("424242******4242");
    expect(saved.details).toEqual({ card: "424242******4242", tokenize: true });
  });

  it("updates status, amount and details (merged), and masks card numbers in the patch", async () => {
    const saved = await saveRecord(t.db, record({ details: { a: 1, b: 2 } }));
    const updated = await updateRecord(t.db, "provider-b", saved.reference, { status: "failed", amountMinor: 750n, details: { b: 3, c: FULL } });
    expect(updated).toMatchObject({ status: "failed", amountMinor: 750n, details: { a: 1, b: 3, c: "424242******4242" } });
    expect(await updateRecord(t.db, "provider-b", unique("none"), { status: "failed" })).toBeUndefined();
  });

  it("lists records per connection and per references, oldest first", async () => {
    const connectionId = unique("conn");
    const one = await saveRecord(t.db, record({ connectionId }));
    // created_at has millisecond precision: two saves in one millisecond would tie (order then by random id).
    await new Promise((resolve) => setTimeout(resolve, 5));
    const two = await saveRecord(t.db, record({ connectionId }));
    expect((await listRecordsForConnection(t.db, connectionId)).map((r) => r.id)).toEqual([one.id, two.id]);
    expect((await listRecordsByReferences(t.db, "provider-b", [two.reference])).map((r) => r.id)).toEqual([two.id]);
    expect(await listRecordsByReferences(t.db, "provider-b", [])).toEqual([]);
  });
});

describe("completeThreeDs", () => {
  it("a pass succeeds the waiting record, once", async () => {
    const saved = await saveRecord(t.db, record({ status: THREE_DS_PENDING_STATUS, details: { ...THREE_DS_REQUIRED } }));
    const done = await completeThreeDs(t.db, "provider-b", saved.reference, "pass");
    expect(done).toMatchObject({ kind: "completed", record: { status: "succeeded", details: { threeDs: "passed" } } });
    const again = await completeThreeDs(t.db, "provider-b", saved.reference, "fail");
    expect(again).toMatchObject({ kind: "already_answered", record: { status: "succeeded" } });
  });

  it("a fail marks the record failed with auth_3ds_failed", async () => {
    const saved = await saveRecord(t.db, record({ status: THREE_DS_PENDING_STATUS, details: { ...THREE_DS_REQUIRED } }));
    const done = await completeThreeDs(t.db, "provider-b", saved.reference, "fail");
    expect(done).toMatchObject({ kind: "completed", record: { status: "failed", details: { threeDs: "failed", resolution: "auth_3ds_failed" } } });
  });

  it("refuses records that never asked for 3-D Secure and unknown references", async () => {
    const saved = await saveRecord(t.db, record());
    expect(await completeThreeDs(t.db, "provider-b", saved.reference, "pass")).toMatchObject({ kind: "already_answered", record: { status: "succeeded" } });
    expect(await completeThreeDs(t.db, "provider-b", unique("none"), "pass")).toEqual({ kind: "not_found" });
  });
});
