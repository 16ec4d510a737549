import { randomBytes } from "node:crypto";
import { expect, test, type Page } from "@playwright/test";
import { createApiKey, signUp } from "./support/accounts";
import { connectByApi as connect, apiHeaders as headers } from "./support/connections";
import { liveControl } from "./support/forms-on-use";

/**
 * The routing reason says the route the invoice took, in one wording everywhere: with a rule
 * "at least 100.01 EUR → Provider F" and Provider B first in the routing order, a 150 EUR invoice
 * is named "Routing rule 1: …" by the composer before and after sending, the invoice page, its
 * attempt, the invoice list and Home's recent invoices. The composer's form is used with the
 * keyboard alone. Each width has an owner of its own (it changes the routing).
 */

/** Focus, then keys only. */
async function typeInto(page: Page, name: RegExp, text: string) {
  await page.getByRole("textbox", { name }).focus();
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.type(text);
}

async function press(page: Page, name: RegExp | string) {
  await page.getByRole("button", { name }).first().focus();
  await page.keyboard.press("Enter");
}

for (const [width, height, name] of [
  [1280, 900, "desktop"],
  [390, 844, "phone"],
] as const) {
  test(`a rule's invoice is named by its rule in the composer, the invoice, its attempt, the list and Home (${name})`, async ({ browser, request }) => {
    test.setTimeout(120_000);
    const page = await (await browser.newContext({ viewport: { width, height } })).newPage();
    await signUp(page);
    const apiKey = await createApiKey(page);
    const run = randomBytes(3).toString("hex");
    const labels = { b: `B EUR ${run}`, f: `F large ${run}` };
    // B first: the routing order would send every invoice there.
    await connect(request, apiKey, "provider-b", "h2h", labels.b);
    const f = await connect(request, apiKey, "provider-f", "h2h", labels.f);
    const saved = await request.patch("/api/routing/payment_card_eur_hpp:test", {
      headers: headers(apiKey),
      data: {
        data: {
          type: "routing-order",
          id: "payment_card_eur_hpp:test",
          attributes: { rules: [{ name: "Large EUR", conditions: { amount_min: "100.01" }, outcome: { kind: "cascade", connection_ids: [f] } }] },
        },
      },
    });
    expect(saved.status(), await saved.text()).toBe(200);
    const because = "Routing rule 1: Large EUR";

    await page.goto("/invoices/new");
    // The composer loads when used: it is made live first (e2e/forms-on-use.ui.spec.ts covers what is done before that).
    await liveControl(page.getByRole("button", { name: /^Provider B payment payment_card/ }).first());
    await press(page, /^Provider B payment payment_card/);
    await expect(page.getByRole("radio", { name: /^Route automatically/ })).toBeChecked();
    await expect(page.getByTestId("template-status")).toContainText("Filled in from");
    await typeInto(page, /^Amount/, "150.00");
    // Before sending: the simulator's decision, not the routing order's first connection.
    await expect(page.getByTestId("composer-route")).toHaveText(`Routing sends it to ${labels.f} (Provider F) first — ${because}.`);
    await press(page, "Send invoice");
    await expect(page.getByTestId("composer-status")).toHaveText("201");
    await expect(page.getByTestId("composer-routed")).toHaveText(`Routed to ${labels.f} (Provider F) — ${because}`);
    const response = JSON.parse((await page.getByTestId("composer-response").textContent()) ?? "{}") as {
      data: { id: string; attributes: { hpp_url: string } };
    };
    const invoiceId = response.data.id;

    // Paid on its hosted page, so that it has an attempt.
    await page.goto(new URL(response.data.attributes.hpp_url).pathname);
    await page.getByRole("button", { name: /4242 4242 4242 4242/ }).click();
    await page.getByRole("button", { name: "Pay", exact: true }).click();
    await expect(page.getByTestId("pay-result")).toBeVisible();

    await page.goto(`/invoices/${invoiceId}`);
    await expect(page.getByTestId("invoice-connection")).toContainText(labels.f);
    await expect(page.getByTestId("invoice-routing-reason")).toContainText(because);
    const attempt = page.getByTestId("invoice-attempt").first();
    await expect(attempt).toContainText(labels.f);
    await expect(attempt).toContainText(because);
    await expect(attempt).not.toContainText("First in routing order");

    await page.goto("/invoices");
    await expect(page.locator(`[data-invoice-id="${invoiceId}"]`).getByTestId("invoice-routing")).toHaveText(because);
    await page.goto("/home");
    const recent = page.getByRole("region", { name: "Recent test invoices" });
    await expect(recent.locator(`[data-invoice-id="${invoiceId}"]`).getByTestId("invoice-routing")).toHaveText(because);
  });
}
