import { expect, test, type APIRequestContext, type Browser, type Page } from "@playwright/test";
import { PROVIDERS } from "../lib/providers";
import { sampleCredentials } from "../lib/providers/server/sample-credentials";
import type { ConnectionKind, Mode } from "../lib/providers/types";
import { listTemplates } from "../lib/composer/templates";
import { createApiKey, signIn, signUp } from "./support/accounts";
import { expectNoSeriousViolations } from "./support/axe";
import { inviteMember } from "./support/mail";
import { liveControl } from "./support/forms-on-use";
import { screenshot } from "./support/screenshots";

/** The invoice composer, end to end in a browser. */
// One setup (owner, connections, support member) shared in order; a failed test does not skip the others.
test.describe.configure({ mode: "default" });

type Setup = { owner: Page; support: Page; commerceAccount: string };
let setup: Setup;

const SUPPORT_PASSWORD = "support-pass-99";
/** Provider A's address constants, which the preview shows as the customer's "constant" values. */
const SANDBOX_CONSTANTS: Record<string, Record<string, string>> = {
  "provider-a": { COUNTRY: "UA", CITY: "Kyiv", STREET: "Khreshchatyk St 1" },
};

async function createConnection(
  request: APIRequestContext,
  apiKey: string,
  input: { provider: string; kind: ConnectionKind; label: string; mode?: Mode; constants?: Record<string, string> },
) {
  const mode = input.mode ?? "test";
  const attributes = {
    provider: input.provider,
    kind: input.kind,
    label: input.label,
    mode,
    credentials: sampleCredentials(input.provider, input.kind, mode),
    ...(input.constants ? { constants: input.constants } : {}),
  };
  const response = await request.post("/api/connections", {
    headers: { Authorization: `Bearer ${apiKey}`, "Content-Type": "application/vnd.api+json" },
    data: { data: { type: "connection", attributes } },
  });
  expect(response.status(), await response.text()).toBe(201);
}

async function addSupportMember(owner: Page, browser: Browser): Promise<string> {
  const email = `support-${Date.now()}-${Math.random().toString(16).slice(2, 8)}@example.com`;
  await inviteMember(owner, browser, { name: "Sam Support", email, role: "support" }, SUPPORT_PASSWORD);
  return email;
}

async function prepare(browser: Browser, request: APIRequestContext): Promise<Setup> {
  const owner = await (await browser.newContext({ viewport: { width: 1440, height: 1000 } })).newPage();
  const account = await signUp(owner);
  const apiKey = await createApiKey(owner);
  // A test connection of every provider, so every template has somewhere to go; one live one for owners.
  for (const provider of PROVIDERS) {
    const kind = provider.kinds[0]!.kind;
    await createConnection(request, apiKey, { provider: provider.slug, kind, label: `${provider.name} sandbox`, constants: SANDBOX_CONSTANTS[provider.slug] });
  }
  // A live connection needs a live key: a key manages its own mode's connections only.
  await createConnection(request, await createApiKey(owner, "e2e live", { mode: "live" }), {
    provider: "provider-a",
    kind: "provider_account",
    label: "Provider A live",
    mode: "live",
  });
  const email = await addSupportMember(owner, browser);
  const support = await (await browser.newContext()).newPage();
  await signIn(support, email, SUPPORT_PASSWORD);
  await expect(support).toHaveURL(/\/home$/);
  return { owner, support, commerceAccount: account.commerceAccount };
}

test.beforeAll(async ({ browser, playwright }) => {
  test.setTimeout(120_000);
  const request = await playwright.request.newContext({ baseURL: test.info().project.use.baseURL });
  setup = await prepare(browser, request);
  await request.dispose();
});

const templateButton = (page: Page, label: string) => page.getByRole("button", { name: new RegExp(`^${label} payment_card`) });
const send = (page: Page) => page.getByRole("button", { name: "Send invoice" }).click();

// One test per template: eight sends in one test would share one time limit.
for (const template of listTemplates()) {
  test(`a support member composes and sends the ${template.label} template and lands on the invoice's page`, async () => {
    const page = setup.support;
    await page.goto("/invoices/new");
    await templateButton(page, template.label).click();
    await expect(page.getByTestId("template-status")).toContainText(`Filled in from ${template.label}`);
    await expect(page.getByTestId("composer-envelope")).toContainText(`"service": "${template.service}"`);
    await expect(page.getByTestId("composer-envelope")).toContainText(`"commerce_account": "${setup.commerceAccount}"`);
    await expect(page.getByRole("switch", { name: "Test mode" })).toBeChecked();
    await send(page);
    if (template.direction === "payout") {
      // auto_process sends the money at once: the composer asks first, stating it; Escape sends nothing.
      const dialog = page.getByRole("alertdialog", { name: "Confirm the payout" });
      await expect(page.getByTestId("composer-payout-confirmation")).toHaveText(
        "Send 250.75 UAH to card 411111******1111 through Provider A sandbox (Provider A, test mode)? auto_process is on, so the payout is sent as soon as the invoice is created. If that connection fails softly, it moves on to the next one in your routing order.",
      );
      await expect(dialog.getByRole("button", { name: "Confirm payout" })).toBeFocused();
      await page.keyboard.press("Escape");
      await expect(dialog).toHaveCount(0);
      await expect(page.getByRole("button", { name: "Send invoice" })).toBeFocused();
      await expect(page.getByTestId("composer-result")).toHaveCount(0);
      await send(page);
      await screenshot(page, "composer-payout-confirm", { fullPage: true });
      await expectNoSeriousViolations(page);
      await dialog.getByRole("button", { name: "Confirm payout" }).click();
    }
    await expect(page.getByTestId("composer-status")).toHaveText("201");
    const body = JSON.parse((await page.getByTestId("composer-response").textContent()) ?? "{}");
    const id: string = body.data.id;
    expect(id).toMatch(template.direction === "payment" ? /^cpi_/ : /^cpoi_/);
    expect(body.data.attributes).toMatchObject({ service: template.service, currency: template.currency, test_mode: true });
    await page.getByRole("link", { name: "Open invoice" }).click();
    await expect(page).toHaveURL(new RegExp(`/invoices/${id}$`));
    // The detail page belongs to the invoice list/detail work; it renders <h1>Invoice {id}</h1>.
    await expect.soft(page.getByRole("heading", { level: 1 })).toContainText(id);
  });
}

test("the preview shows the exact body, a curl without credentials and the customer with each value's source", async () => {
  const page = setup.support;
  await page.goto("/invoices/new");
  // The envelope is read once, at once: the form must be live before the press (forms-on-use's subject).
  await liveControl(templateButton(page, "Provider A payment"));
  await templateButton(page, "Provider A payment").click();
  const envelope = JSON.parse((await page.getByTestId("composer-envelope").textContent()) ?? "{}");
  expect(envelope.data.attributes).toMatchObject({ service: "payment_card_uah_hpp", currency: "UAH", amount: 100, options: { allow_partially: false } });
  const curl = (await page.getByTestId("composer-curl").textContent()) ?? "";
  expect(curl).toContain('-H "Authorization: Bearer $API_KEY"');
  expect(curl).toContain("/api/commerce/payment-invoices");
  expect(curl).not.toContain("pos_");
  await expect(page.getByTestId("preview-customer.address.city")).toContainText("Kyiv");
  await expect(page.getByTestId("preview-customer.address.city")).toContainText("constant");
  await expect(page.getByTestId("preview-customer.name")).toContainText("request");

  await templateButton(page, "Provider B payment").click();
  await expect(page.getByTestId("preview-language")).toContainText("default");
  await expect(page.getByTestId("composer-envelope")).toContainText('"amount": "100.50"');
});

test("a refused input shows the API's error on the right field", async () => {
  const page = setup.support;
  await page.goto("/invoices/new");
  await liveControl(templateButton(page, "Provider B payment"));
  await templateButton(page, "Provider B payment").click();

  // The browser runs the API's own validation before sending.
  const amount = page.getByRole("textbox", { name: /^Amount/ });
  await amount.fill("1.234");
  await send(page);
  await expect(page.locator("#composer-amount-error")).toContainText(/decimal/i);
  await expect(amount).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByTestId("composer-result")).toHaveCount(0);

  // Only the server knows the reference is taken: 409 on reference_id. After a 201 the form holds a
  // fresh reference, so the test types the used one back in on purpose.
  const reference = page.getByRole("textbox", { name: /^Reference ID/ });
  const used = await reference.inputValue();
  await amount.fill("100.50");
  await send(page);
  await expect(page.getByTestId("composer-status")).toHaveText("201");
  await expect(reference).not.toHaveValue(used);
  await reference.fill(used);
  await amount.fill("200");
  await send(page);
  await expect(page.getByTestId("composer-status")).toHaveText("409");
  await expect(page.locator("#composer-reference-id-error")).toContainText("reference_id was already used");
  await expect(page.getByRole("textbox", { name: /^Reference ID/ })).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByTestId("form-alert")).toContainText("HTTP 409");
  await expect(page.getByRole("link", { name: "Open invoice" })).toHaveCount(0);
});

test("a support member cannot compose a live invoice", async () => {
  const page = setup.support;
  await page.goto("/invoices/new");
  await page.getByRole("radio", { name: /^Pin to a connection/ }).check();
  const connection = page.getByRole("combobox", { name: /^Connection/ });
  await expect(connection.locator("option", { hasText: "Provider A sandbox" })).toHaveCount(1);
  await expect(connection.locator("option", { hasText: "Provider A live" })).toHaveCount(0);
  const testMode = page.getByRole("switch", { name: "Test mode" });
  await expect(testMode).toBeChecked();
  await expect(testMode).toBeDisabled();
  await expect(page.getByText("Support members can compose test-mode invoices only")).toBeVisible();

  // Forced past the disabled switch, the server action refuses before anything reaches the API.
  await templateButton(page, "Provider E payment").click();
  await testMode.evaluate((element) => element.removeAttribute("disabled"));
  await testMode.click();
  await expect(page.getByTestId("composer-envelope")).toContainText('"test_mode": false');
  await send(page);
  await expect(page.locator("#composer-test-mode-error")).toContainText("Support members may compose test-mode invoices only");
  await expect(page.getByTestId("composer-result")).toHaveCount(0);
});

test("an owner sees live connections; the form has no serious axe violations, empty or filled in", async () => {
  const page = setup.owner;
  await page.goto("/invoices/new");
  await expectNoSeriousViolations(page);
  await page.getByRole("radio", { name: /^Pin to a connection/ }).check();
  const connection = page.getByRole("combobox", { name: /^Connection/ });
  await expect(connection.locator("option", { hasText: "Provider A live" })).toHaveCount(1);
  await templateButton(page, "Provider F payment").click();
  await expect(page.getByRole("switch", { name: "Test mode" })).toBeEnabled();
  await expectNoSeriousViolations(page);
});

test("the composer routes automatically by default, like an invoice from the API, and speaks plain words", async ({ browser }) => {
  for (const viewport of [
    { width: 1280, height: 900 },
    { width: 390, height: 844 },
  ]) {
    const context = await browser.newContext({ viewport, storageState: await setup.owner.context().storageState() });
    const page = await context.newPage();
    await page.goto("/invoices/new");
    const automatic = page.getByRole("radio", { name: /^Route automatically/ });
    await expect(automatic).toBeChecked();
    await expect(page.getByRole("radio", { name: /^Pin to a connection/ })).not.toBeChecked();
    await expect(page.getByRole("combobox", { name: /^Connection/ })).toHaveCount(0);
    // No section numbers or spec-speak anywhere on the page.
    const text = (await page.locator("body").innerText()).toLowerCase();
    expect(text).not.toMatch(/spec(ification)?\s*(section\s*)?\d|spec section|spec example|the spec\b|api type of/);

    await templateButton(page, "Provider B payment").click();
    await expect(automatic).toBeChecked();
    await expect(page.getByTestId("template-status")).toContainText(
      "Filled in from Provider B payment, routed automatically: it goes to Provider B sandbox first.",
    );
    await expect(page.getByTestId("composer-route")).toContainText("Routing sends it to Provider B sandbox (Provider B) first — First in routing order; then");
    await expect(page.getByTestId("composer-envelope")).not.toContainText("relationships");
    const label = page.getByText("Route automatically", { exact: true });
    if (viewport.width === 390) expect((await automatic.locator("xpath=ancestor::label").boundingBox())!.height).toBeGreaterThanOrEqual(44);
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, `composer-auto-${viewport.width}`, { fullPage: true });
    await expect(label).toBeVisible();
    await expectNoSeriousViolations(page);

    await send(page);
    await expect(page.getByTestId("composer-status")).toHaveText("201");
    await expect(page.getByTestId("composer-routed")).toHaveText("Routed to Provider B sandbox (Provider B) — First in routing order");
    await page.getByRole("link", { name: "Open invoice" }).click();
    await expect(page.getByTestId("invoice-routing-reason")).toContainText(/first in routing order/i);
    await expect(page.getByTestId("invoice-request")).not.toContainText("relationships");
    await context.close();
  }
});

// The same page in two more states; apart from the test above, each scan set keeps within its time limit.
test("the composer has no serious axe violations showing a field error, then a response", async () => {
  const page = setup.owner;
  await page.goto("/invoices/new");
  await templateButton(page, "Provider F payment").click();
  await page.getByRole("textbox", { name: /^Amount/ }).fill("1.234");
  await send(page);
  await expect(page.locator("#composer-amount-error")).not.toBeEmpty();
  await expectNoSeriousViolations(page);
  await page.getByRole("textbox", { name: /^Amount/ }).fill("120");
  await send(page);
  await expect(page.getByTestId("composer-status")).toHaveText("201");
  await expectNoSeriousViolations(page);
  // From the top, so the sticky preview sits beside the start of the form as a reader first sees it.
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, "composer", { fullPage: true });
});

test("an invoice can be composed and sent with the keyboard alone", async () => {
  const page = setup.owner;
  await page.goto("/invoices/new");
  await templateButton(page, "Provider C payment in AMD").focus();
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("template-status")).toContainText("Filled in from Provider C payment in AMD");
  const submit = page.getByRole("button", { name: "Send invoice" });
  // Every control of the form is on the Tab path down to the send button.
  for (let i = 0; i < 60 && !(await submit.evaluate((el) => el === document.activeElement)); i += 1) {
    await page.keyboard.press("Tab");
  }
  await expect(submit).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("composer-status")).toHaveText("201");
  await expect(page.getByRole("heading", { name: "Response" })).toBeFocused();
  await page.keyboard.press("Tab");
  const open = page.getByRole("link", { name: "Open invoice" });
  await expect(open).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/invoices\/cpi_/);
});

test("after a send the result sits beside the form at 1280 px, a fresh reference_id is filled in and a toast offers the invoice and its hosted page", async ({
  browser,
}) => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, storageState: await setup.owner.context().storageState() });
  const page = await context.newPage();
  await page.goto("/invoices/new");
  await expect(page.locator("#main").getByRole("link", { name: "API reference" })).toHaveAttribute("href", "/docs/api");
  await templateButton(page, "Provider A payment").click();
  const reference = page.getByRole("textbox", { name: /^Reference ID/ });
  const first = await reference.inputValue();
  await send(page);
  await expect(page.getByTestId("composer-status")).toHaveText("201");
  const id: string = JSON.parse((await page.getByTestId("composer-response").textContent()) ?? "{}").data.id;

  // Beside, not below: the result's left edge is right of the form's right edge, its top above the form's bottom.
  const form = (await page.getByRole("form", { name: "Compose invoice" }).boundingBox())!;
  const result = (await page.getByTestId("composer-result").boundingBox())!;
  expect(result.x).toBeGreaterThanOrEqual(form.x + form.width);
  expect(result.y).toBeLessThan(form.y + form.height);
  await expect(page.getByRole("heading", { name: "Response" })).toBeInViewport();
  await expect(page.getByRole("heading", { name: "Response" })).toBeFocused();

  // A second send is a new invoice, not a replay: the reference changed, and the panel says so.
  const second = await reference.inputValue();
  expect(second).not.toBe(first);
  expect(second).toMatch(/\S{8,}/);
  await expect(page.getByTestId("composer-reference-renewed")).toBeVisible();
  await expect(page.getByTestId("composer-envelope")).toContainText(`"reference_id": "${second}"`);

  const toast = page
    .getByTestId("toast-region")
    .getByTestId("toast")
    .filter({ hasText: `Invoice ${id} created.` });
  await expect(toast).toBeVisible();
  await screenshot(page, "composer-result-1280");
  await expectNoSeriousViolations(page);
  await expect(toast.getByRole("link", { name: "Open its hosted page" })).toHaveAttribute("href", /^\/pay\//);

  // Narrow: the answer comes after the form, so focus takes the reader to it. Sending the form as it
  // now stands makes another invoice (201, a new id), not a replay of the first (200).
  await page.setViewportSize({ width: 390, height: 844 });
  await send(page);
  await expect(page.getByTestId("composer-response")).not.toContainText(id);
  await expect(page.getByTestId("composer-status")).toHaveText("201");
  await expect(page.getByRole("heading", { name: "Response" })).toBeFocused();
  await expect(page.getByRole("heading", { name: "Response" })).toBeInViewport();
  const secondId: string = JSON.parse((await page.getByTestId("composer-response").textContent()) ?? "{}").data.id;
  // On a phone only the newest toast is drawn: the second invoice's.
  const secondToast = page
    .getByTestId("toast-region")
    .getByTestId("toast")
    .filter({ hasText: `Invoice ${secondId} created.` });
  await expect(secondToast).toBeVisible();
  await expect(toast).toBeHidden();
  await screenshot(page, "composer-result-390");

  await secondToast.getByRole("link", { name: "Open it", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/invoices/${secondId}$`));
  await context.close();
});
