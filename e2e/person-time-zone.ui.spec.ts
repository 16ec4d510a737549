import { randomBytes } from "node:crypto";
import { expect, test, type Locator, type Page } from "@playwright/test";
import { merchantWithKey, signIn } from "./support/accounts";

/**
 * A person's own time zone under You on Settings, keyboard only, at 1280 and 390 px: a name nobody
 * knows is refused on the field, "Use this browser's zone" fills in the browser's (Asia/Tokyo here,
 * while the merchant stays on UTC), and the invoice page then shows its times in it.
 */
test.use({ timezoneId: "Asia/Tokyo" });

const JSON_API = { "Content-Type": "application/vnd.api+json" };

async function tabTo(page: Page, target: Locator) {
  for (let i = 0; i < 80; i++) {
    if (await target.evaluate((el) => el === document.activeElement)) break;
    await page.keyboard.press("Tab");
  }
  await expect(target).toBeFocused();
  expect(await target.evaluate((el) => el.matches(":focus-visible"))).toBe(true);
}

/** "6 Dec 2026, 10:53:00 GMT+9": the instant as the zone's clock, to the second, with the zone's short name. */
function inZone(iso: string, zone: string): string {
  const at = new Date(iso);
  const name = new Intl.DateTimeFormat("en-GB", { timeZone: zone, timeZoneName: "short" })
    .formatToParts(at)
    .find((part) => part.type === "timeZoneName")!.value;
  return `${new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "medium", timeZone: zone }).format(at)} ${name}`;
}

for (const width of [1280, 390]) {
  test(`a person sets their own time zone to the browser's by keyboard at ${width} px and the invoice page shows times in it`, async ({
    page,
    browser,
    request,
  }) => {
    const merchant = await merchantWithKey(browser);
    const auth = { Authorization: `Bearer ${merchant.apiKey}`, ...JSON_API };
    const credentials = { terminal_id: `TERM-${randomBytes(3).toString("hex")}`, secret_key: randomBytes(18).toString("base64url"), currency: "EUR" };
    const connection = await request.post("/api/connections", {
      headers: auth,
      data: {
        data: { type: "connection", attributes: { provider: "provider-b", kind: "h2h", label: "B person zone", mode: "test", credentials, constants: {} } },
      },
    });
    expect(connection.status()).toBe(201);
    const attributes = {
      service: "payment_card_eur_hpp",
      commerce_account: merchant.commerceAccount,
      currency: "EUR",
      amount: "10.00",
      reference_id: `ptz-${randomBytes(6).toString("hex")}`,
      flow: "charge",
      test_mode: true,
    };
    const created = await request.post("/api/commerce/payment-invoices", { headers: auth, data: { data: { type: "payment-invoice", attributes } } });
    expect(created.status()).toBe(201);
    const invoice = (await created.json()).data as { id: string; attributes: { created: string } };

    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await signIn(page, merchant.email, merchant.password);
    await expect(page.getByRole("heading", { level: 1, name: "Home" })).toBeVisible();
    await page.goto("/settings");
    const form = page.getByRole("form", { name: "Your time zone" });
    const field = form.getByLabel("Your time zone");
    await expect(field).toHaveValue("");
    await tabTo(page, field);
    await page.keyboard.type("Mars/Olympus");
    await page.keyboard.press("Enter");
    await expect(form.getByText("Choose a time zone from the list, e.g. Europe/Berlin, or leave it empty for the merchant's")).toBeVisible();
    await expect(field).toBeFocused();

    await tabTo(page, form.getByRole("button", { name: "Use this browser's zone" }));
    await page.keyboard.press("Enter");
    await expect(field).toHaveValue("Asia/Tokyo");
    await expect(field).toBeFocused();
    await tabTo(page, form.getByRole("button", { name: "Save your time zone" }));
    await page.keyboard.press("Enter");
    await expect(form.getByRole("status")).toHaveText("Saved: you see times in Asia/Tokyo.");
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);

    await page.goto(`/invoices/${invoice.id}`);
    await expect(
      page
        .getByRole("definition")
        .filter({ hasText: inZone(invoice.attributes.created, "Asia/Tokyo") })
        .first(),
    ).toBeVisible();
    await expect(page.getByText(/\d{2}:\d{2}:\d{2} UTC/)).toHaveCount(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  });
}
