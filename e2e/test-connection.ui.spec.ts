import { expect, test, type Page } from "@playwright/test";
import { PROVIDERS, type ConnectionKind } from "../lib/providers";
import { sampleCredentials } from "../lib/providers/server/sample-credentials";
import { createApiKey, signUp } from "./support/accounts";
import { openConnectForm, textbox, uniqueLabel } from "./support/connections";
import { sharedTest } from "./support/fixtures";

/** A test-mode connection made through the management API with the provider's sample credentials. */
async function seedConnection(page: Page, apiKey: string, provider: string, kind: ConnectionKind, credentials = sampleCredentials(provider, kind, "test")) {
  const response = await page.request.post("/api/connections", {
    headers: { Authorization: `Bearer ${apiKey}`, "Content-Type": "application/vnd.api+json" },
    data: { data: { type: "connection", attributes: { provider, kind, label: uniqueLabel(`${provider} ${kind}`), mode: "test", credentials } } },
  });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { data: { id: string } }).data.id;
}

async function testSeeded(page: Page, apiKey: string, provider: string, kind: ConnectionKind) {
  const id = await seedConnection(page, apiKey, provider, kind);
  await page.goto(`/connections/${id}`);
  await page.getByRole("button", { name: "Test connection" }).click();
  await expect(page.getByTestId("test-connection-result")).toHaveText("Reachable — credentials accepted");
  await expect(page.getByTestId("audit-trail")).toContainText("tested");
}

for (const provider of PROVIDERS) {
  for (const kind of provider.kinds) {
    const title = `Test connection on a ${provider.name} ${kind.label} in test mode: reachable, credentials accepted`;
    if (kind.onePerCurrencyAndMode) {
      // Provider D refuses a second enabled test connection in the same currency: a merchant of its own.
      test(title, async ({ page }) => {
        await signUp(page);
        await testSeeded(page, await createApiKey(page), provider.slug, kind.kind);
      });
    } else {
      // Only its own new connection matters: the worker's shared merchant (e2e/support/fixtures.ts).
      sharedTest(title, async ({ page, merchant }) => {
        await testSeeded(page, merchant.apiKey, provider.slug, kind.kind);
      });
    }
  }
}

sharedTest("New connection form: Test connection before saving refuses a wrong secret and names the fields it may be, then accepts the right one", async ({ page, merchant }) => {
  const credentials = sampleCredentials("provider-b", "h2h", "test");
  await seedConnection(page, merchant.apiKey, "provider-b", "h2h", credentials);
  const form = await openConnectForm(page, "provider-b", "H2H merchant account");
  await textbox(page, "Terminal ID").fill(String(credentials.terminal_id));
  await form.getByLabel("Secret key").fill("a-wrong-secret-value");
  await form.getByRole("button", { name: "Test connection" }).click();
  const result = form.getByTestId("test-connection-result");
  // B refuses an unknown terminal and a wrong secret alike, so both are named.
  await expect(result).toHaveText("Credentials refused — check Terminal ID and Secret key");
  await form.getByLabel("Secret key").fill(String(credentials.secret_key));
  await form.getByRole("button", { name: "Test connection" }).click();
  await expect(result).toHaveText("Reachable — credentials accepted");
  await expect(page).toHaveURL(/\/providers\/provider-b$/);
});
