import { randomBytes } from "node:crypto";
import { expect, test, type Page } from "@playwright/test";
import { PAYMENT_EXAMPLES } from "../tests/fixtures/invoices";
import { createApiKey, signUp } from "./support/accounts";
import { expectNoSeriousViolations } from "./support/axe";
import { connectByApi as connect, apiHeaders as headers } from "./support/connections";
import { screenshot } from "./support/screenshots";

/**
 * Routing rules on the Routing page, with the keyboard alone, at desktop and phone widths: an owner
 * builds a rule (conditions and a cascade), saves it, asks the simulator where an invoice would
 * go, and the invoice the API then creates says the same on its page.
 */
test.describe.configure({ mode: "serial" });

const eurList = (page: Page) => page.locator('[data-testid="routing-order"][data-order-id="payment_card_eur_hpp:test"]');

/** Focus, then keys only: what a keyboard user does after tabbing to the control. */
async function typeInto(page: Page, name: string | RegExp, text: string, scope = page.locator("body")) {
  await scope.getByLabel(name, { exact: typeof name === "string" }).focus();
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.type(text);
}

for (const [width, height, name] of [
  [1280, 900, "desktop"],
  [390, 844, "phone"],
] as const) {
  test(`an owner builds a rule, simulates an invoice and sees the invoice say why, keyboard only (${name})`, async ({ browser, request }) => {
    test.setTimeout(180_000);
    const page = await (await browser.newContext({ viewport: { width, height } })).newPage();
    const account = await signUp(page);
    const apiKey = await createApiKey(page);
    const run = randomBytes(3).toString("hex");
    const labels = { b: `B main ${run}`, f: `F France ${run}` };
    const ids = { b: await connect(request, apiKey, "provider-b", "h2h", labels.b), f: await connect(request, apiKey, "provider-f", "h2h", labels.f) };

    await page.goto("/routing");
    const list = eurList(page);
    await expect(list.getByTestId("routing-rules")).toContainText("No rules: every invoice follows the routing order.");
    await list.getByRole("button", { name: "Add a rule" }).focus();
    await page.keyboard.press("Enter");
    const form = list.getByRole("form", { name: "New rule" });
    await expect(form.getByLabel("Rule name")).toBeFocused();
    await page.keyboard.type("France");
    await typeInto(page, "Customer country is one of", "fr", form);
    await typeInto(page, "Amount at least (EUR)", "5.00", form);
    // The cascade's first place: a native select, chosen with the arrow keys.
    const first = form.getByLabel("Try first");
    await first.focus();
    await page.keyboard.press("ArrowDown");
    if ((await first.inputValue()) !== ids.f) await page.keyboard.press("ArrowDown");
    await expect(first).toHaveValue(ids.f);
    await form.getByRole("button", { name: "Add this rule" }).focus();
    await page.keyboard.press("Enter");
    const rule = list.getByTestId("routing-rule");
    await expect(rule).toHaveCount(1);
    await expect(rule).toContainText("France");
    await expect(rule).toContainText(`When amount at least 5.00 EUR, customer in FR → ${labels.f}`);
    await expect(list.getByRole("button", { name: "Edit rule France" })).toBeFocused();
    await list.getByRole("button", { name: "Save rules" }).focus();
    await page.keyboard.press("Enter");
    await expect(list.getByTestId("routing-rules-status")).toHaveText("Rules saved as version 1.");
    // The page's refresh after the save brings the saved rules back from the server ("Saved … by"
    // replaces "Never saved"); the confirmation must still be there to be read, not wiped by it.
    await expect(list.getByText(/^Saved .+ by /)).toBeVisible();
    await expect(list.getByTestId("routing-rules-status")).toHaveText("Rules saved as version 1.");
    await expect(list.getByTestId("routing-rule")).toContainText("France");

    // The simulator: the same decision the invoice API makes.
    const simulator = page.getByTestId("routing-simulator");
    const scope = simulator.getByLabel("Service and mode");
    await scope.focus();
    for (let i = 0; i < 20 && (await scope.inputValue()) !== "payment_card_eur_hpp:test"; i += 1) await page.keyboard.press("ArrowDown");
    await expect(scope).toHaveValue("payment_card_eur_hpp:test");
    await typeInto(page, "Amount (EUR)", "20.00", simulator);
    await typeInto(page, "Customer country", "FR", simulator);
    await page.keyboard.press("Enter");
    const answer = page.getByTestId("routing-simulation");
    await expect(answer).toContainText("Rule 1: France");
    await expect(answer).toContainText(`Rule 1 “France” matched and sent it to ${labels.f}.`);
    await typeInto(page, "Customer country", "GB", simulator);
    await page.keyboard.press("Enter");
    await expect(answer).toContainText("Default rule (the routing order)");
    await expect(answer).toContainText(`No rule applied, so the default rule (the routing order) sent it to ${labels.b}`);
    await typeInto(page, "Customer country", "F1", simulator);
    await page.keyboard.press("Enter");
    await expect(simulator.getByText("customer_country is a two-letter ISO 3166-1 code such as GB")).toBeVisible();
    await typeInto(page, "Customer country", "FR", simulator);
    await page.keyboard.press("Enter");
    await expect(answer).toContainText("Rule 1: France");
    await expectNoSeriousViolations(page);
    await screenshot(page, `routing-rules-${name}`, { fullPage: true });

    // A real invoice goes the same way and its page says why.
    const body = structuredClone(PAYMENT_EXAMPLES["B: EUR with customer"]) as {
      data: { attributes: Record<string, unknown> & { customer: { address: Record<string, string> } } };
    };
    const customer = { ...body.data.attributes.customer, address: { ...body.data.attributes.customer.address, country: "FR" } };
    body.data.attributes = {
      ...body.data.attributes,
      customer,
      commerce_account: account.commerceAccount,
      reference_id: `rules-${randomBytes(6).toString("hex")}`,
    };
    const created = await request.post("/api/commerce/payment-invoices", { headers: headers(apiKey), data: body });
    expect(created.status(), await created.text()).toBe(201);
    const invoice = (await created.json()).data;
    expect(invoice.relationships.connection.data.id).toBe(ids.f);
    expect(invoice.attributes.routing).toMatchObject({ rule: { position: 1, name: "France" }, order: [ids.f] });
    await page.goto(`/invoices/${invoice.id}`);
    await expect(page.getByTestId("invoice-routing-reason")).toContainText("Routing rule 1: France");
    await expect(page.getByTestId("invoice-routing-explanation")).toHaveText(`Rule 1 “France” matched and sent it to ${labels.f}.`);
    await screenshot(page, `invoice-routing-${name}`, { fullPage: true });
    await page.context().close();
  });
}
