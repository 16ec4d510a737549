import { sql } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

// The worker's expiry sweep every second here (5 by default), read when its module loads.
vi.hoisted(() => {
  process.env.EXPIRY_SWEEP_SECONDS = "1";
});
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));

import * as paymentRoute from "@/app/api/commerce/payment-invoices/route";
import { findTemplate, templateEnvelope } from "@/lib/composer/templates";
import { credentialsKey } from "@/lib/vault/vault-key";
import { invoices } from "@/lib/db/schema";
import { getStatusHistory } from "@/lib/invoices/status";
import { getBoss, startJobWorkers, stopJobs } from "@/lib/jobs/queue";
import { logger } from "@/lib/logger";
import { expireOverdueInvoicesSweep } from "@/lib/processing/tasks/invoice-expire";
import { setUpTestDb } from "./helpers/db";
import { setUpFakeProvider } from "./helpers/fake-provider";
import { connect, newReference, teamMerchant, type TeamMerchant } from "./helpers/invoice-fixtures";
import { listScheduledJobs } from "./helpers/jobs";
import { send } from "./helpers/send";

/**
 * Expiry without a job per invoice: a create writes its invoice and nothing in the job queue (so a
 * queue that is down or slow cannot hold a create up or lose an expiry), and each worker process's
 * expiry sweep expires overdue invoices within seconds of their expires_at.
 */
const t = setUpTestDb();
setUpFakeProvider({ replace: ["provider-a"], providerZ: true });

beforeEach(() => {
  vi.spyOn(logger, "info").mockImplementation(() => {});
});
afterEach(async () => {
  vi.restoreAllMocks();
  await stopJobs(t.db);
});

type Resource = { id: string; attributes: Record<string, unknown> };

async function merchant(): Promise<TeamMerchant> {
  const m = await teamMerchant(t.db);
  await connect(t.db, m.merchantId, "provider-z", "h2h", { vaultKey: credentialsKey() });
  return m;
}

function createPayment(m: TeamMerchant, lifetime: number) {
  const body = templateEnvelope(findTemplate("z-payment")!, { commerceAccount: m.account, referenceId: newReference() }) as {
    data: { attributes: Record<string, unknown> };
  };
  body.data.attributes.options = {};
  body.data.attributes.lifetime = lifetime;
  return send<Resource>(paymentRoute.POST, {}, { method: "POST", path: "/api/commerce/payment-invoices", key: m.key, body });
}

async function statusesOf(ids: string[]): Promise<string[]> {
  const rows = await t.db
    .select({ status: invoices.status })
    .from(invoices)
    .where(
      sql`${invoices.id} in (${sql.join(
        ids.map((id) => sql`${id}`),
        sql`, `,
      )})`,
    );
  return rows.map((row) => row.status);
}

describe("expiry sweep", () => {
  it("invoices created together with the job queue down all answer 201, queue nothing, and the worker's sweep expires them once overdue", async () => {
    const m = await merchant();
    const boss = await getBoss(t.db);
    const insert = vi.spyOn(boss, "insert").mockRejectedValue(new Error("queue unavailable"));
    const sendJob = vi.spyOn(boss, "send").mockRejectedValue(new Error("queue unavailable"));
    const created = await Promise.all(Array.from({ length: 12 }, () => createPayment(m, 600)));
    expect(created.map((answer) => answer.status)).toEqual(Array(12).fill(201));
    expect(insert).not.toHaveBeenCalled();
    expect(sendJob).not.toHaveBeenCalled();
    vi.restoreAllMocks();
    vi.spyOn(logger, "info").mockImplementation(() => {});
    const ids = created.map((answer) => answer.json.data.id);
    for (const id of ids.slice(0, 3)) expect(await listScheduledJobs(t.db, id)).toEqual([]);

    await startJobWorkers(t.db, [], [expireOverdueInvoicesSweep]);
    // Within their lifetime: the sweep leaves them.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(new Set(await statusesOf(ids))).toEqual(new Set(["created"]));

    await t.db
      .update(invoices)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(
        sql`${invoices.id} in (${sql.join(
          ids.map((id) => sql`${id}`),
          sql`, `,
        )})`,
      );
    await expect.poll(() => statusesOf(ids), { timeout: 5_000, interval: 200 }).toEqual(Array(12).fill("expired"));
    const history = await getStatusHistory(t.db, ids[0]!);
    expect(history.at(-1)).toMatchObject({ fromStatus: "created", toStatus: "expired", resolution: "expired", reason: "lifetime ended (sweep)" });
  });
});
