import { randomBytes } from "node:crypto";
import { expect, test, type Locator, type Page } from "@playwright/test";
import { PAYMENT_EXAMPLES } from "../tests/fixtures/invoices";
import { createApiKey, signIn, signUp } from "./support/accounts";
import { expectNoSeriousViolations } from "./support/axe";
import { connectByApi as connect, apiHeaders as headers } from "./support/connections";
import { inviteMember } from "./support/mail";
import { screenshot } from "./support/screenshots";

/**
 * An owner orders the EUR connections on the Routing page
 * with the keyboard and the mouse, the invoice API follows that order, and a composer-sent invoice
 * with a chosen connection is pinned to it. One owner and its connections, shared in order.
 */
test.describe.configure({ mode: "serial" });

type Setup = { page: Page; apiKey: string; commerceAccount: string; labels: { b: string; c: string; f: string }; ids: { b: string; c: string; f: string } };
let setup: Setup;

const eurList = (page: Page) => page.locator('[data-testid="routing-order"][data-order-id="payment_card_eur_hpp:test"]');
const rowOrder = (page: Page) =>
  eurList(page)
    .getByTestId("routing-row")
    .evaluateAll((rows) => rows.map((row) => row.getAttribute("data-connection-id")));

test.beforeAll(async ({ browser, request }) => {
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  const account = await signUp(page);
  const apiKey = await createApiKey(page);
  const run = randomBytes(3).toString("hex");
  // B, C (EUR account) and F all offer payment_card_eur_hpp; created oldest first in this order.
  const labels = { b: `B sandbox ${run}`, c: `C EUR ${run}`, f: `F sandbox ${run}` };
  const ids = {
    b: await connect(request, apiKey, "provider-b", "h2h", labels.b),
    c: await connect(request, apiKey, "provider-c", "provider_account", labels.c),
    f: await connect(request, apiKey, "provider-f", "h2h", labels.f),
  };
  setup = { page, apiKey, commerceAccount: account.commerceAccount, labels, ids };
});

test("an owner reorders with the keyboard and by dragging, saves, and hears the confirmation", async () => {
  const { page, ids, labels } = setup;
  await page.goto("/");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Routing" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Routing" })).toBeVisible();
  await expect(eurList(page).getByRole("heading", { name: "payment_card_eur_hpp" })).toBeVisible();
  await expect(eurList(page)).toContainText("EUR");
  expect(await rowOrder(page)).toEqual([ids.b, ids.c, ids.f]);
  await expect(eurList(page).getByTestId("routing-row").first()).toContainText("Takes new invoices");

  // Keyboard: F up twice from its Up button, which keeps focus (visibly) as the row moves.
  const up = eurList(page).getByRole("button", { name: `Move ${labels.f} up` });
  await up.focus();
  await page.keyboard.press("Enter");
  await page.keyboard.press("Enter");
  expect(await rowOrder(page)).toEqual([ids.f, ids.b, ids.c]);
  await expect(up).toBeFocused();
  await page.keyboard.press("Tab");
  const down = eurList(page).getByRole("button", { name: `Move ${labels.f} down` });
  await expect(down).toBeFocused();
  expect(await down.evaluate((element) => element.matches(":focus-visible") && getComputedStyle(element).outlineStyle !== "none")).toBe(true);
  await expect(eurList(page).getByTestId("routing-status")).toHaveText(`${labels.f} moved to position 1 of 3. Not saved yet.`);
  await expect(eurList(page)).toContainText("Unsaved changes");

  await eurList(page).getByRole("button", { name: "Save order" }).focus();
  await page.keyboard.press("Enter");
  await expect(eurList(page).getByTestId("routing-status")).toHaveText(`Saved. New test-mode payment_card_eur_hpp invoices go to ${labels.f}.`);
  await expect(eurList(page).getByTestId("routing-status")).toHaveAttribute("aria-live", "polite");
  await expect(eurList(page)).not.toContainText("Unsaved changes");

  // Mouse: drag C onto B's place.
  const row = (id: string) => eurList(page).locator(`[data-connection-id="${id}"]`);
  await row(ids.c).dragTo(row(ids.b));
  expect(await rowOrder(page)).toEqual([ids.f, ids.c, ids.b]);
  await eurList(page).getByRole("button", { name: "Save order" }).click();
  await expect(eurList(page).getByTestId("routing-status")).toContainText("Saved.");

  await page.reload();
  expect(await rowOrder(page)).toEqual([ids.f, ids.c, ids.b]);
  await expect(eurList(page)).toContainText(/Saved .* by Owner/);
});

test("the invoice API follows the saved order and the invoice page says first in routing order", async ({ request }) => {
  const { page, apiKey, commerceAccount, ids, labels } = setup;
  const order = await request.get("/api/routing/payment_card_eur_hpp:test", { headers: headers(apiKey) });
  expect((await order.json()).data.attributes.connection_ids).toEqual([ids.f, ids.c, ids.b]);

  const body = structuredClone(PAYMENT_EXAMPLES["B: EUR without customer"]) as { data: { attributes: Record<string, unknown> } };
  body.data.attributes = { ...body.data.attributes, commerce_account: commerceAccount, reference_id: `routing-${randomBytes(6).toString("hex")}` };
  const created = await request.post("/api/commerce/payment-invoices", { headers: headers(apiKey), data: body });
  expect(created.status(), await created.text()).toBe(201);
  const invoice = (await created.json()).data;
  expect(invoice.relationships.connection.data.id).toBe(ids.f);
  expect(invoice.attributes.routing).toMatchObject({ reason: "routing_order", rule: null, branch: null, order: [ids.f, ids.c, ids.b] });

  await page.goto(`/invoices/${invoice.id}`);
  const connection = page.getByTestId("invoice-connection");
  await expect(connection).toContainText(labels.f);
  await expect(connection.getByTestId("invoice-routing-reason")).toContainText(/first in routing order/i);
  await page.goto("/invoices");
  await expect(page.locator(`[data-invoice-id="${invoice.id}"]`).getByTestId("invoice-routing")).toHaveText(/first in routing order/i);
});

test("a composer-sent invoice goes to the connection chosen, pinned, and says so", async () => {
  const { page, ids, labels } = setup;
  await page.goto("/invoices/new");
  await page.getByRole("button", { name: /^Provider B payment payment_card/ }).click();
  // Pinning is a choice: the composer routes automatically until "Pin to a connection" is picked.
  await expect(page.getByRole("radio", { name: /^Route automatically/ })).toBeChecked();
  await page.getByRole("radio", { name: /^Pin to a connection/ }).check();
  await expect(page.getByRole("combobox", { name: /^Connection/ })).toHaveValue(ids.b);
  await expect(page.getByTestId("composer-envelope")).toContainText(`"id": "${ids.b}"`);
  await page.getByRole("button", { name: "Send invoice" }).click();
  await expect(page.getByTestId("composer-status")).toHaveText("201");
  await expect(page.getByTestId("composer-routed")).toHaveText(`Routed to ${labels.b} (Provider B) — Pinned`);

  await page.getByRole("link", { name: "Open invoice" }).click();
  await expect(page.getByTestId("invoice-connection")).toContainText(labels.b);
  await expect(page.getByTestId("invoice-routing-reason")).toContainText("Pinned");
  await expect(page.getByTestId("invoice-request")).toContainText(`"id": "${ids.b}"`);
});

test("a composer-sent invoice routed automatically follows the saved order and cascades like an API one", async () => {
  test.slow();
  const { page, ids, labels } = setup;
  await page.goto("/invoices/new");
  await page.getByRole("button", { name: /^Provider B payment payment_card/ }).click();
  await expect(page.getByRole("radio", { name: /^Route automatically/ })).toBeChecked();
  await expect(page.getByTestId("composer-route")).toHaveText(
    `Routing sends it to ${labels.f} (Provider F) first — First in routing order; then ${labels.c}, ${labels.b} if a connection fails softly.`,
  );
  await page.getByRole("button", { name: "Send invoice" }).click();
  await expect(page.getByTestId("composer-status")).toHaveText("201");
  await expect(page.getByTestId("composer-routed")).toHaveText(`Routed to ${labels.f} (Provider F) — First in routing order`);
  const response = JSON.parse((await page.getByTestId("composer-response").textContent()) ?? "{}") as { data: { id: string; attributes: { hpp_url: string } } };
  await page.getByRole("link", { name: "Open invoice" }).click();
  await expect(page.getByTestId("invoice-connection")).toContainText(labels.f);
  await expect(page.getByTestId("invoice-routing-reason")).toContainText(/first in routing order/i);

  // F's sandbox refuses with a server error: the customer's payment cascades to C, as an API invoice's would.
  await page.goto(`/connections/${ids.f}`);
  const behaviour = page.getByTestId("sandbox-behaviour");
  await behaviour.getByLabel("Sandbox behaviour").selectOption({ label: "Server error (5xx)" });
  await behaviour.getByRole("button", { name: "Apply" }).click();
  await expect(behaviour.getByTestId("sandbox-fault-current")).toHaveText("Now: Server error (5xx)");
  await page.goto(new URL(response.data.attributes.hpp_url).pathname);
  await page.getByRole("button", { name: /4242 4242 4242 4242/ }).click();
  await page.getByLabel("Cardholder name").fill("Test Holder");
  await page.getByRole("button", { name: "Pay", exact: true }).click();
  await expect(page.getByTestId("pay-result")).toBeVisible();
  await page.goto(`/invoices/${response.data.id}`);
  const attempts = page.getByTestId("invoice-attempt");
  await expect(attempts).toHaveCount(2);
  await expect(attempts.nth(0)).toContainText(labels.f);
  await expect(attempts.nth(0).getByText("Failed, may go elsewhere", { exact: true })).toBeVisible();
  await expect(attempts.nth(1)).toContainText(labels.c);
  await expect(page.getByTestId("invoice-connection")).toContainText(labels.c);
  await expect(page.getByTestId("invoice-routing-reason")).toContainText(/cascaded/i);
  await page.goto(`/connections/${ids.f}`);
  await behaviour.getByLabel("Sandbox behaviour").selectOption({ label: "Normal" });
  await behaviour.getByRole("button", { name: "Apply" }).click();
  await expect(behaviour.getByTestId("sandbox-fault-current")).toHaveText("Now: Normal");
});

test("a support member reads the order without controls; an owner allows pinning live invoices in Settings", async ({ browser }) => {
  const { page, labels } = setup;
  const email = `support-${randomBytes(4).toString("hex")}@example.com`;
  await inviteMember(page, browser, { name: "Sam Support", email, role: "support" }, "support-pass-99");

  const support = await (await browser.newContext()).newPage();
  await signIn(support, email, "support-pass-99");
  await support.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Routing" }).click();
  await expect(eurList(support).getByTestId("routing-row").first()).toContainText(labels.f);
  await expect(support.getByText("Owners and developers change test routing.", { exact: false })).toBeVisible();
  await expect(support.getByRole("button", { name: /^Move |Save order/ })).toHaveCount(0);
  await support.goto("/settings");
  await expect(support.getByTestId("allow-live-pins")).toContainText("not allowed");

  await page.goto("/settings");
  const allow = page.getByRole("checkbox", { name: "Allow pinning live invoices" });
  await expect(allow).not.toBeChecked();
  await allow.check();
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Saved: live invoices may now name their connection." })).toBeVisible();
  await support.reload();
  await expect(support.getByTestId("allow-live-pins")).toContainText("is allowed");
  await expectNoSeriousViolations(page);
});

test("the Routing page has no serious axe violations; screenshots at desktop and phone widths", async () => {
  const { page } = setup;
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto("/routing");
  await expectNoSeriousViolations(page);
  for (const [width, name] of [
    [1280, "desktop"],
    [390, "phone"],
  ] as const) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto("/routing");
    await expect(eurList(page)).toBeVisible();
    await screenshot(page, `routing-${name}`, { fullPage: true });
  }
  await page.goto("/settings");
  await screenshot(page, "routing-settings-phone", { fullPage: true });
});

/** Presses Tab until `target` has focus; fails after `limit` presses. */
async function tabTo(page: Page, target: Locator, limit = 80) {
  for (let n = 0; n < limit; n += 1) {
    if (await target.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press("Tab");
  }
  throw new Error("could not reach the element with Tab");
}

test("keyboard alone on a 390 px phone: Tab to a row's Move down, press Space, Tab to Save order, press Enter", async () => {
  const { page, ids, labels } = setup;
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/routing");
  expect(await rowOrder(page)).toEqual([ids.f, ids.c, ids.b]);
  // No clicks and no programmatic focus: only Tab, Space and Enter from the top of the page.
  const down = eurList(page).getByRole("button", { name: `Move ${labels.f} down` });
  await tabTo(page, down);
  await page.keyboard.press("Space");
  expect(await rowOrder(page)).toEqual([ids.c, ids.f, ids.b]);
  await expect(down).toBeFocused();
  await expect(eurList(page).getByTestId("routing-status")).toHaveText(`${labels.f} moved to position 2 of 3. Not saved yet.`);
  await tabTo(page, eurList(page).getByRole("button", { name: "Save order" }));
  await page.keyboard.press("Enter");
  await expect(eurList(page).getByTestId("routing-status")).toHaveText(`Saved. New test-mode payment_card_eur_hpp invoices go to ${labels.c}.`);
  await page.reload();
  expect(await rowOrder(page)).toEqual([ids.c, ids.f, ids.b]);
});
