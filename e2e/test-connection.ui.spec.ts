import { expect, test, type Page } from "@playwright/test";
import { PROVIDERS, type ConnectionKind } from "../lib/providers";
import { sampleCredentials } from "../lib/providers/server/sample-credentials";
import { randomBytes } from "node:crypto";
import { UNSAVED_CHECKED } from "../lib/actions/test-connection-message";
import { createApiKey, signUp } from "./support/accounts";
import { expectNoSeriousViolations } from "./support/axe";
import { openConnectForm, textbox, uniqueLabel } from "./support/connections";
import { sharedTest } from "./support/fixtures";
import { screenshot } from "./support/screenshots";

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

sharedTest(
  "New connection form: Test connection before saving checks the typed credentials in the sandbox and says they are not saved yet; saved, the connection's own Test accepts them",
  async ({ page }) => {
    const credentials = sampleCredentials("provider-b", "h2h", "test");
    const terminal = `TERM-${randomBytes(4).toString("hex")}`;
    const form = await openConnectForm(page, "provider-b", "H2H merchant account");
    await textbox(page, "Terminal ID").fill(terminal);
    await form.getByLabel("Secret key").fill(String(credentials.secret_key));
    await form.getByRole("button", { name: "Test connection" }).click();
    // No sandbox account has this terminal yet: the sandbox checked the request made with what was typed.
    await expect(form.getByTestId("test-connection-result")).toHaveText("Reachable — the sandbox accepted these credentials (not saved yet)");
    await expect(form.getByTestId("test-connection-detail")).toHaveText(UNSAVED_CHECKED.test);
    await expectNoSeriousViolations(page);
    await screenshot(form, "test-before-save-accepted");
    const label = uniqueLabel("B before save");
    await textbox(page, "Label").fill(label);
    await form.getByRole("button", { name: "Save connection" }).click();
    await expect(page).toHaveURL(/\/connections\/conn_/);
    // Saved as tested, the audit trail says so: what was saved passed the test.
    await expect(page.getByTestId("audit-trail")).toContainText("ok, before saving");
    await page.getByRole("button", { name: "Test connection" }).click();
    await expect(page.getByTestId("test-connection-result")).toHaveText("Reachable — credentials accepted");
  },
);

sharedTest("New connection form: after an empty Test marks the fields, filling them and pressing Test once sends it", async ({ page }) => {
  const form = await openConnectForm(page, "provider-b", "H2H merchant account");
  const result = form.getByTestId("test-connection-result");
  await form.getByRole("button", { name: "Test connection" }).click();
  await expect(result).toHaveText("Please correct the marked fields.");
  await expect(textbox(page, "Terminal ID")).toHaveAttribute("aria-invalid", "true");
  await expect(form.getByLabel("Secret key")).toHaveAttribute("aria-invalid", "true");
  await screenshot(form, "test-before-save-empty");
  // Typed in, the marks go as the fields are fixed, not on the next press (which would move the button under the pointer).
  await textbox(page, "Terminal ID").fill(`TERM-${randomBytes(4).toString("hex")}`);
  await form.getByLabel("Secret key").fill(randomBytes(24).toString("base64url"));
  await expect(form.getByLabel("Secret key")).not.toHaveAttribute("aria-invalid", "true");
  await expect(textbox(page, "Terminal ID")).not.toHaveAttribute("aria-invalid", "true");
  // One press as a person makes it: the button is held down a moment before it is let go.
  await form.getByRole("button", { name: "Test connection" }).click({ delay: 150 });
  await expect(result).toHaveText("Reachable — the sandbox accepted these credentials (not saved yet)");
  await expectNoSeriousViolations(page);
});
