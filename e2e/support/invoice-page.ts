import { expect, type Browser, type Locator } from "@playwright/test";
import { signIn } from "./accounts";

export type ExpectedAttempt = {
  label: string;
  providerName: string;
  /** The words the page uses for the attempt's status, e.g. "Succeeded" or "Declined". */
  status: string;
  resolution: string;
};

/**
 * Signs in as the merchant's owner in a fresh
 * browser context, opens the invoice page and checks its one attempt, including the sandbox's own
 * record of what it received. Returns the attempt for further checks; call `close` afterwards.
 */
export async function openInvoiceAttempt(
  browser: Browser,
  owner: { email: string; password: string },
  invoiceId: string,
  expected: ExpectedAttempt,
): Promise<{ attempt: Locator; close: () => Promise<void> }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, owner.email, owner.password);
  await expect(page.getByRole("heading", { level: 1, name: "Home" })).toBeVisible();
  await page.goto(`/invoices/${invoiceId}`);
  const attempt = page.getByTestId("invoice-attempt");
  await expect(attempt).toHaveCount(1);
  await expect(attempt).toContainText("Attempt 1");
  await expect(attempt).toContainText(expected.label);
  await expect(attempt.getByText(expected.status, { exact: true })).toBeVisible();
  await expect(attempt.getByText(expected.resolution, { exact: true })).toBeVisible();
  const received = attempt.getByTestId("sandbox-record");
  await expect(received).toContainText(`What the ${expected.providerName} sandbox received`);
  await received.getByText(`What the ${expected.providerName} sandbox received`).click();
  await expect(received).toContainText("Recorded request");
  return { attempt, close: () => context.close() };
}
