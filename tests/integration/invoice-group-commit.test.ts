import { and, eq, inArray, sql } from "drizzle-orm";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { POST as POST_PAYMENT } from "@/app/api/commerce/payment-invoices/route";
import { resetRateLimits } from "@/lib/api/rate-limit";
import { invoices, invoiceStatusHistory } from "@/lib/db/schema";
import { logger } from "@/lib/logger";
import { PAYMENT_EXAMPLES } from "@/tests/fixtures/invoices";
import { setUpTestDb } from "./helpers/db";
import { bodyFor, connect, invoiceMerchant, newReference, type InvoiceMerchant } from "./helpers/invoice-fixtures";
import { send } from "./helpers/send";

/**
 * Group commit (lib/invoices/create/group-commit.ts): creates that arrive together are written in
 * one statement. Whatever lands in which batch, each answer must match what is stored: one 201 per
 * reference (the invoice stored, with the body that got the 201), 200 with that invoice for the
 * same body again, 409 for another body; one history row per stored invoice.
 */
const t = setUpTestDb();
const EUR = PAYMENT_EXAMPLES["B: EUR with customer"];
const PAYMENTS = "/api/commerce/payment-invoices";

type Created = { id: string; attributes: { reference_id: string; amount: string | number } };

let m: InvoiceMerchant;
beforeAll(async () => {
  m = await invoiceMerchant(t.db);
  await connect(t.db, m.merchantId, "provider-b", "h2h");
});

beforeEach(() => {
  vi.spyOn(logger, "info").mockImplementation(() => {});
});
afterEach(() => vi.restoreAllMocks());

describe("concurrent creates through the invoice API", () => {
  it("answers every create of a burst of new, repeated and conflicting references as the table stores it", async () => {
    resetRateLimits();
    const references = Array.from({ length: 40 }, () => newReference());
    // Each reference once with amount 10; the first 15 again with the same body, the next 10 with
    // another amount; all sent at once in a shuffled order, so replays and conflicts share batches.
    const sends: { reference: string; amount: string }[] = references.map((reference) => ({ reference, amount: "10.00" }));
    for (const reference of references.slice(0, 15)) sends.push({ reference, amount: "10.00" });
    for (const reference of references.slice(15, 25)) sends.push({ reference, amount: "11.00" });
    for (let i = sends.length - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1));
      [sends[i], sends[j]] = [sends[j]!, sends[i]!];
    }
    const answers = await Promise.all(
      sends.map(async (sent) => ({
        sent,
        answer: await send<Created>(
          POST_PAYMENT,
          {},
          {
            method: "POST",
            path: PAYMENTS,
            key: m.key,
            body: bodyFor(EUR, m.account, { reference_id: sent.reference, amount: sent.amount }),
          },
        ),
      })),
    );

    const stored = await t.db
      .select({ id: invoices.id, referenceId: invoices.referenceId, amount: invoices.amount })
      .from(invoices)
      .where(and(eq(invoices.merchantId, m.merchantId), inArray(invoices.referenceId, references)));
    expect(stored).toHaveLength(references.length);
    const byReference = new Map(stored.map((row) => [row.referenceId, row]));
    const history = await t.db
      .select({ invoiceId: invoiceStatusHistory.invoiceId, reason: invoiceStatusHistory.reason })
      .from(invoiceStatusHistory)
      .where(
        inArray(
          invoiceStatusHistory.invoiceId,
          stored.map((row) => row.id),
        ),
      );
    expect(history.map((entry) => entry.invoiceId).sort()).toEqual(stored.map((row) => row.id).sort());
    expect(history.every((entry) => entry.reason === "created")).toBe(true);

    const createdPer = new Map<string, number>();
    for (const { sent, answer } of answers) {
      const row = byReference.get(sent.reference)!;
      const sameBody = Number(row.amount) === Number(sent.amount);
      if (answer.status === 201) createdPer.set(sent.reference, (createdPer.get(sent.reference) ?? 0) + 1);
      // A 201 or a 200 names the stored invoice and was sent with its body; a 409 was not.
      if (answer.status === 201 || answer.status === 200) {
        expect({ reference: sent.reference, id: answer.json.data.id, sameBody }).toEqual({ reference: sent.reference, id: row.id, sameBody: true });
      } else {
        expect({ reference: sent.reference, status: answer.status, sameBody }).toEqual({ reference: sent.reference, status: 409, sameBody: false });
      }
    }
    expect([...createdPer.values()].every((count) => count === 1) && createdPer.size === references.length).toBe(true);
    // Same body twice: the other answer is the replay, never a 409.
    const statuses = (reference: string) =>
      answers
        .filter((entry) => entry.sent.reference === reference)
        .map((entry) => entry.answer.status)
        .sort();
    for (const reference of references.slice(0, 15)) expect(statuses(reference)).toEqual([200, 201]);
    for (const reference of references.slice(15, 25)) expect(statuses(reference)).toEqual([201, 409]);
  });

  it("stores each invoice of a burst as a lone create stores it: SQL nulls, its own lifetime, its history's request id", async () => {
    resetRateLimits();
    const bare = PAYMENT_EXAMPLES["B: EUR without customer"];
    const sent = Array.from({ length: 12 }, (_, i) => ({ reference: newReference(), lifetime: i % 2 ? 600 + i : undefined }));
    const answers = await Promise.all(
      sent.map((entry) =>
        send<Created>(
          POST_PAYMENT,
          {},
          {
            method: "POST",
            path: PAYMENTS,
            key: m.key,
            body: bodyFor(bare, m.account, { reference_id: entry.reference, lifetime: entry.lifetime }),
          },
        ),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(sent.map(() => 201));
    const rows = await t.db.execute(sql`
      select i.reference_id, i.customer is null as no_customer, i.gateway_options is null as no_gateway_options,
             i.service_fields is null as no_service_fields, extract(epoch from i.expires_at - i.created_at)::int as lifetime,
             h.request_id is not distinct from i.request_id as history_request_id, i.request_id is not null as has_request_id
        from invoices i join invoice_status_history h on h.invoice_id = i.id
       where i.merchant_id = ${m.merchantId} and i.reference_id in ${sent.map((entry) => entry.reference)}`);
    const list = (Array.isArray(rows) ? rows : (rows as { rows: unknown[] }).rows) as Record<string, unknown>[];
    expect(list.map((row) => ({ ...row })).sort((a, b) => String(a.reference_id).localeCompare(String(b.reference_id)))).toEqual(
      sent
        .map((entry) => ({
          reference_id: entry.reference,
          no_customer: true,
          no_gateway_options: true,
          no_service_fields: true,
          lifetime: entry.lifetime ?? 1800,
          history_request_id: true,
          has_request_id: true,
        }))
        .sort((a, b) => a.reference_id.localeCompare(b.reference_id)),
    );
  });
});
