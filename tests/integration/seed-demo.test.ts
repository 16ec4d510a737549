import { and, eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { seedDemo } from "@/lib/admin/seed-demo";
import { refunds, invoices, users } from "@/lib/db/schema";
import { verifyPassword } from "@/lib/identity/password";
import { logger } from "@/lib/logger";
import { setUpTestDb, unique } from "./helpers/db";
import { sessionEmail, signInOverHttp } from "./helpers/sign-in-http";

/**
 * Seed-demo's function against the test database, the sandboxes served by
 * the seed itself. Each test seeds its own e-mail and commerce account (the PostgreSQL pass shares
 * one database), through the same code the command runs for demo@example.com.
 */
const t = setUpTestDb();
beforeEach(() => {
  vi.spyOn(logger, "info").mockImplementation(() => {});
});
afterEach(() => vi.restoreAllMocks());

async function passwordHashOf(email: string): Promise<string> {
  const [row] = await t.db.select({ hash: users.passwordHash }).from(users).where(eq(users.email, email));
  return row!.hash;
}

async function statusesOf(merchantId: string) {
  const rows = await t.db
    .select({ referenceId: invoices.referenceId, status: invoices.status, direction: invoices.direction })
    .from(invoices)
    .where(eq(invoices.merchantId, merchantId));
  return Object.fromEntries(rows.map((row) => [row.referenceId, row.status]));
}

describe("seed-demo", () => {
  it("creates sample invoices in several states, adds none on a second run, and --reset changes the password", async () => {
    const account = unique("demo");
    const email = `${account}@example.com`;
    const previousAppUrl = process.env.APP_URL;

    const first = await seedDemo(t.db, { email, commerceAccount: account });
    expect(process.env.APP_URL).toBe(previousAppUrl);
    const merchantId = first.merchantId as string;
    const expected = {
      "demo-processed-1": "processed",
      "demo-refunded-1": "refunded",
      "demo-partially-refunded-1": "partially_refunded",
      "demo-declined-1": "process_failed",
      "demo-created-1": "created",
      "demo-3ds-1": "process_pending",
      "demo-payout-1": "processed",
    };
    expect(await statusesOf(merchantId)).toEqual(expected);
    const listed = first.invoices as { referenceId: string; status: string; created: boolean; provider: string; hostedPage?: string }[];
    expect(listed.every((entry) => entry.created)).toBe(true);
    expect(new Set(listed.map((entry) => entry.provider)).size).toBeGreaterThanOrEqual(3);
    const unpaid = listed.find((entry) => entry.referenceId === "demo-created-1")!;
    expect(unpaid.hostedPage).toMatch(/\/pay\/cpi_/);
    expect(first.summary).toContain(email);
    expect(JSON.stringify(first)).not.toContain("4242424242424242");
    const [declined] = await t.db
      .select({ resolution: invoices.resolution })
      .from(invoices)
      .where(and(eq(invoices.merchantId, merchantId), eq(invoices.referenceId, "demo-declined-1")));
    expect(declined!.resolution).toBe("issuer_decline");

    const oldPassword = first.password as string;
    expect(await verifyPassword(oldPassword, await passwordHashOf(email))).toBe(true);

    await expect(seedDemo(t.db, { email, commerceAccount: account })).rejects.toThrow(/exists already.*seed-demo --reset/);
    expect(await verifyPassword(oldPassword, await passwordHashOf(email))).toBe(true);

    const second = await seedDemo(t.db, { email, commerceAccount: account, reset: true });
    const newPassword = second.password as string;
    expect(newPassword).not.toBe(oldPassword);
    expect(second.merchantId).toBe(merchantId);
    const hash = await passwordHashOf(email);
    expect(await verifyPassword(oldPassword, hash)).toBe(false);
    expect(await verifyPassword(newPassword, hash)).toBe(true);
    expect((second.invoices as { created: boolean }[]).some((entry) => entry.created)).toBe(false);
    const rows = await t.db.select({ id: invoices.id }).from(invoices).where(eq(invoices.merchantId, merchantId));
    expect(rows).toHaveLength(7);
    expect(await statusesOf(merchantId)).toEqual(expected);
    // The refunds were not made twice either: one for the refunded sample, one for the partial one.
    const made = await t.db.select({ amount: refunds.amount, status: refunds.status }).from(refunds).where(eq(refunds.merchantId, merchantId));
    expect(made.map((row) => `${row.amount} ${row.status}`).sort()).toEqual(["10.00 succeeded", "100.50 succeeded"]);
  });

  it("--reset ends every session signed in with the old password; the new password signs in", async () => {
    const account = unique("demo");
    const email = `${account}@example.com`;
    const first = await seedDemo(t.db, { email, commerceAccount: account });
    const before = await signInOverHttp(email, first.password as string, "192.0.2.10");
    expect(before.outcome).toBe("signed-in");
    expect(await sessionEmail(before.cookie!)).toBe(email);

    const second = await seedDemo(t.db, { email, commerceAccount: account, reset: true });
    expect(await sessionEmail(before.cookie!)).toBeNull();
    const after = await signInOverHttp(email, second.password as string, "192.0.2.10");
    expect(after.outcome).toBe("signed-in");
    expect(await sessionEmail(after.cookie!)).toBe(email);
  }, 120_000);
});
