import { randomBytes } from "node:crypto";
import { expect, test, type Page } from "@playwright/test";
import { PAYMENT_EXAMPLES } from "../tests/fixtures/invoices";
import { createApiKey, signUp } from "./support/accounts";
import { expectNoSeriousViolations } from "./support/axe";
import { connectByApi as connect, apiHeaders as headers } from "./support/connections";
import { screenshot } from "./support/screenshots";

/**
 * Success-rate ordering on the Routing page, with the keyboard alone, at desktop and
 * phone widths: an owner sets the window, minimum sample and exploration share, builds a rule
 * ordered by success rate, and the simulator shows each connection's rate and the sentence an
 * invoice would carry. The counts come from real invoices: F processes two payments without the
 * hosted page before the rule exists.
 */
test.describe.configure({ mode: "serial" });

/** Focus, then keys only: what a keyboard user does after tabbing to the control. */
async function typeInto(page: Page, name: string | RegExp, text: string, scope = page.locator("body")) {
  await scope.getByLabel(name, { exact: typeof name === "string" }).focus();
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.type(text);
}

/** A native select moved with the arrow keys until it shows `value`. */
async function choose(page: Page, select: ReturnType<Page["getByLabel"]>, value: string) {
  await select.focus();
  for (let i = 0; i < 10 && (await select.inputValue()) !== value; i += 1) await page.keyboard.press("ArrowDown");
  await expect(select).toHaveValue(value);
}

for (const [width, height, name] of [
  [1280, 900, "desktop"],
  [390, 844, "phone"],
] as const) {
  test(`an owner sets success-rate ordering, builds a rule ordered by it and the simulator shows the rates, keyboard only (${name})`, async ({
    browser,
    request,
  }) => {
    test.setTimeout(180_000);
    const page = await (await browser.newContext({ viewport: { width, height } })).newPage();
    const account = await signUp(page);
    const apiKey = await createApiKey(page);
    const run = randomBytes(3).toString("hex");
    const labels = { b: `B main ${run}`, f: `F France ${run}` };
    // F first: oldest first is the routing order, so the two payments below go to F and are processed at once (bypass_hpp).
    const f = await connect(request, apiKey, "provider-f", "h2h", labels.f);
    const b = await connect(request, apiKey, "provider-b", "h2h", labels.b);
    for (let i = 0; i < 2; i += 1) {
      const body = structuredClone(PAYMENT_EXAMPLES["F: EUR with bypass_hpp and customer under data"]) as { data: { attributes: Record<string, unknown> } };
      body.data.attributes = { ...body.data.attributes, commerce_account: account.commerceAccount, reference_id: `rate-${run}-${i}` };
      const created = await request.post("/api/commerce/payment-invoices", { headers: headers(apiKey), data: body });
      expect(created.status(), await created.text()).toBe(201);
      expect((await created.json()).data).toMatchObject({ attributes: { status: "processed" }, relationships: { connection: { data: { id: f } } } });
    }

    await page.goto("/routing");
    // The settings: the window, the minimum sample, the exploration share; a bad value is named at its field.
    const settings = page.getByRole("form", { name: "Success-rate ordering settings" });
    await typeInto(page, "Window (hours)", "200", settings);
    await page.keyboard.press("Enter");
    await expect(settings.getByText("The window must be at most 168 hours")).toBeVisible();
    await typeInto(page, "Window (hours)", "6", settings);
    await typeInto(page, "Minimum sample (attempts)", "2", settings);
    await typeInto(page, "Exploration share (%)", "0", settings);
    await settings.getByRole("button", { name: "Save ordering settings" }).focus();
    await page.keyboard.press("Enter");
    await expect(settings.getByRole("status")).toHaveText("Saved: rates over the last 6 h, trusted from 2 attempts, 0% exploration.");

    // A rule for every invoice: B, then F, ordered by success rate.
    const list = page.locator('[data-testid="routing-order"][data-order-id="payment_card_eur_hpp:test"]');
    await list.getByRole("button", { name: "Add a rule" }).focus();
    await page.keyboard.press("Enter");
    const form = list.getByRole("form", { name: "New rule" });
    await expect(form.getByLabel("Rule name")).toBeFocused();
    await page.keyboard.type("Best first");
    await choose(page, form.getByLabel("Try first"), b);
    await form.getByRole("button", { name: /^Add a fallback/ }).focus();
    await page.keyboard.press("Enter");
    await choose(page, form.getByLabel("Then (2)"), f);
    await choose(page, form.getByLabel("Order of these connections"), "success_rate");
    await form.getByRole("button", { name: "Add this rule" }).focus();
    await page.keyboard.press("Enter");
    const rule = list.getByTestId("routing-rule");
    await expect(rule).toContainText(`Every invoice → ${labels.b} or ${labels.f}, best success rate first`);
    await expect(list.getByRole("button", { name: "Edit rule Best first" })).toBeFocused();
    await list.getByRole("button", { name: "Save rules" }).focus();
    await page.keyboard.press("Enter");
    await expect(list.getByTestId("routing-rules-status")).toHaveText("Rules saved as version 1.");

    // The simulator: F has 2 processed payments of 2; B none yet, so it keeps its listed place (first).
    const simulator = page.getByTestId("routing-simulator");
    await choose(page, simulator.getByLabel("Service and mode"), "payment_card_eur_hpp:test");
    await typeInto(page, "Amount (EUR)", "20.00", simulator);
    await page.keyboard.press("Enter");
    const answer = page.getByTestId("routing-simulation");
    await expect(answer).toContainText("Rule 1: Best first");
    await expect(answer.getByRole("listitem")).toHaveText([`${labels.b} (0 attempts, 2 needed: keeps its listed place)`, `${labels.f} (100% of 2)`]);
    await expect(answer).toContainText(
      `Ordered by success rate over the last 6 h: ${labels.f} 100% of 2. Fewer than 2 attempts, keeping its listed place: ${labels.b} (0).`,
    );
    await expectNoSeriousViolations(page);
    await screenshot(page, `routing-success-${name}`, { fullPage: true });

    // Editing the rule shows the saved choice.
    await list.getByRole("button", { name: "Edit rule Best first" }).focus();
    await page.keyboard.press("Enter");
    await expect(list.getByRole("form", { name: "Edit rule Best first" }).getByLabel("Order of these connections")).toHaveValue("success_rate");
    if (name === "phone") {
      const box = await list.getByLabel("Order of these connections").boundingBox();
      expect(box!.height).toBeGreaterThanOrEqual(44);
      for (const label of ["Window (hours)", "Minimum sample (attempts)", "Exploration share (%)"])
        expect((await settings.getByLabel(label).boundingBox())!.height).toBeGreaterThanOrEqual(44);
    }
    await screenshot(page, `routing-success-rule-${name}`, { fullPage: true });
    await page.context().close();
  });
}
