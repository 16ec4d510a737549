import { describe, expect, it, vi } from "vitest";

vi.mock("next/headers", () => ({
  headers: async () => new Headers({ host: "localhost:3000", "x-forwarded-for": "192.0.2.91" }),
  cookies: async () => ({ getAll: () => [], get: () => undefined, set: () => undefined, delete: () => undefined }),
}));

import { and, eq, like } from "drizzle-orm";
import { generate } from "otplib";
import { auditLog } from "@/lib/db/schema";
import { findUserByEmail, findViewer } from "@/lib/identity/membership";
import { confirmEnrolment, startEnrolment } from "@/lib/identity/mfa/service";
import { createMerchantWithOwner } from "@/lib/merchants/queries";
import { setUpTestDb, unique } from "./helpers/db";
import { postCredentials, signInOverHttp } from "./helpers/sign-in-http";

/**
 * Sign-ins in the merchant's audit log, through next-auth's own routes (the real authorize
 * callback): a success, a wrong password for a known e-mail (in that person's merchant), the second
 * factor's success and failure. Never the password or the code typed.
 */
const t = setUpTestDb();
const PASSWORD = "owner-pass-1234";

async function owner() {
  const account = unique("signin");
  const email = `${account}@example.com`;
  const created = await createMerchantWithOwner(t.db, { email, password: PASSWORD, name: "Ines Owner", merchantName: "Shop", commerceAccount: account });
  if (!created.ok) throw new Error(JSON.stringify(created.problems));
  const user = (await findUserByEmail(t.db, email))!;
  return { email, user };
}

const signInRows = (merchantId: string) =>
  t.db
    .select({ action: auditLog.action, actorId: auditLog.actorId, actorLabel: auditLog.actorLabel, summary: auditLog.summary })
    .from(auditLog)
    .where(and(eq(auditLog.merchantId, merchantId), like(auditLog.action, "%sign%")))
    .orderBy(auditLog.createdAt, auditLog.id);

describe("sign-ins in the audit log", () => {
  it("a wrong password for a known e-mail, then the right one, are recorded to that person's merchant with the address; the password never", async () => {
    const { email, user } = await owner();
    const address = "203.0.113.40";
    expect((await signInOverHttp(email, "wrong-password-1", address)).outcome).toBe("credentials");
    expect((await signInOverHttp(email, PASSWORD, address)).outcome).toBe("signed-in");
    const rows = await signInRows(user.merchantId);
    expect(rows).toEqual([
      { action: "auth.sign_in_failed", actorId: user.id, actorLabel: `Ines Owner <${email}>`, summary: `from ${address}` },
      { action: "auth.signed_in", actorId: user.id, actorLabel: `Ines Owner <${email}>`, summary: `with password, from ${address}` },
    ]);
    expect(JSON.stringify(rows)).not.toContain("wrong-password-1");
  });

  it("an unknown e-mail belongs to no merchant: nothing is recorded anywhere", async () => {
    const email = `${unique("nobody")}@example.com`;
    expect((await signInOverHttp(email, "whatever-pass-1", "203.0.113.41")).outcome).toBe("credentials");
    expect(
      await t.db
        .select()
        .from(auditLog)
        .where(like(auditLog.actorLabel, `%${email}%`)),
    ).toEqual([]);
  });

  it("with two-factor on: the password step alone records nothing, a wrong code and then the right one are recorded", async () => {
    const { email, user } = await owner();
    const viewer = (await findViewer(t.db, user.id))!;
    const started = await startEnrolment(t.db, viewer, PASSWORD);
    if (!started.ok) throw new Error("setup: start");
    const now = Math.floor(Date.now() / 1000);
    const confirmed = await confirmEnrolment(t.db, viewer, { password: PASSWORD, code: await generate({ secret: started.value.secret, epoch: now - 30 }) });
    if (!confirmed.ok) throw new Error("setup: confirm");
    const address = "203.0.113.42";
    const first = await signInOverHttp(email, PASSWORD, address);
    const challenge = first.outcome.slice("second_factor:".length);
    expect(await signInRows(user.merchantId)).toEqual([]);
    const right = await generate({ secret: started.value.secret, epoch: now });
    expect((await postCredentials({ challenge, code: right === "123456" ? "654321" : "123456" }, address)).outcome).toBe("wrong_second_factor");
    expect((await postCredentials({ challenge, code: right }, address)).outcome).toBe("signed-in");
    expect((await signInRows(user.merchantId)).map((row) => [row.action, row.summary])).toEqual([
      ["mfa.sign_in_failed", `from ${address}`],
      ["auth.signed_in", `with password and two-factor code, from ${address}`],
    ]);
  });
});
