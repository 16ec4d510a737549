import { expect, type Page } from "@playwright/test";

/**
 * The owner adds a webhook endpoint on the Webhooks page (all events unless `eventTypes` names
 * some) and reads its signing secret, shown this once. Returns the secret.
 */
export async function addWebhookEndpoint(page: Page, url: string, options: { description?: string; eventTypes?: string[] } = {}): Promise<string> {
  if (!/\/webhooks$/.test(new URL(page.url()).pathname)) await page.goto("/webhooks");
  const section = page.getByRole("region", { name: "Endpoints" });
  const form = section.getByRole("form", { name: "Add endpoint" });
  // "Add endpoint" is a disclosure, open while there is no endpoint yet.
  const details = section.locator("details").filter({ has: page.locator("summary", { hasText: "Add endpoint" }) });
  if (!(await details.evaluate((element) => (element as HTMLDetailsElement).open))) await details.locator("summary").click();
  await expect(form).toBeVisible();
  await form.getByLabel("Endpoint URL").fill(url);
  if (options.description) await form.getByLabel("Description").fill(options.description);
  if (options.eventTypes) {
    await form.getByRole("checkbox", { name: /^All events/ }).uncheck();
    for (const type of options.eventTypes) await form.getByRole("checkbox", { name: new RegExp(`^${type.replace(/\./g, "\\.")} `) }).check();
  }
  await form.getByRole("button", { name: "Add endpoint" }).click();
  const shown = section.getByTestId("new-webhook-secret");
  await expect(shown).toHaveText(/^whsec_[A-Za-z0-9_-]{43}$/);
  const secret = (await shown.textContent())!.trim();
  await section.getByRole("button", { name: "Done" }).click();
  await expect(shown).toHaveCount(0);
  return secret;
}
