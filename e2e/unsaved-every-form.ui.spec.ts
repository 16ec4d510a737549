import { randomBytes } from "node:crypto";
import { expect, test, type Locator, type Page } from "@playwright/test";
import { sampleCredentials } from "../lib/providers/server/sample-credentials";
import { createApiKey, signUp } from "./support/accounts";
import { liveControl } from "./support/forms-on-use";
import { screenshot } from "./support/screenshots";

/**
 * No lost work on any dashboard form: for each one, an edit followed by a sidebar link asks
 * (Leave or Stay); Stay keeps the edit; the edit put back as it was leaves without a word (unsaved
 * means "differs from the saved values", not "touched"); edited again, Leave goes and the edit is
 * gone; saved, it asks nothing. Every form at 1280 px, a few at 390 px through the menu, one with
 * the keyboard alone.
 * The guard itself (Back, the Test/Live switch, reloads, saving) is proved in unsaved-changes.ui.spec.ts.
 */
const JSON_API = { "Content-Type": "application/vnd.api+json" };
const run = randomBytes(3).toString("hex");
const labels = { b: `B ${run}`, f: `F ${run}` };
const setup = {} as {
  storageState: Awaited<ReturnType<import("@playwright/test").BrowserContext["storageState"]>>;
  ids: { b: string; f: string };
  invoiceId: string;
  /** An authorized payment (flow "authorize"), for the Capture form. */
  authorizedId: string;
};

test.use({ storageState: async ({}, provide) => provide(setup.storageState) });

test.beforeAll(async ({ browser }) => {
  test.setTimeout(120_000);
  const context = await browser.newContext();
  const page = await context.newPage();
  const account = await signUp(page);
  const apiKey = await createApiKey(page);
  const headers = { Authorization: `Bearer ${apiKey}`, ...JSON_API };
  const ids: string[] = [];
  for (const [provider, label] of [
    ["provider-b", labels.b],
    ["provider-f", labels.f],
  ] as const) {
    const attributes = { provider, kind: "h2h", label, mode: "test", credentials: sampleCredentials(provider, "h2h", "test") };
    const response = await page.request.post("/api/connections", { headers, data: { data: { type: "connection", attributes } } });
    expect(response.status(), await response.text()).toBe(201);
    ids.push((await response.json()).data.id as string);
  }
  // A paid invoice, for the refund form, and an authorized one, for the capture form: routed to B (first in the routing order), paid on the hosted page.
  const pay = async (flow: "charge" | "authorize") => {
    const created = await page.request.post("/api/commerce/payment-invoices", {
      headers,
      data: {
        data: {
          type: "payment-invoice",
          attributes: {
            service: "payment_card_eur_hpp",
            commerce_account: account.commerceAccount,
            currency: "EUR",
            amount: "100.50",
            reference_id: `unsaved-${flow}-${run}`,
            flow,
            test_mode: true,
          },
        },
      },
    });
    expect(created.status(), await created.text()).toBe(201);
    const invoice = (await created.json()).data as { id: string; attributes: { hpp_url: string } };
    await page.goto(new URL(invoice.attributes.hpp_url).pathname);
    await page.getByRole("button", { name: /4242 4242 4242 4242/ }).click();
    await page.getByRole("button", { name: "Pay", exact: true }).click();
    await expect(page.getByTestId("pay-result")).toBeVisible();
    return invoice.id;
  };
  const invoiceId = await pay("charge");
  const authorizedId = await pay("authorize");
  Object.assign(setup, { storageState: await context.storageState(), ids: { b: ids[0]!, f: ids[1]! }, invoiceId, authorizedId });
  await context.close();
});

const question = (page: Page) => page.getByRole("alertdialog", { name: "Unsaved changes" });
const eurList = (page: Page) => page.locator('[data-testid="routing-order"][data-order-id="payment_card_eur_hpp:test"]');

/** The sidebar's link; on a phone the sidebar is behind the Menu button, opened first when it is shut. */
async function sidebarLink(page: Page, name: string): Promise<Locator> {
  const link = page.getByRole("navigation", { name: "Main" }).getByRole("link", { name, exact: true });
  const menu = page.getByRole("button", { name: "Menu" });
  if (!(await link.isVisible()) && (await menu.isVisible())) await menu.click();
  await expect(link).toBeVisible();
  return link;
}

/** One editable form: where it is, how it opens, the control edited, and how an edit is made and put back. */
type FormCase = {
  name: string;
  path: () => string;
  /** A button that shows the form (Refund, Connect, Add a rule). */
  open?: (page: Page) => Promise<void>;
  /** The control the edit is made in (waited for until hydrated). */
  control: (page: Page) => Locator;
  /** What the person sees of the edit, compared before and after. */
  read: (page: Page) => Promise<unknown>;
  edit: (page: Page) => Promise<void>;
  /** Puts the values back as they were saved, given what `read` said before the edit. */
  revert: (page: Page, before: unknown) => Promise<void>;
};

const byId = (id: string) => (page: Page) => page.locator(`#${id}`);

function textCase(name: string, path: () => string, control: (page: Page) => Locator, value: string, open?: FormCase["open"]): FormCase {
  return {
    name,
    path,
    open,
    control,
    read: (page) => control(page).inputValue(),
    edit: (page) => control(page).fill(value),
    revert: (page, before) => control(page).fill(String(before)),
  };
}

function checkboxCase(name: string, path: () => string, control: (page: Page) => Locator): FormCase {
  return { name, path, control, read: (page) => control(page).isChecked(), edit: (page) => control(page).click(), revert: (page) => control(page).click() };
}

const ruleForm = (page: Page) => eurList(page).getByRole("form", { name: "New rule" });
const rules = (page: Page) => eurList(page).getByTestId("routing-rule");

const FORMS: FormCase[] = [
  {
    name: "routing order",
    path: () => "/routing",
    control: (page) => eurList(page).getByRole("button", { name: `Move ${labels.f} up` }),
    read: (page) =>
      eurList(page)
        .getByTestId("routing-row")
        .evaluateAll((rows) => rows.map((row) => row.getAttribute("data-connection-id"))),
    edit: (page) =>
      eurList(page)
        .getByRole("button", { name: `Move ${labels.f} up` })
        .click(),
    revert: (page) =>
      eurList(page)
        .getByRole("button", { name: `Move ${labels.f} down` })
        .click(),
  },
  {
    name: "routing rules",
    path: () => "/routing",
    control: (page) => eurList(page).getByRole("button", { name: "Add a rule" }),
    read: (page) => rules(page).allTextContents(),
    edit: async (page) => {
      const saved = await rules(page).count();
      await eurList(page).getByRole("button", { name: "Add a rule" }).click();
      await ruleForm(page).getByLabel("Rule name").fill("Big ones");
      await ruleForm(page).getByLabel("Amount at least (EUR)").fill("100.00");
      await ruleForm(page).getByLabel("Try first").selectOption(setup.ids.f);
      await ruleForm(page).getByRole("button", { name: "Add this rule" }).click();
      await expect(rules(page)).toHaveCount(saved + 1);
    },
    revert: (page) => eurList(page).getByRole("button", { name: "Remove rule Big ones" }).click(),
  },
  {
    name: "a rule not applied yet",
    path: () => "/routing",
    control: (page) => eurList(page).getByRole("button", { name: "Add a rule" }),
    read: async (page) => ((await ruleForm(page).count()) ? ruleForm(page).getByLabel("Rule name").inputValue() : ""),
    edit: async (page) => {
      if (!(await ruleForm(page).count())) await eurList(page).getByRole("button", { name: "Add a rule" }).click();
      await ruleForm(page).getByLabel("Rule name").fill("Half done");
    },
    revert: (page) => ruleForm(page).getByLabel("Rule name").fill(""),
  },
  textCase("success-rate ordering", () => "/routing", byId("success-window"), "48"),
  textCase("business name", () => "/settings", byId("business-name"), `Renamed ${run}`),
  textCase("change password", () => "/settings", byId("current-password"), "not-saved-42"),
  textCase("your time zone", () => "/settings", byId("person-time-zone"), "Asia/Tokyo"),
  checkboxCase("allow pinning live invoices", () => "/settings", byId("allow-live-pins")),
  checkboxCase("require two-factor for owners", () => "/settings", byId("require-owner-mfa")),
  textCase("invoice lifetime", () => "/settings", byId("invoice-lifetime"), "45"),
  textCase("merchant time zone", () => "/settings", byId("merchant-time-zone"), "Europe/Berlin"),
  textCase("edit connection", () => `/connections/${setup.ids.b}`, byId("edit-label"), `B renamed ${run}`),
  textCase(
    "connection constants",
    () => `/connections/${setup.ids.b}`,
    (page) => page.getByRole("form", { name: "Connection constants" }).getByLabel("Customer city", { exact: true }),
    "Lyon",
  ),
  textCase(
    "new connection",
    () => "/providers/provider-b",
    byId("new-h2h-label"),
    `B new ${run}`,
    async (page) => {
      await hydrated(page.getByRole("button", { name: "Connect" }));
      await page.getByRole("button", { name: "Connect" }).click();
      const kind = page.getByRole("radio", { name: /^H2H merchant account/ });
      if (await kind.count()) await kind.check();
    },
  ),
  textCase("composer", () => "/invoices/new", byId("composer-amount"), "12.34"),
  textCase("payment link", () => "/invoices/new/link", byId("link-amount"), "25.00"),
  textCase(
    "refund",
    () => `/invoices/${setup.invoiceId}`,
    (page) => page.getByTestId("invoice-refunds").getByLabel("Amount (EUR)"),
    "10.00",
    async (page) => {
      const refund = page.getByTestId("invoice-refunds").getByRole("button", { name: "Refund", exact: true });
      await hydrated(refund);
      await refund.click();
    },
  ),
  textCase(
    "capture",
    () => `/invoices/${setup.authorizedId}`,
    (page) => page.getByTestId("invoice-authorization").getByLabel("Amount to capture (EUR)"),
    "10.00",
    async (page) => {
      const capture = page.getByTestId("invoice-authorization").getByRole("button", { name: "Capture", exact: true });
      await hydrated(capture);
      await capture.click();
    },
  ),
  textCase(
    "webhook endpoint",
    () => "/webhooks",
    (page) => page.getByRole("form", { name: "Add endpoint" }).getByLabel("Endpoint URL"),
    "https://shop.example.com/hooks",
  ),
  textCase("invite a member", () => "/team", byId("member-name"), "Grace Hopper"),
  textCase("API key", () => "/api-keys", byId("api-key-name"), "Warehouse"),
];

/** Waits until an edit would be seen: the control hydrated, or its form that loads when used made live. */
async function hydrated(control: Locator) {
  await liveControl(control);
}

async function openForm(page: Page, form: FormCase) {
  await page.goto(form.path());
  await form.open?.(page);
  await expect(form.control(page)).toBeVisible();
  await hydrated(form.control(page));
}

/** The walk: edit → link asks → Stay keeps → put back → link goes → edit again → Leave → the edit is gone. */
async function walk(page: Page, form: FormCase, shots?: string) {
  await test.step(form.name, async () => {
    await openForm(page, form);
    const before = await form.read(page);
    await form.edit(page);
    const edited = await form.read(page);
    expect(edited, `${form.name}: the edit shows`).not.toEqual(before);

    await (await sidebarLink(page, "Home")).click();
    await expect(question(page), `${form.name}: a sidebar link asks`).toBeVisible();
    if (shots) await screenshot(page, shots);
    await question(page).getByRole("button", { name: "Stay" }).click();
    await expect(question(page)).toHaveCount(0);
    expect(new URL(page.url()).pathname).toBe(form.path());
    expect(await form.read(page), `${form.name}: Stay keeps the edit`).toEqual(edited);

    await form.revert(page, before);
    expect(await form.read(page)).toEqual(before);
    await (await sidebarLink(page, "Home")).click();
    await expect(page, `${form.name}: put back as saved, leaving asks nothing`).toHaveURL(/\/home$/);
    await expect(question(page)).toHaveCount(0);

    await openForm(page, form);
    await form.edit(page);
    await (await sidebarLink(page, "Home")).click();
    await expect(question(page)).toBeVisible();
    await question(page).getByRole("button", { name: "Leave" }).click();
    await expect(page).toHaveURL(/\/home$/);
    await openForm(page, form);
    expect(await form.read(page), `${form.name}: Leave discards the edit`).toEqual(before);
  });
}

test("at 1280 px every dashboard form asks before a sidebar link loses its edit, and not once the edit is put back", async ({ page }) => {
  test.setTimeout(420_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  for (const form of FORMS) await walk(page, form, form.name === "refund" ? "unsaved-every-form-refund-1280" : undefined);

  await test.step("saved, a form is clean again: the sidebar goes without asking", async () => {
    const home = async () => {
      await (await sidebarLink(page, "Home")).click();
      await expect(page).toHaveURL(/\/home$/);
      await expect(question(page)).toHaveCount(0);
    };
    await openForm(
      page,
      FORMS.find((form) => form.name === "routing rules")!,
    );
    await eurList(page).getByRole("button", { name: "Add a rule" }).click();
    await ruleForm(page).getByLabel("Rule name").fill("Saved rule");
    await ruleForm(page).getByLabel("Amount at least (EUR)").fill("500.00");
    await ruleForm(page).getByLabel("Try first").selectOption(setup.ids.b);
    await ruleForm(page).getByRole("button", { name: "Add this rule" }).click();
    await eurList(page).getByRole("button", { name: "Save rules" }).click();
    await expect(eurList(page).getByTestId("routing-rules-status")).toContainText("Rules saved as version");
    await home();

    // A number saved: the field's text "50" is the saved 50.
    await openForm(
      page,
      FORMS.find((form) => form.name === "invoice lifetime")!,
    );
    const lifetime = page.getByRole("form", { name: "Invoice lifetime" });
    await page.locator("#invoice-lifetime").fill("50");
    await lifetime.getByRole("button", { name: "Save invoice lifetime" }).click();
    await expect(lifetime.getByRole("status")).toHaveText("Saved: new invoices expire 50 minutes after creation.");
    await home();

    await openForm(
      page,
      FORMS.find((form) => form.name === "refund")!,
    );
    const refunds = page.getByTestId("invoice-refunds");
    await refunds.getByLabel("Amount (EUR)").fill("10.00");
    await refunds.getByRole("button", { name: "Review refund" }).click();
    await refunds.getByRole("button", { name: "Confirm refund" }).click();
    await expect(refunds.getByTestId("refund-result")).toContainText("Refund of 10.00 EUR");
    await home();
  });
});

test("at 390 px the sidebar behind the menu asks too", async ({ page }) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 390, height: 844 });
  for (const name of ["routing rules", "invoice lifetime", "refund", "new connection"]) {
    await walk(
      page,
      FORMS.find((form) => form.name === name)!,
      name === "routing rules" ? "unsaved-every-form-rules-390" : undefined,
    );
  }
});

test("with the keyboard alone: the invite form asks, Stay returns to the link, Leave goes", async ({ page }) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  const form = FORMS.find((candidate) => candidate.name === "invite a member")!;
  await openForm(page, form);
  const name = page.locator("#member-name");
  const home = await sidebarLink(page, "Home");
  await name.focus();
  await page.keyboard.type("Grace");

  await home.focus();
  await page.keyboard.press("Enter");
  await expect(question(page)).toBeVisible();
  await expect(question(page).getByRole("button", { name: "Stay" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(question(page)).toHaveCount(0);
  await expect(home).toBeFocused();
  await expect(name).toHaveValue("Grace");

  // Put back by keys: the field emptied, and the link goes without a word.
  await name.focus();
  for (let i = 0; i < "Grace".length; i++) await page.keyboard.press("Backspace");
  await home.focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/home$/);
  await expect(question(page)).toHaveCount(0);

  await openForm(page, form);
  await page.locator("#member-name").focus();
  await page.keyboard.type("Ada");
  await (await sidebarLink(page, "Home")).focus();
  await page.keyboard.press("Enter");
  await expect(question(page)).toBeVisible();
  await page.keyboard.press("Tab");
  await expect(question(page).getByRole("button", { name: "Leave" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/home$/);
  await openForm(page, form);
  await expect(page.locator("#member-name")).toHaveValue("");
});
