import type { Role } from "../../lib/db/schema";
import { expect, type Browser, type Page } from "@playwright/test";
import { waitForHydration } from "./dev-server";

/**
 * E-mail in the browser tests: the e2e server has no SMTP_URL and MAIL_OUTBOX_PAGE=1
 * (playwright.config.ts), `next dev` serves the outbox by default, so a test reads its link from
 * /outbox as the operator would. Returns the link's path, to open on the test's own base URL.
 */
export async function linkFromOutbox(page: Page, email: string, kind: "invite" | "reset-password" | "sign-up/confirm", timeout = 15_000): Promise<string> {
  let href: string | null = null;
  // A reset e-mail is stored just after the form answers (it never waits for mail): look again until it is there.
  await expect(async () => {
    await page.goto("/outbox", { timeout });
    const message = page
      .getByTestId("outbox-message")
      .filter({ has: page.getByTestId("outbox-to").getByText(email, { exact: true }) })
      .first();
    href = await message.locator(`a[href*="/${kind}/"]`).getAttribute("href", { timeout: 1_000 });
  }).toPass({ timeout });
  return new URL(href!).pathname;
}

export type Invitee = { name: string; email: string; role: Role };

/** The owner invites on the Team page; the invitee opens the e-mailed link in their own browser, chooses a password and lands on Home, signed in. */
export async function inviteMember(owner: Page, browser: Browser, member: Invitee, password: string, timeout = 15_000): Promise<void> {
  await owner.goto("/team", { timeout });
  // Under next dev a form submits natively until hydrated; in production this returns at once.
  await waitForHydration(owner, 'form[aria-label="Invite a member"]');
  await owner.getByLabel("Name").fill(member.name);
  await owner.getByLabel("E-mail").fill(member.email);
  await owner.locator("#member-role").selectOption(member.role);
  await owner.getByRole("button", { name: "Send invitation", exact: true }).click();
  await expect(owner.getByText(`Invitation sent to ${member.email}.`)).toBeVisible({ timeout });
  await expect(owner.getByTestId("pending-invite").filter({ hasText: member.email })).toBeVisible({ timeout });

  const context = await browser.newContext({ baseURL: new URL(owner.url()).origin });
  const page = await context.newPage();
  await page.goto(await linkFromOutbox(page, member.email, "invite", timeout), { timeout });
  await waitForHydration(page, "main form");
  await page.getByLabel(/^New password/).fill(password);
  await page.getByLabel(/^Confirm new password/).fill(password);
  await page.getByRole("button", { name: "Set password and join" }).click();
  await expect(page.getByTestId("viewer-name")).toHaveText(member.name, { timeout });
  await context.close();
}
