import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test, type Browser, type Locator, type Page } from "@playwright/test";
import { sampleCredentials } from "../lib/providers/server/sample-credentials";
import { createApiKey, signUp } from "./support/accounts";
import { expectNoSeriousViolations } from "./support/axe";
import { inviteMember } from "./support/mail";
import { screenshot } from "./support/screenshots";
import { addWebhookEndpoint } from "./support/webhooks";

/**
 * At a 390 px phone in Chromium: the invoice filters
 * fold behind a "Filters" button, long references are cut with an ellipsis and copied whole with a
 * copy button, and the dashboard's tables keep their row actions on screen. Mouse and keyboard.
 * One owner and its data, shared in order; with E2E_SCREENSHOTS set, screenshots phone-layout-*.
 */
test.describe.configure({ mode: "serial" });

const PHONE = { width: 390, height: 844 } as const;
const JSON_API = { "Content-Type": "application/vnd.api+json" };

type Setup = {
  page: Page;
  labels: { one: string; two: string };
  /** A waiting payout with a 120-character reference_id. */
  longInvoice: { id: string; reference: string };
  receiver: { url: string; close: () => Promise<void> };
};
let setup: Setup;

function startReceiver(): Promise<Setup["receiver"]> {
  const server = createServer((request, response) => {
    request.resume();
    request.on("end", () => response.writeHead(200, { "content-type": "text/plain" }).end("ok"));
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
        close: () => new Promise<void>((done) => server.close(() => done())),
      }),
    ),
  );
}

async function phonePage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ viewport: PHONE, permissions: ["clipboard-read", "clipboard-write"] });
  return context.newPage();
}

const clipboard = (page: Page) => page.evaluate(() => navigator.clipboard.readText());

async function expectNoSidewaysScroll(page: Page) {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
  expect(scrollWidth, `${page.url()} scrolls sideways`).toBeLessThanOrEqual(innerWidth);
}

/**
 * Visible and wholly inside the screen's width, and not cut off by a container that scrolls or
 * clips sideways (a table scrolled inside its card would pass the page check but hide the button).
 */
async function expectOnScreen(locator: Locator) {
  await expect(locator).toBeVisible();
  const placement = await locator.evaluate((element) => {
    const rect = element.getBoundingClientRect();
    const clippedBy: string[] = [];
    for (let parent = element.parentElement; parent; parent = parent.parentElement) {
      const overflow = getComputedStyle(parent).overflowX;
      if (overflow === "visible") continue;
      const box = parent.getBoundingClientRect();
      if (rect.left < box.left - 0.5 || rect.right > box.right + 0.5) clippedBy.push(`${parent.tagName.toLowerCase()}.${parent.className}`);
    }
    return { left: rect.left, right: rect.right, width: document.documentElement.clientWidth, clippedBy };
  });
  expect(placement.left, "starts inside the screen").toBeGreaterThanOrEqual(0);
  expect(placement.right, "ends inside the screen").toBeLessThanOrEqual(placement.width);
  expect(placement.clippedBy, "not cut off by a scrolling container").toEqual([]);
}

/** Shown with an ellipsis: the text is wider than its box, the whole value in the text and in title. */
async function expectCut(locator: Locator, value: string) {
  await expect(locator).toHaveText(value);
  await expect(locator).toHaveAttribute("title", value);
  const shape = await locator.evaluate((element) => ({
    overflowing: element.scrollWidth > element.clientWidth,
    textOverflow: getComputedStyle(element).textOverflow,
    right: element.getBoundingClientRect().right,
    screen: document.documentElement.clientWidth,
  }));
  expect(shape.overflowing, "the value is cut").toBe(true);
  expect(shape.textOverflow).toBe("ellipsis");
  expect(shape.right, "ends inside the screen").toBeLessThanOrEqual(shape.screen);
}

/** A touch target a finger can hit: at least 44 × 44 CSS px (WCAG 2.5.5). */
async function expectTouchTarget(locator: Locator) {
  await expect(locator).toBeVisible();
  const box = (await locator.boundingBox())!;
  expect(box.height, `${await locator.evaluate((e) => e.outerHTML.slice(0, 80))} is 44 px tall`).toBeGreaterThanOrEqual(44);
  expect(box.width, `${await locator.evaluate((e) => e.outerHTML.slice(0, 80))} is 44 px wide`).toBeGreaterThanOrEqual(44);
}

/** Presses Tab until `target` has focus; fails after `limit` presses. */
async function tabTo(page: Page, target: Locator, limit = 80) {
  for (let n = 0; n < limit; n += 1) {
    if (await target.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press("Tab");
  }
  throw new Error("could not reach the element with Tab");
}

const focusRingShows = (locator: Locator) =>
  locator.evaluate(
    (element) => element.matches(":focus-visible") && getComputedStyle(element).outlineStyle !== "none" && getComputedStyle(element).outlineWidth !== "0px",
  );

test.beforeAll(async ({ browser }) => {
  test.setTimeout(120_000);
  const page = await phonePage(browser);
  const account = await signUp(page);
  const headers = { Authorization: `Bearer ${await createApiKey(page, "phone")}`, ...JSON_API };
  const run = randomBytes(3).toString("hex");
  const labels = { one: `A payouts one ${run}`, two: `A payouts two ${run}` };
  for (const label of [labels.one, labels.two]) {
    const created = await page.request.post("/api/connections", {
      headers,
      data: {
        data: {
          type: "connection",
          attributes: { provider: "provider-a", kind: "h2h", label, mode: "test", credentials: sampleCredentials("provider-a", "h2h", "test") },
        },
      },
    });
    expect(created.status(), await created.text()).toBe(201);
  }
  const payout = (reference: string) =>
    page.request.post("/api/commerce/payout-invoices", {
      headers,
      data: {
        data: {
          type: "payout-invoice",
          attributes: {
            commerce_account: account.commerceAccount,
            reference_id: reference,
            service: "payment_card_uah",
            currency: "UAH",
            amount: "250.75",
            test_mode: true,
            fields: { card_number: "4242424242424242" },
            options: { auto_process: false },
            customer: { reference_id: "cust-phone", name: "Lesya Ukrainka", address: { country: "UA", city: "Kyiv", street: "Khreshchatyk St 22" } },
          },
        },
      },
    });
  const reference = `phone-${run}-`.padEnd(120, "0123456789abcdefghij");
  expect(reference).toHaveLength(120);
  const created = await payout(reference);
  expect(created.status(), await created.text()).toBe(201);
  expect((await payout(`short-${run}`)).status()).toBe(201);

  // Status changes go to a receiver this test runs, so the invoice page has webhook tries to show.
  const receiver = await startReceiver();
  await addWebhookEndpoint(page, receiver.url);

  setup = { page, labels, longInvoice: { id: (await created.json()).data.id, reference }, receiver };
});

test.afterAll(async () => {
  await setup?.receiver.close();
  await setup?.page.context().close();
});

test("invoice filters fold behind a Filters button on a phone, open with the keyboard and show the filters from the URL", async () => {
  const { page } = setup;
  await page.setViewportSize(PHONE);
  await page.goto("/invoices?type=payout&status=created");
  await expect(page.getByTestId("invoice-row").first()).toBeVisible();
  const toggle = page.getByRole("button", { name: /^Filters/ });
  const form = page.getByRole("form", { name: "Filter invoices" });
  await expect(toggle).toHaveAccessibleName("Filters 2 active");
  await expect(toggle).toHaveAttribute("aria-expanded", "false");
  await expect(toggle).toHaveAttribute("aria-controls", "invoice-filters");
  await expect(page.locator("#invoice-filters")).toBeHidden();
  await expect(form).toBeHidden();
  await expectNoSidewaysScroll(page);
  await screenshot(page, "phone-layout-invoices-filters-closed-390", { fullPage: true });

  // Keyboard alone: Tab to the button (the focus ring shows), Enter opens, Space closes.
  await page.locator("body").focus();
  await tabTo(page, toggle);
  expect(await focusRingShows(toggle)).toBe(true);
  await page.keyboard.press("Enter");
  await expect(toggle).toHaveAttribute("aria-expanded", "true");
  await expect(form).toBeVisible();
  await expect(form.getByLabel("Type")).toHaveValue("payout");
  await expect(form.getByLabel("Status")).toHaveValue("created");
  await expectNoSidewaysScroll(page);
  await screenshot(page, "phone-layout-invoices-filters-open-390", { fullPage: true });
  await expectNoSeriousViolations(page);
  await page.keyboard.press("Space");
  await expect(toggle).toHaveAttribute("aria-expanded", "false");
  await expect(form).toBeHidden();
  await page.keyboard.press("Enter");
  await expect(form).toBeVisible();

  // Narrow by reference with the keyboard: Tab into the form, type, Tab to Apply, Enter.
  const reference = form.getByLabel("Reference");
  await tabTo(page, reference);
  await page.keyboard.type("phone-");
  await tabTo(page, form.getByRole("button", { name: "Apply filters" }));
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/reference=phone-/);
  await expect(page.getByTestId("invoice-row")).toHaveCount(1);
  await expect(page.getByRole("button", { name: /^Filters/ })).toHaveAccessibleName("Filters 3 active");
  if ((await page.getByRole("button", { name: /^Filters/ }).getAttribute("aria-expanded")) === "false")
    await page.getByRole("button", { name: /^Filters/ }).click();
  await expect(page.getByRole("form", { name: "Filter invoices" }).getByLabel("Reference")).toHaveValue("phone-");

  // From md up the filters show as before and the button is gone.
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto("/invoices?type=payout&status=created");
  await expect(page.getByRole("form", { name: "Filter invoices" })).toBeVisible();
  await expect(page.getByRole("button", { name: /^Filters/ })).toBeHidden();
  // The table fits beside the sidebar without scrolling inside its card: Created shows whole, and no
  // cell runs past three lines (the connection: its label, then provider and routing).
  const table = page.getByTestId("invoice-table");
  await expect(page.getByTestId("invoice-row")).toHaveCount(2);
  expect(await table.evaluate((element) => element.parentElement!.scrollWidth <= element.parentElement!.clientWidth)).toBe(true);
  const card = (await page.locator('section[aria-labelledby="invoice-list-heading"]').boundingBox())!;
  const created = (await table.getByRole("columnheader", { name: "Created" }).boundingBox())!;
  expect(created.x + created.width, "Created ends inside the card").toBeLessThanOrEqual(card.x + card.width);
  for (const row of await page.getByTestId("invoice-row").all()) {
    const lastCell = (await row.getByRole("cell").last().boundingBox())!;
    expect(lastCell.x + lastCell.width).toBeLessThanOrEqual(card.x + card.width);
    const lines = await row
      .getByRole("cell")
      .evaluateAll((cells) =>
        cells.map((cell) => Math.round((cell as HTMLElement).getBoundingClientRect().height / parseFloat(getComputedStyle(cell).lineHeight))),
      );
    expect(Math.max(...lines), `cells of a row span ${lines.join(", ")} lines`).toBeLessThanOrEqual(4);
    expect((await row.boundingBox())!.height, "a row is at most three lines of text tall").toBeLessThanOrEqual(80);
  }
  await screenshot(page, "phone-layout-invoices-1280", { fullPage: true });
});

test("a 120-character reference is cut with an ellipsis on a phone, and its copy button copies all of it, by mouse and by keyboard", async () => {
  const { page, longInvoice } = setup;
  await page.setViewportSize(PHONE);
  await page.goto("/invoices");
  const row = page.locator(`[data-invoice-id="${longInvoice.id}"]`);
  await expect(row).toBeVisible();
  await expectNoSidewaysScroll(page);
  await expectCut(row.getByTestId("invoice-reference"), longInvoice.reference);
  await expect(row.getByTestId("invoice-id")).toHaveAttribute("title", longInvoice.id);
  await expectOnScreen(row.getByRole("button", { name: "Copy reference" }));
  await expectOnScreen(row.getByRole("button", { name: "Copy invoice id" }));
  await expectOnScreen(row.getByText("created", { exact: true }));
  await screenshot(page, "phone-layout-invoices-390", { fullPage: true });
  // The rows are laid out as cards here but stay a table to assistive technology: headers, rows, cells.
  const table = page.getByRole("table", { name: "Invoices, newest first" });
  await expect(table.getByRole("columnheader")).toHaveText(["Invoice", "Reference", "Status", "Amount"]);
  await expect(table.getByRole("row").filter({ hasText: longInvoice.reference }).getByRole("cell").first()).toContainText(longInvoice.id);

  await row.getByRole("button", { name: "Copy reference" }).click();
  await expect(row.getByRole("status").filter({ hasText: "Copied" })).toHaveCount(1);
  expect(await clipboard(page)).toBe(longInvoice.reference);

  // Keyboard: Tab to the invoice id's copy button, Enter.
  await page.evaluate(() => navigator.clipboard.writeText("something else"));
  const copyId = row.getByRole("button", { name: "Copy invoice id" });
  await page.locator("body").focus();
  await tabTo(page, copyId);
  expect(await focusRingShows(copyId)).toBe(true);
  await page.keyboard.press("Enter");
  await expect.poll(() => clipboard(page)).toBe(longInvoice.id);

  // The invoice page: the header and Status and details cut it too; Copy reference by keyboard.
  await page.goto(`/invoices/${longInvoice.id}`);
  const facts = page.getByTestId("invoice-facts");
  await expect(facts).toBeVisible();
  await expectNoSidewaysScroll(page);
  await expectCut(facts.getByTestId("invoice-reference"), longInvoice.reference);
  await expectCut(page.locator("header").getByTitle(longInvoice.reference), longInvoice.reference);
  const copyReference = facts.getByRole("button", { name: "Copy reference" });
  await expectOnScreen(copyReference);
  await screenshot(page, "phone-layout-invoice-390", { fullPage: true });
  await page.evaluate(() => navigator.clipboard.writeText("something else"));
  await tabTo(page, copyReference);
  await page.keyboard.press(" ");
  await expect(facts.getByRole("status").filter({ hasText: "Copied" })).toHaveCount(1);
  expect(await clipboard(page)).toBe(longInvoice.reference);
  await expectNoSeriousViolations(page);

  await page.setViewportSize({ width: 1280, height: 900 });
  await page.reload();
  await expectCut(page.getByTestId("invoice-facts").getByTestId("invoice-reference"), longInvoice.reference);
  await screenshot(page, "phone-layout-invoice-1280", { fullPage: true });
});

test("on a phone the invoice page's payout button, webhook tries and Resend stay on screen", async () => {
  const { page, longInvoice } = setup;
  await page.setViewportSize(PHONE);
  await page.goto(`/invoices/${longInvoice.id}`);
  const process = page.getByRole("button", { name: "Process payout" });
  await expectOnScreen(process);
  await process.click();
  await expectOnScreen(page.getByRole("button", { name: "Confirm payout" }));
  await expectOnScreen(page.getByRole("button", { name: "Cancel", exact: true }));
  await page.getByRole("button", { name: "Confirm payout" }).click();
  await expect(page.getByTestId("invoice-status")).toHaveText("processed");
  // Delivery runs in the app's job worker: look again until a try is shown.
  const section = page.getByTestId("invoice-webhooks-section");
  await expect(async () => {
    await page.reload();
    await expect(section.getByTestId("webhook-event-state").filter({ hasText: "Delivered" }).first()).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
  const event = section
    .getByTestId("webhook-event")
    .filter({ has: page.getByTestId("webhook-event-state").filter({ hasText: "Delivered" }) })
    .first();
  await expectOnScreen(event.getByRole("button", { name: /^Resend event / }));
  const tries = event.getByRole("table", { name: /^Tries of event / });
  await expect(tries.getByRole("row")).toHaveCount(2);
  await expectOnScreen(tries.getByRole("cell", { name: "200" }));
  await expectOnScreen(tries.getByText("ok", { exact: true }));
  await expectNoSidewaysScroll(page);
  await screenshot(section, "phone-layout-invoice-webhooks-390");
});

test("on a phone the primary controls are touch targets of at least 44 px: menu, navigation, filters, forms and row actions", async () => {
  const { page } = setup;
  await page.setViewportSize(PHONE);
  await page.goto("/invoices");
  const menu = page.getByRole("button", { name: /menu/i });
  await expectTouchTarget(menu);
  await expectTouchTarget(page.getByTestId("view-mode-switch"));
  await expectTouchTarget(page.getByRole("button", { name: /^Filters/ }));
  await expectTouchTarget(page.locator("#main").getByRole("link", { name: "Compose a test invoice" }));
  await menu.click();
  const nav = page.getByRole("navigation", { name: "Main" });
  for (const link of await nav.getByRole("link").all()) {
    const box = (await link.boundingBox())!;
    expect(box.height, `${await link.textContent()} is 44 px tall`).toBeGreaterThanOrEqual(44);
  }
  await screenshot(page, "phone-layout-menu-open-390", { fullPage: true });
  await expectNoSeriousViolations(page);
  await menu.click();

  await page.getByRole("button", { name: /^Filters/ }).click();
  const filters = page.getByRole("form", { name: "Filter invoices" });
  await expectTouchTarget(filters.getByLabel("Type"));
  await expectTouchTarget(filters.getByLabel("Reference"));
  await expectTouchTarget(filters.getByRole("button", { name: "Apply filters" }));

  await page.goto("/api-keys");
  await expectTouchTarget(page.getByTestId("api-key-row").filter({ hasText: "phone" }).getByRole("button", { name: "Revoke" }));
  await page.goto("/invoices/new");
  await expectTouchTarget(page.getByRole("button", { name: "Send invoice" }));
  await expectTouchTarget(page.getByRole("textbox", { name: /^Amount/ }));
  await expectTouchTarget(page.getByRole("button", { name: "Regenerate" }));
  await screenshot(page, "phone-layout-composer-390", { fullPage: true });
});

test("on a phone every dashboard table keeps its row actions on screen: API keys, team, routing, connections", async ({ browser }) => {
  test.setTimeout(120_000);
  const { page, labels } = setup;
  await page.setViewportSize(PHONE);

  await page.goto("/api-keys");
  const key = page.getByTestId("api-key-row").filter({ hasText: "phone" });
  await expectOnScreen(key.getByRole("button", { name: "Revoke" }));
  await expectOnScreen(key.getByText("Active"));
  await expectNoSidewaysScroll(page);
  await screenshot(page, "phone-layout-api-keys-390", { fullPage: true });

  // A member (with its role choice and Remove) and a pending invitation (with Resend and Revoke).
  const memberEmail = `sam-${randomBytes(4).toString("hex")}@example.com`;
  await inviteMember(page, browser, { name: "Sam Support", email: memberEmail, role: "support" }, "support-pass-99");
  const pendingEmail = `pat-${randomBytes(4).toString("hex")}@example.com`;
  await page.goto("/team");
  await page.getByLabel("Name").fill("Pat Later");
  await page.getByLabel("E-mail").fill(pendingEmail);
  await page.getByRole("button", { name: "Send invitation", exact: true }).click();
  const invite = page.getByTestId("pending-invite").filter({ hasText: pendingEmail });
  await expect(invite).toBeVisible();
  await expectOnScreen(invite.getByRole("button", { name: `Resend invitation to ${pendingEmail}` }));
  await expectOnScreen(invite.getByRole("button", { name: `Revoke invitation to ${pendingEmail}` }));
  await expectOnScreen(invite.getByText(pendingEmail).filter({ visible: true }));
  const member = page.getByTestId("member-row").filter({ hasText: "Sam Support" });
  await expectOnScreen(member.getByRole("combobox", { name: "Role of Sam Support" }));
  await expectOnScreen(member.getByRole("button", { name: "Change role of Sam Support" }));
  await expectOnScreen(member.getByRole("button", { name: "Remove", exact: true }));
  await expectOnScreen(member.getByText(memberEmail).filter({ visible: true }));
  await expectNoSidewaysScroll(page);
  await screenshot(page, "phone-layout-team-390", { fullPage: true });

  await page.goto("/routing");
  const order = page.locator('[data-testid="routing-order"][data-order-id="payment_card_uah:test"]');
  await expect(order).toBeVisible();
  for (const label of [labels.one, labels.two]) {
    await expectOnScreen(order.getByRole("button", { name: `Move ${label} up` }));
    await expectOnScreen(order.getByRole("button", { name: `Move ${label} down` }));
    await expectTouchTarget(order.getByRole("button", { name: `Move ${label} up` }));
    await expectTouchTarget(order.getByRole("button", { name: `Move ${label} down` }));
  }
  await expectOnScreen(order.getByRole("button", { name: "Save order" }));
  await order.getByRole("button", { name: `Move ${labels.two} up` }).click();
  await expectTouchTarget(order.getByRole("button", { name: "Save order" }));
  await expectTouchTarget(order.getByRole("button", { name: "Undo changes" }));
  await screenshot(page, "phone-layout-routing-dirty-390", { fullPage: true });
  await expectNoSeriousViolations(page);
  await order.getByRole("button", { name: "Undo changes" }).click();
  await expectNoSidewaysScroll(page);
  await screenshot(page, "phone-layout-routing-390", { fullPage: true });

  await page.goto("/connections");
  const connection = page.getByTestId("connection-row").filter({ hasText: labels.one });
  await expectOnScreen(connection.getByRole("link", { name: labels.one }));
  await expectOnScreen(connection.getByText("Provider A"));
  await expectOnScreen(connection.getByText("Enabled"));
  await expectNoSidewaysScroll(page);
  await screenshot(page, "phone-layout-connections-390", { fullPage: true });

  for (const [name, path] of [
    ["api-keys", "/api-keys"],
    ["team", "/team"],
    ["connections", "/connections"],
    ["routing", "/routing"],
  ] as const) {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await screenshot(page, `phone-layout-${name}-1280`, { fullPage: true });
  }
});
