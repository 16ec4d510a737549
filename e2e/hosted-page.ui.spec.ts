import { randomBytes } from "node:crypto";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { merchantWithKey, signIn } from "./support/accounts";
import { expectNoSeriousViolations } from "./support/axe";
import { screenshot, screenshotsDir } from "./support/screenshots";

/**
 * The hosted payment page for Provider B (the simplest provider): a test-mode invoice
 * created through the API is paid on /pay/{id} in a real browser, signed out, through B's
 * adapter and its sandbox on this server: the test cards, 3-D Secure pass and fail, partial
 * capture, the return link, no second payment, and a page nobody may frame.
 */
const JSON_API = { "Content-Type": "application/vnd.api+json" };
const RETURN_URL = "https://shop.example.com/thanks";

let apiKey = "";
let commerceAccount = "";
let merchantName = "";
let owner = { email: "", password: "" };

test.beforeAll(async ({ browser, request }) => {
  const merchant = await merchantWithKey(browser);
  apiKey = merchant.apiKey;
  commerceAccount = merchant.commerceAccount;
  merchantName = `${merchant.name} Ltd`;
  owner = { email: merchant.email, password: merchant.password };
  const connection = await request.post("/api/connections", {
    headers: { Authorization: `Bearer ${apiKey}`, ...JSON_API },
    data: {
      data: {
        type: "connection",
        attributes: {
          provider: "provider-b",
          kind: "h2h",
          label: "B hosted page",
          mode: "test",
          credentials: { terminal_id: `TERM-${randomBytes(3).toString("hex")}`, secret_key: randomBytes(18).toString("base64url"), currency: "EUR" },
          constants: {},
        },
      },
    },
  });
  expect(connection.status()).toBe(201);
});

async function newInvoice(request: APIRequestContext, attributes: Record<string, unknown> = {}): Promise<string> {
  const response = await request.post("/api/commerce/payment-invoices", {
    headers: { Authorization: `Bearer ${apiKey}`, ...JSON_API },
    data: {
      data: {
        type: "payment-invoice",
        attributes: {
          service: "payment_card_eur_hpp",
          commerce_account: commerceAccount,
          currency: "EUR",
          amount: "100.50",
          reference_id: `hpp-${randomBytes(6).toString("hex")}`,
          flow: "charge",
          test_mode: true,
          return_url: RETURN_URL,
          ...attributes,
        },
      },
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  const invoice = (await response.json()).data;
  const hppUrl = new URL(invoice.attributes.hpp_url);
  expect(hppUrl.pathname).toBe(`/pay/${invoice.id}`);
  return hppUrl.pathname;
}

async function pickTestCard(page: Page, digits: string) {
  await page.getByRole("button", { name: new RegExp(digits.replace(/(\d{4})(?=\d)/g, "$1 ")) }).click();
  await expect(page.getByLabel("Card number")).toHaveValue(digits.replace(/(\d{4})(?=\d)/g, "$1 "));
}

async function payWith(page: Page, digits: string) {
  await pickTestCard(page, digits);
  await page.getByRole("button", { name: "Pay", exact: true }).click();
}

const result = (page: Page) => page.getByTestId("pay-result");

test("4242 pays on the public page: merchant and amount, result announced, return link, no second payment, not frameable", async ({ page }) => {
  const path = await newInvoice(page.request);
  const response = await page.goto(path);
  expect(response?.status()).toBe(200);
  expect(response?.headers()["content-security-policy"]).toContain("frame-ancestors 'none'");
  expect(response?.headers()["x-frame-options"]).toBe("DENY");
  await expect(page).toHaveURL(path);
  await expect(page.getByText(`Pay ${merchantName}`)).toBeVisible();
  await expect(page.getByTestId("pay-amount")).toHaveText("100.50 EUR");
  for (const label of ["Card number", "Expiry date", "CVC", "Cardholder name"]) await expect(page.getByLabel(label)).toBeVisible();
  await expect(page.getByRole("heading", { name: "Test cards" })).toBeVisible();
  await expectNoSeriousViolations(page);
  if (screenshotsDir()) {
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
      await screenshot(page, `pay-${width}`, { fullPage: true });
    }
  }

  await page.getByLabel("Cardholder name").fill("Ada Lovelace");
  await payWith(page, "4242424242424242");
  await expect(result(page)).toContainText("Payment received");
  await expect(result(page)).toContainText(`100.50 EUR was paid to ${merchantName}`);
  await expect(page.getByTestId("pay-status")).toHaveAttribute("aria-live", "polite");
  await expect(page.getByRole("button", { name: "Pay", exact: true })).toHaveCount(0);
  await expect(page.getByTestId("return-link")).toHaveAttribute("href", RETURN_URL);
  await expect(page.getByTestId("return-link")).toHaveText(`Return to ${merchantName}`);
  await screenshot(page, "pay-390-paid", { fullPage: true });

  await page.reload();
  await expect(result(page)).toContainText("Payment received");
  await expect(page.getByLabel("Card number")).toHaveCount(0);
  expect(await page.content()).not.toContain("4242424242424242");
});

test("a declined card says why and leaves the form for another card", async ({ page }) => {
  await page.goto(await newInvoice(page.request));
  await page.getByLabel("Cardholder name").fill("Ada Lovelace");
  await payWith(page, "4000000000000002");
  await expect(result(page)).toContainText("Payment declined");
  await expect(result(page)).toContainText("Your bank declined the payment.");
  await expect(page.getByRole("button", { name: "Pay", exact: true })).toBeVisible();
  await expect(page.getByLabel("Card number")).toHaveValue("");
  if (screenshotsDir()) {
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, "pay-390-declined", { fullPage: true });
  }
});

test("the provider being unavailable asks to try again later", async ({ page }) => {
  await page.goto(await newInvoice(page.request));
  await payWith(page, "4000000000000119");
  await expect(result(page)).toContainText("Please try again later");
});

test("insufficient funds is said in plain words", async ({ page }) => {
  await page.goto(await newInvoice(page.request));
  await payWith(page, "4000000000009995");
  await expect(result(page)).toContainText("The card does not have enough funds for this payment.");
});

test("an amount ending in .77 with allow_partially is partly paid, with the amount", async ({ page }) => {
  await page.goto(await newInvoice(page.request, { amount: "100.77", options: { allow_partially: true } }));
  await payWith(page, "4242424242424242");
  await expect(result(page)).toContainText("Partly paid");
  await expect(result(page)).toContainText("75.57 EUR of 100.77 EUR");
});

test("3-D Secure passed on the sandbox page brings the customer back to a paid invoice", async ({ page }) => {
  const path = await newInvoice(page.request);
  await page.goto(path);
  await payWith(page, "4000000000003220");
  await expect(page.getByRole("heading", { name: "Confirm your payment" })).toBeVisible();
  expect(new URL(page.url()).pathname).toMatch(/^\/sandbox\/3ds\/provider-b\//);
  await screenshot(page, "pay-3ds", { fullPage: true });
  await page.getByRole("button", { name: "Pass", exact: true }).click();
  await expect(result(page)).toContainText("Payment received");
  expect(new URL(page.url()).pathname).toBe(path);
});

test("3-D Secure failed ends declined with the reason", async ({ page }) => {
  await page.goto(await newInvoice(page.request));
  await payWith(page, "4000000000003220");
  await expect(page.getByRole("heading", { name: "Confirm your payment" })).toBeVisible();
  await page.getByRole("button", { name: "Fail", exact: true }).click();
  await expect(result(page)).toContainText("The 3-D Secure check was not passed.");
});

test("the form says what is wrong on each field and moves focus to the first", async ({ page }) => {
  await page.goto(await newInvoice(page.request));
  await page.getByLabel("Card number").fill("4242 4242 4242 4241");
  await page.getByLabel("Expiry date").fill("01/20");
  await page.getByRole("button", { name: "Pay", exact: true }).click();
  await expect(page.getByLabel("Card number")).toBeFocused();
  await expect(page.getByLabel("Card number")).toHaveAttribute("aria-invalid", "true");
  await expect(page.locator("#pay-number-error")).toHaveText("This card number is not valid: check the digits.");
  await expect(page.locator("#pay-expiry-error")).toHaveText("This card has expired.");
  await expect(page.locator("#pay-cvc-error")).toHaveText("Enter the 3 or 4 digit CVC.");
  await expect(page.locator("#pay-holder-error")).toHaveText("Enter the name on the card (2 to 100 characters).");
});

test("the test cards are reachable by keyboard", async ({ page }) => {
  await page.goto(await newInvoice(page.request));
  await page.getByLabel("Cardholder name").focus();
  // From the last field: Pay, the return link, then the first test card.
  for (let step = 0; step < 3; step++) await page.keyboard.press("Tab");
  await expect(page.getByRole("button", { name: /4242 4242 4242 4242/ })).toBeFocused();
  if (screenshotsDir()) {
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, "pay-390-focus", { fullPage: true });
  }
  await page.keyboard.press("Enter");
  await expect(page.getByLabel("Card number")).toHaveValue("4242 4242 4242 4242");
  await expect(page.getByLabel("CVC")).toHaveValue("123");
});

test("Pay shows its pending state while the payment is sent, and the page's own script stays small", async ({ page }) => {
  const path = await newInvoice(page.request);
  const scripts: string[] = [];
  const encodings = new Map<string, string | undefined>();
  page.on("response", async (response) => {
    const type = response.request().resourceType();
    if (type === "script") scripts.push(new URL(response.url()).pathname);
    if (type === "script" || type === "stylesheet") encodings.set(type, (await response.allHeaders())["content-encoding"]);
  });
  await page.goto(path);
  // One script of the page's own, not the framework's: the page is for phones.
  expect(scripts).toHaveLength(1);
  expect(scripts[0]).toMatch(/^\/pay\/assets\/pay-[0-9a-f]{16}\.js$/);
  // Both files come compressed (the browser accepts brotli).
  await expect.poll(() => [encodings.get("script"), encodings.get("stylesheet")]).toEqual(["br", "br"]);
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/pay/*/pay", async (route) => {
    await held;
    await route.continue();
  });
  await page.getByLabel("Cardholder name").fill("Ada Lovelace");
  await payWith(page, "4242424242424242");
  const pending = page.getByRole("button", { name: "Paying…" });
  await expect(pending).toBeDisabled();
  await expect(pending).toHaveAttribute("aria-busy", "true");
  await expect(page.getByRole("button", { name: /4242 4242 4242 4242/ })).toBeDisabled();
  release();
  await expect(result(page)).toContainText("Payment received");
  await expect(page.getByTestId("pay-status")).toBeFocused();
});

test("without JavaScript the form still says what is wrong, keeps the name, and pays", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  const path = await newInvoice(page.request);
  await page.goto(path);
  await page.getByLabel("Card number").fill("4242 4242 4242 4242");
  await page.getByLabel("Expiry date").fill("13/30");
  await page.getByLabel("CVC").fill("123");
  await page.getByLabel("Cardholder name").fill("Ada Lovelace");
  await page.getByRole("button", { name: "Pay", exact: true }).click();
  await expect(page.locator("#pay-expiry-error")).toHaveText("Enter the expiry date as MM/YY, e.g. 04/29.");
  await expect(page.getByLabel("Expiry date")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByLabel("Cardholder name")).toHaveValue("Ada Lovelace");
  await expect(page.getByLabel("Card number")).toHaveValue("");

  await page.getByLabel("Card number").fill("4242 4242 4242 4242");
  await page.getByLabel("Expiry date").fill("12/30");
  await page.getByLabel("CVC").fill("123");
  await page.getByRole("button", { name: "Pay", exact: true }).click();
  await expect(result(page)).toContainText("Payment received");
  expect(new URL(page.url()).pathname).toBe(path);
  await context.close();
});

test("an unknown invoice id is a plain not-found page, without sign-in", async ({ page }) => {
  await page.goto("/pay/cpi_doesnotexist0000000000");
  await expect(page).toHaveURL(/\/pay\/cpi_doesnotexist/);
  await expect(page.getByTestId("pay-not-found")).toBeVisible();
});

test("after a hosted payment the owner's invoice page shows the attempt, and no page shows the card number", async ({ page, browser }) => {
  const path = await newInvoice(page.request);
  await page.goto(path);
  await payWith(page, "4242424242424242");
  await expect(result(page)).toContainText("Payment received");

  const context = await browser.newContext();
  const dashboard = await context.newPage();
  await signIn(dashboard, owner.email, owner.password);
  await expect(dashboard.getByRole("heading", { level: 1, name: "Home" })).toBeVisible();
  await dashboard.goto(`/invoices/${path.split("/").pop()}`);
  const attempt = dashboard.getByTestId("invoice-attempt");
  await expect(attempt).toHaveCount(1);
  await expect(attempt).toContainText("Attempt 1");
  await expect(attempt).toContainText("B hosted page");
  await dashboard.getByText(/^Provider log/).click();
  expect(await dashboard.content()).not.toContain("4242424242424242");
  await context.close();
});
