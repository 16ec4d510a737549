import { randomBytes } from "node:crypto";
import { expect, test, type Locator, type Page } from "@playwright/test";
import { merchantWithKey, signIn } from "./support/accounts";
import { expectNoSeriousViolations } from "./support/axe";

/**
 * The composer's Payment link mode, keyboard only, at 1280 and 390 px: plain fields (amount,
 * currency, what it is for, the customer's e-mail), a refusal that names the field and creates
 * nothing, then the invoice, its e-mail in the outbox (no SMTP_URL here), the link with a QR code
 * and a copy button, and the hosted page the link opens. The developer fields stay under Advanced.
 */
const JSON_API = { "Content-Type": "application/vnd.api+json" };

let apiKey = "";
let owner = { email: "", password: "" };

test.beforeAll(async ({ browser, request }) => {
  const merchant = await merchantWithKey(browser);
  apiKey = merchant.apiKey;
  owner = { email: merchant.email, password: merchant.password };
  const connection = await request.post("/api/connections", {
    headers: { Authorization: `Bearer ${apiKey}`, ...JSON_API },
    data: {
      data: {
        type: "connection",
        attributes: {
          provider: "provider-b",
          kind: "h2h",
          label: "B links",
          mode: "test",
          credentials: { terminal_id: `TERM-${randomBytes(3).toString("hex")}`, secret_key: randomBytes(18).toString("base64url"), currency: "EUR" },
          constants: {},
        },
      },
    },
  });
  expect(connection.status()).toBe(201);
});

/** Presses Tab until `target` has the focus (keyboard only, as a person would). */
async function tabTo(page: Page, target: Locator) {
  for (let i = 0; i < 30; i++) {
    if (await target.evaluate((el) => el === document.activeElement)) break;
    await page.keyboard.press("Tab");
  }
  await expect(target).toBeFocused();
  // The focus shows: the browser's own focus-visible state, which the inputs' ring styles.
  expect(await target.evaluate((el) => el.matches(":focus-visible"))).toBe(true);
}

async function invoiceCount(page: Page): Promise<number> {
  const response = await page.request.get("/api/commerce/payment-invoices", { headers: { Authorization: `Bearer ${apiKey}` } });
  expect(response.status()).toBe(200);
  return (await response.json()).data.length;
}

for (const width of [1280, 390]) {
  test(`a payment link is sent from the composer in plain words, keyboard only, at ${width} px`, async ({ page, browser }) => {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await signIn(page, owner.email, owner.password);
    await expect(page.getByRole("heading", { level: 1, name: "Home" })).toBeVisible();
    await page.goto("/invoices/new");
    const modes = page.getByRole("navigation", { name: "How to create the invoice" });
    await expect(modes.getByRole("link", { name: "Advanced: API request" })).toHaveAttribute("aria-current", "page");
    await tabTo(page, modes.getByRole("link", { name: "Payment link" }));
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/invoices\/new\/link$/);
    const form = page.getByRole("form", { name: "Payment link" });
    await expect(form).toBeVisible();
    // Plain words only: the developer fields are under Advanced.
    await expect(form.getByLabel("reference_id")).toHaveCount(0);
    await expect(form.getByText("commerce_account")).toHaveCount(0);

    const email = `buyer-${randomBytes(4).toString("hex")}@example.com`;
    const before = await invoiceCount(page);
    // A bad e-mail is named, focused, and nothing is created.
    await tabTo(page, form.getByLabel("Amount"));
    await page.keyboard.type("25.00");
    await tabTo(page, form.getByLabel("Currency"));
    await page.keyboard.type("EUR");
    await tabTo(page, form.getByLabel("What it is for"));
    await page.keyboard.type("Order 1042: two blue mugs");
    await tabTo(page, form.getByLabel("Customer's e-mail"));
    await page.keyboard.type("not-an-address");
    await page.keyboard.press("Enter");
    await expect(form.getByText("Enter an e-mail address such as ada@example.com")).toBeVisible();
    await expect(form.getByLabel("Customer's e-mail")).toBeFocused();
    expect(await invoiceCount(page)).toBe(before);

    await page.keyboard.press("ControlOrMeta+A");
    await page.keyboard.type(email);
    await page.keyboard.press("Enter");
    const result = page.getByTestId("payment-link-result");
    await expect(result.getByRole("heading", { name: /Payment link for 25\.00 EUR/ })).toBeFocused();
    await expect(result.getByTestId("payment-link-mail")).toHaveText(`E-mailed to ${email}.`);
    const url = await result.getByTestId("payment-link-url").textContent();
    expect(url).toMatch(/\/pay\/cpi_[\w-]+$/);
    await expect(result.getByRole("img", { name: "QR code of the payment link for 25.00 EUR" })).toBeVisible();
    expect(await invoiceCount(page)).toBe(before + 1);

    // Copy, by keyboard.
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
    await tabTo(page, result.getByRole("button", { name: "Copy payment link" }));
    await page.keyboard.press("Enter");
    await expect(result.getByTestId("copy-status")).toHaveText("Copied");
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);

    // Nothing is wider than the screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await expectNoSeriousViolations(page);

    // The customer's e-mail holds the same link, which opens the hosted page with the description.
    await page.goto("/outbox");
    const message = page.getByTestId("outbox-message").filter({ has: page.getByTestId("outbox-to").getByText(email, { exact: true }) });
    await expect(message).toContainText("Order 1042: two blue mugs");
    await expect(message.locator(`a[href="${url}"]`)).toHaveCount(1);
    const customer = await browser.newContext();
    const payer = await customer.newPage();
    await payer.goto(new URL(url!).pathname);
    await expect(payer.getByTestId("pay-amount")).toHaveText("25.00 EUR");
    await expect(payer.getByTestId("pay-description")).toHaveText("Order 1042: two blue mugs");
    await customer.close();
  });
}
