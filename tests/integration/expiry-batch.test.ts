import { sql } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));

import * as paymentRoute from "@/app/api/commerce/payment-invoices/route";
import { findTemplate, templateEnvelope } from "@/lib/composer/templates";
import { credentialsKey } from "@/lib/connections/vault-key";
import { invoices } from "@/lib/db/schema";
import { getBoss } from "@/lib/jobs/queue";
import { logger } from "@/lib/logger";
import { expireOverdueInvoices } from "@/lib/processing/tasks/invoice-expire";
import { setUpTestDb } from "./helpers/db";
import { setUpFakeProvider } from "./helpers/fake-provider";
import { connect, newReference, teamMerchant, type TeamMerchant } from "./helpers/invoice-fixtures";
import { listScheduledJobs } from "./helpers/jobs";
import { send } from "./helpers/send";

/**
 * Issue 14 "API under load": the expiry jobs of invoices created together are queued together
 * (one statement for the lot, lib/jobs/queue.ts JobBatcher), and each create still answers only
 * once its own job is stored. A batch that cannot be stored loses no invoice: the creations answer
 * 201 and the sweep expires them when they are due.
 */
const t = setUpTestDb();
setUpFakeProvider({ replace: ["provider-a"], providerZ: true });

beforeEach(() => {
  vi.spyOn(logger, "info").mockImplementation(() => {});
});
afterEach(() => vi.restoreAllMocks());

type Resource = { id: string; attributes: Record<string, unknown> };

async function merchant(): Promise<TeamMerchant> {
  const m = await teamMerchant(t.db);
  await connect(t.db, m.merchantId, "provider-z", "h2h", { vaultKey: credentialsKey() });
  return m;
}

function createPayment(m: TeamMerchant, lifetime: number) {
  const body = templateEnvelope(findTemplate("z-payment")!, { commerceAccount: m.account, referenceId: newReference() }) as { data: { attributes: Record<string, unknown> } };
  body.data.attributes.options = {};
  body.data.attributes.lifetime = lifetime;
  return send<Resource>(paymentRoute.POST, {}, { method: "POST", path: "/api/commerce/payment-invoices", key: m.key, body });
}

describe("expiry jobs of invoices created together", () => {
  it("are each stored, once, at the invoice's own expires_at, before its create answers", async () => {
    const m = await merchant();
    const boss = await getBoss(t.db);
    const insert = vi.spyOn(boss, "insert");
    const created = await Promise.all(Array.from({ length: 12 }, (_, n) => createPayment(m, 60 + n)));
    for (const answer of created) {
      expect(answer.status).toBe(201);
      const jobs = (await listScheduledJobs(t.db, answer.json.data.id)).filter((job) => job.name === "invoice-expire");
      expect(jobs).toHaveLength(1);
      expect(jobs[0]!.startAfter.toISOString()).toBe(answer.json.data.attributes.expires_at);
    }
    // Fewer statements than invoices: creations that arrived while one insert ran shared the next.
    expect(insert.mock.calls.length).toBeGreaterThan(0);
    expect(insert.mock.calls.length).toBeLessThan(created.length);
    expect(insert.mock.calls.flatMap(([jobs]) => jobs).length).toBe(created.length);
  });

  it("a batch that cannot be stored still answers 201, logs it, and the sweep expires the invoices when due", async () => {
    const m = await merchant();
    const boss = await getBoss(t.db);
    vi.spyOn(boss, "insert").mockRejectedValue(new Error("queue unavailable"));
    const error = vi.spyOn(logger, "error").mockImplementation(() => {});
    const created = await Promise.all([createPayment(m, 60), createPayment(m, 60)]);
    expect(created.map((answer) => answer.status)).toEqual([201, 201]);
    const ids = created.map((answer) => answer.json.data.id);
    for (const id of ids) expect(await listScheduledJobs(t.db, id)).toEqual([]);
    expect(error.mock.calls.filter(([message]) => message === "invoice expiry not queued").map(([, fields]) => fields?.invoiceId).sort()).toEqual([...ids].sort());

    await t.db.update(invoices).set({ expiresAt: sql`now() - interval '1 second'` }).where(sql`${invoices.id} in (${sql.join(ids.map((id) => sql`${id}`), sql`, `)})`);
    expect(await expireOverdueInvoices(t.db, { merchantId: m.merchantId })).toBe(2);
  });
});
