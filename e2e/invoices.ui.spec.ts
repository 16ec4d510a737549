import { randomBytes } from "node:crypto";
import { expect, test, type APIRequestContext, type Locator, type Page } from "@playwright/test";
import { PAYMENT_EXAMPLES, payoutExample } from "../tests/fixtures/invoices";
import { sampleCredentials } from "../lib/providers/server/sample-credentials";
import type { ConnectionKind, Mode } from "../lib/providers/types";
import { createApiKey, signIn, signUp, type Account } from "./support/accounts";
import { expectNoSeriousViolations } from "./support/axe";
import { inviteMember } from "./support/mail";
import { screenshot } from "./support/screenshots";

/** The invoice list and detail pages, fed through the invoice API as a merchant would. */

const FULL_CARD = "4111111111111111";
/** These pages are about listing: payouts wait in created instead of going to the provider at creation (auto_process). */
const WAITING_PAYOUT = { attempts_limit: 5, split_mode: false, allow_partially: false, auto_process: false };
const SUPPORT_PASSWORD = "support-pass-99";

/** apiKey is a test key; liveApiKey creates the live connection and invoice (a test key cannot). */
type Owner = Account & { apiKey: string; liveApiKey: string };
type Seeded = { owner: Owner; labels: Record<"a" | "b" | "c", string>; ids: Record<"payB" | "payA" | "payout" | "live", string>; run: string };

function apiHeaders(apiKey: string) {
  return { Authorization: `Bearer ${apiKey}`, "Content-Type": "application/vnd.api+json" };
}

async function connect(api: APIRequestContext, apiKey: string, provider: string, kind: ConnectionKind, mode: Mode): Promise<string> {
  const label = `${provider} ${mode} ${randomBytes(3).toString("hex")}`;
  const response = await api.post("/api/connections", {
    headers: apiHeaders(apiKey),
    data: { data: { type: "connection", attributes: { provider, kind, label, mode, credentials: sampleCredentials(provider, kind, mode) } } },
  });
  expect(response.status(), await response.text()).toBe(201);
  return label;
}

async function invoice(api: APIRequestContext, owner: Owner, direction: "payment" | "payout", example: unknown, attributes: Record<string, unknown>) {
  const body = structuredClone(example) as { data: { attributes: Record<string, unknown> } };
  body.data.attributes = { ...body.data.attributes, commerce_account: owner.commerceAccount, ...attributes };
  const key = body.data.attributes.test_mode === false ? owner.liveApiKey : owner.apiKey;
  const response = await api.post(`/api/commerce/${direction}-invoices`, { headers: apiHeaders(key), data: body });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()).data.id as string;
}

const B_EUR = PAYMENT_EXAMPLES["B: EUR without customer"];
const A_UAH = PAYMENT_EXAMPLES["A: payment_card_uah_hpp, UAH, allow_partially only"];
const C_AMD = PAYMENT_EXAMPLES["C: AMD"];

async function newOwner(page: Page): Promise<Owner> {
  const account = await signUp(page);
  return { ...account, apiKey: await createApiKey(page), liveApiKey: await createApiKey(page, "e2e live", { mode: "live" }) };
}

async function rowIds(page: Page): Promise<string[]> {
  return page.getByTestId("invoice-row").evaluateAll((rows) => rows.map((row) => row.getAttribute("data-invoice-id") ?? ""));
}

/** Hydration mismatches surface only as console errors; the pages render times, so watch for them. */
function watchHydration(page: Page): string[] {
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error" && /hydrat|Minified React error/i.test(message.text())) errors.push(message.text());
  });
  return errors;
}

let seeded: Seeded;

test.beforeAll(async ({ browser, playwright }, testInfo) => {
  const context = await browser.newContext();
  const owner = await newOwner(await context.newPage());
  await context.close();
  const api = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
  const labels = {
    a: await connect(api, owner.apiKey, "provider-a", "provider_account", "test"),
    b: await connect(api, owner.apiKey, "provider-b", "h2h", "test"),
    c: await connect(api, owner.liveApiKey, "provider-c", "provider_account", "live"),
  };
  const run = `run-${randomBytes(4).toString("hex")}`;
  const ids = {
    payB: await invoice(api, owner, "payment", B_EUR, { reference_id: `${run}-pay-b` }),
    payA: await invoice(api, owner, "payment", A_UAH, { reference_id: `${run}-pay-a` }),
    payout: await invoice(api, owner, "payout", payoutExample(), {
      reference_id: `${run}-payout-a`,
      fields: { card_number: FULL_CARD },
      options: WAITING_PAYOUT,
    }),
    live: await invoice(api, owner, "payment", C_AMD, { reference_id: `${run}-live-c`, test_mode: false }),
  };
  await api.dispose();
  seeded = { owner, labels, ids, run };
});

async function signInOwner(page: Page) {
  await signIn(page, seeded.owner.email, seeded.owner.password);
  await expect(page.getByRole("heading", { level: 1, name: "Home" })).toBeVisible();
}

async function applyFilters(page: Page, choose: (form: Locator) => Promise<unknown>) {
  const form = page.getByRole("form", { name: "Filter invoices" });
  await page.getByRole("link", { name: "Clear", exact: true }).click();
  await expect(page).toHaveURL(/\/invoices$/);
  await choose(form);
  await form.getByRole("button", { name: "Apply filters" }).click();
}

test("the list shows payments and payouts with status badges, and each filter narrows it", async ({ page }) => {
  const { ids, run, labels } = seeded;
  const hydration = watchHydration(page);
  await signInOwner(page);
  await page.goto("/invoices");
  await expect(page.getByRole("heading", { level: 1, name: "Invoices" })).toBeVisible();
  // The dashboard starts in its test view: the live invoice is listed only in the live view.
  const testIds = [ids.payB, ids.payA, ids.payout];
  for (const id of testIds) {
    const row = page.locator(`[data-invoice-id="${id}"]`);
    await expect(row.getByText("created", { exact: true })).toBeVisible();
  }
  await expect(page.locator(`[data-invoice-id="${ids.live}"]`)).toHaveCount(0);
  await expect(page.locator(`[data-invoice-id="${ids.payout}"]`)).toContainText("Payout");
  await expect(page.locator(`[data-invoice-id="${ids.payB}"]`)).toContainText(labels.b);

  await applyFilters(page, (form) => form.getByLabel("Type").selectOption("payout"));
  await expect(page).toHaveURL(/type=payout/);
  await expect.poll(() => rowIds(page)).toContain(ids.payout);
  expect(await rowIds(page)).not.toContain(ids.payA);
  await expect(page.getByLabel("Type")).toHaveValue("payout");

  await applyFilters(page, (form) => form.getByLabel("Provider").selectOption("provider-b"));
  await expect(page).toHaveURL(/provider=provider-b/);
  await expect.poll(() => rowIds(page)).toEqual([ids.payB]);

  await page.goto("/invoices");
  await page.getByRole("button", { name: "Test mode" }).click();
  await expect(page.getByRole("button", { name: "Test mode" })).toHaveAttribute("aria-pressed", "false");
  await expect.poll(() => rowIds(page)).toEqual([ids.live]);
  await page.getByRole("button", { name: "Test mode" }).click();
  await expect(page.getByRole("button", { name: "Test mode" })).toHaveAttribute("aria-pressed", "true");

  await applyFilters(page, (form) => form.getByLabel("Reference").fill(`${run}-pay-`));
  await expect.poll(async () => (await rowIds(page)).sort()).toEqual([ids.payA, ids.payB].sort());
  await applyFilters(page, (form) => form.getByLabel("Reference").fill(`${run}-pay-a`));
  await expect.poll(() => rowIds(page)).toEqual([ids.payA]);

  await applyFilters(page, (form) => form.getByLabel("Status").selectOption("created"));
  await expect.poll(async () => (await rowIds(page)).filter((id) => Object.values(ids).includes(id)).sort()).toEqual(testIds.sort());
  await applyFilters(page, (form) => form.getByLabel("Status").selectOption("processed"));
  await expect(page.getByRole("heading", { name: "No invoices match these filters" })).toBeVisible();

  const today = new Date().toISOString().slice(0, 10);
  await page.goto(`/invoices?from=${today}&to=${today}&type=payout`);
  await expect.poll(() => rowIds(page)).toContain(ids.payout);
  await page.goto(`/invoices?to=2000-01-01`);
  await expect(page.getByRole("heading", { name: "No invoices match these filters" })).toBeVisible();
  await page.goto(`/invoices?from=2024-02-30`);
  await expect(page.getByText("Ignored what could not be read: created from.")).toBeVisible();
  expect(hydration).toEqual([]);
});

test("pages of 25: showing more appends the rest without repeats, also without JavaScript", async ({ page, playwright }, testInfo) => {
  const owner = await newOwner(page);
  const api = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
  await connect(api, owner.apiKey, "provider-a", "provider_account", "test");
  const created = await Promise.all(
    Array.from({ length: 28 }, (_, n) => invoice(api, owner, "payout", payoutExample(), { reference_id: `bulk-${n}`, options: WAITING_PAYOUT })),
  );
  await api.dispose();

  await page.goto("/invoices");
  await expect(page.getByTestId("invoice-row")).toHaveCount(25);
  await expect(page.getByTestId("invoice-count")).toHaveText("25 invoices shown; there are more");
  const more = page.getByRole("link", { name: "Show more invoices" });
  const nextHref = await more.getAttribute("href");
  await more.click();
  await expect(page.getByTestId("invoice-row")).toHaveCount(28);
  await expect(page.getByTestId("invoice-count")).toHaveText("28 invoices shown");
  const all = await rowIds(page);
  expect(new Set(all).size).toBe(28);
  expect([...all].sort()).toEqual([...created].sort());

  // The link itself, as a browser without JavaScript follows it: the server renders the next page.
  await page.goto(nextHref!);
  await expect(page.getByTestId("invoice-row")).toHaveCount(3);
  expect(await rowIds(page)).toEqual(all.slice(25));
  await expect(page.getByRole("link", { name: "Back to the newest invoices" })).toBeVisible();
});

test("an invoice created through the API while the list is open appears without a reload", async ({ page, playwright }, testInfo) => {
  await signInOwner(page);
  await page.goto("/invoices");
  await expect(page.getByTestId("invoice-row").first()).toBeVisible();
  await page.evaluate(() => Object.assign(window, { __sameDocument: true }));
  const api = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
  const id = await invoice(api, seeded.owner, "payment", B_EUR, { reference_id: `${seeded.run}-late` });
  await api.dispose();
  await expect(page.locator(`[data-invoice-id="${id}"]`)).toBeVisible({ timeout: 15_000 });
  expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
});

test("the detail page shows status, request, resolved customer with sources, connection, hosted page and timeline, polling while not final", async ({
  page,
}) => {
  const { ids, labels } = seeded;
  const hydration = watchHydration(page);
  await signInOwner(page);
  const polled = page.waitForResponse((r) => r.url().endsWith(`/api/dashboard/invoices/${ids.payB}`) && r.status() === 200, { timeout: 10_000 });
  await page.goto(`/invoices/${ids.payB}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Invoice ${ids.payB}`);
  await expect(page.getByTestId("invoice-status")).toHaveText("created");
  const live = await polled;
  expect((await live.json()).data.status).toBe("created");
  await expect(page.getByTestId("invoice-live")).toContainText("checking again every 3 s");

  await expect(page.getByTestId("invoice-request")).toContainText('"service": "payment_card_eur_hpp"');
  const city = page.getByTestId("customer-customer.address.city");
  await expect(city).toContainText("London");
  await expect(city).toContainText("default");
  const connection = page.getByTestId("invoice-connection");
  await expect(connection.getByRole("link", { name: labels.b })).toHaveAttribute("href", /\/connections\/conn_/);
  await expect(connection).toContainText("Provider B");
  await expect(page.getByTestId("hosted-page-link")).toHaveAttribute("href", new RegExp(`/pay/${ids.payB}$`));
  await expect(page.getByTestId("invoice-timeline")).toContainText("created");
  await expect(page.getByRole("heading", { level: 2, name: "Timeline" })).toBeVisible();

  await page.goto(`/invoices/${ids.payout}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Invoice ${ids.payout}`);
  await expect(page.getByTestId("invoice-request")).toContainText('"card_number": "411111******1111"');
  await expect(page.getByTestId("hosted-page-link")).toHaveCount(0);
  const html = await page.content();
  expect(html).not.toContain(FULL_CARD);
  expect(html).not.toContain("4111 1111 1111 1111");
  const json = await (await page.request.get(`/api/dashboard/invoices/${ids.payout}`)).text();
  expect(json).toContain("411111******1111");
  expect(json).not.toContain(FULL_CARD);
  expect(hydration).toEqual([]);
});

test("a support member reads both pages and sees the connection without a link or credentials", async ({ page, browser }) => {
  const { ids, labels } = seeded;
  await signInOwner(page);
  const email = `support-${randomBytes(4).toString("hex")}@example.com`;
  await inviteMember(page, browser, { name: "Sam Support", email, role: "support" }, SUPPORT_PASSWORD);

  const context = await browser.newContext();
  const support = await context.newPage();
  await signIn(support, email, SUPPORT_PASSWORD);
  await expect(support).toHaveURL(/\/home$/);
  await support.goto("/invoices");
  await expect(support.locator(`[data-invoice-id="${ids.payB}"]`)).toBeVisible();
  await support.getByRole("link", { name: ids.payB }).click();
  await expect(support.getByRole("heading", { level: 1 })).toHaveText(`Invoice ${ids.payB}`);
  const connection = support.getByTestId("invoice-connection");
  await expect(connection).toContainText(labels.b);
  await expect(connection.getByRole("link")).toHaveCount(0);
  expect(await support.content()).not.toMatch(/secret_key|terminal_id|TERM-7781/);
  await context.close();
});

test("another merchant's invoice is not found, and the session route refuses visitors without a session", async ({ page, request }) => {
  await signUp(page);
  await page.goto(`/invoices/${seeded.ids.payB}`);
  await expect(page.getByRole("heading", { name: "Invoice not found" })).toBeVisible();
  await expect(page.getByText(seeded.labels.b)).toHaveCount(0);
  expect((await page.request.get(`/api/dashboard/invoices/${seeded.ids.payB}`)).status()).toBe(404);
  await page.goto("/invoices/cpi_doesnotexist");
  await expect(page.getByRole("heading", { name: "Invoice not found" })).toBeVisible();
  const list = await page.request.get("/api/dashboard/invoices");
  expect((await list.json()).data.invoices).toEqual([]);

  const anonymous = await request.get("/api/dashboard/invoices");
  expect(anonymous.status()).toBe(401);
  expect((await anonymous.json()).errors[0].code).toBe("unauthorized");
  expect((await request.get(`/api/dashboard/invoices/${seeded.ids.payB}`)).status()).toBe(401);
});

test("both pages have no serious axe violations, empty list included", async ({ page }) => {
  // Five scans and a sign-up in one flow over the shared seeded invoices: long on a busy machine.
  test.slow();
  await signInOwner(page);
  await page.setViewportSize({ width: 1400, height: 1000 });
  await page.goto("/invoices");
  await expect(page.getByTestId("invoice-row").first()).toBeVisible();
  await expectNoSeriousViolations(page);
  await screenshot(page, "invoices", { fullPage: true });
  await page.goto(`/invoices/${seeded.ids.payB}`);
  await expect(page.getByTestId("invoice-status")).toBeVisible();
  await expectNoSeriousViolations(page);
  await screenshot(page, "invoice", { fullPage: true });
  await page.goto(`/invoices/${seeded.ids.payout}`);
  await expectNoSeriousViolations(page);
  await screenshot(page, "invoice-payout", { fullPage: true });
  await page.goto("/invoices?status=expired");
  await expectNoSeriousViolations(page);

  await page.context().clearCookies();
  await signUp(page);
  await page.goto("/invoices");
  await expect(page.getByRole("heading", { name: "No invoices yet" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Compose a test invoice" }).last()).toHaveAttribute("href", "/invoices/new");
  await expectNoSeriousViolations(page);
  await screenshot(page, "invoices-empty", { fullPage: true });
});

/** Presses Tab until `target` has focus; fails after `limit` presses. */
async function tabTo(page: Page, target: Locator, limit = 60) {
  for (let n = 0; n < limit; n += 1) {
    if (await target.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press("Tab");
  }
  throw new Error("could not reach the element with Tab");
}

test("keyboard alone: tab to a filter, change it, apply, reach an invoice and open it", async ({ page }) => {
  await signInOwner(page);
  await page.goto("/invoices");
  await expect(page.getByTestId("invoice-row").first()).toBeVisible();
  await page.locator("body").focus();
  const type = page.getByLabel("Type");
  await tabTo(page, type);
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("ArrowDown");
  await expect(type).toHaveValue("payout");
  await tabTo(page, page.getByRole("button", { name: "Apply filters" }));
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/type=payout/);
  const link = page.getByRole("link", { name: seeded.ids.payout });
  await expect(link).toBeVisible();
  await tabTo(page, link);
  await expect(link).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Invoice ${seeded.ids.payout}`);
});
