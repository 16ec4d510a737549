import { expect, test, type Locator, type Page } from "@playwright/test";
import { isoInTimeZone } from "../lib/time-zones";
import { merchantWithKey, signIn } from "./support/accounts";
import { oneEurInvoice } from "./support/connections";

/**
 * The merchant's time zone on Settings, keyboard only, at 1280 and 390 px: chosen from the list,
 * saved with Enter, kept after a reload, the invoice export's times written in it with the offset
 * (ISO 8601), and the dashboard's dates shown in it, named by the zone's short name.
 */
let owner = { email: "", password: "" };
/** One invoice's id and creation time as the API says it (UTC). */
let invoice = { id: "", created: "" };

test.beforeAll(async ({ browser, request }) => {
  const merchant = await merchantWithKey(browser);
  owner = { email: merchant.email, password: merchant.password };
  invoice = await oneEurInvoice(request, merchant, "B zone");
});

/** "6 Dec 2026, 07:23:00 GMT+5:30": the instant as the zone's clock, to the second, with the zone's short name. */
function inZone(iso: string, zone: string): string {
  const at = new Date(iso);
  const name = new Intl.DateTimeFormat("en-GB", { timeZone: zone, timeZoneName: "short" })
    .formatToParts(at)
    .find((part) => part.type === "timeZoneName")!.value;
  return `${new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "medium", timeZone: zone }).format(at)} ${name}`;
}

async function tabTo(page: Page, target: Locator) {
  for (let i = 0; i < 60; i++) {
    if (await target.evaluate((el) => el === document.activeElement)) break;
    await page.keyboard.press("Tab");
  }
  await expect(target).toBeFocused();
  expect(await target.evaluate((el) => el.matches(":focus-visible"))).toBe(true);
}

for (const [width, zone] of [
  [1280, "Asia/Kolkata"],
  [390, "America/New_York"],
] as const) {
  test(`an owner sets the merchant's time zone by keyboard at ${width} px and the export, the invoice page and the overview show times in it`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await signIn(page, owner.email, owner.password);
    await expect(page.getByRole("heading", { level: 1, name: "Home" })).toBeVisible();
    await page.goto("/settings");
    const form = page.getByRole("form", { name: "Time zone", exact: true });
    const field = form.getByLabel("Time zone", { exact: true });
    await expect(field).toHaveValue(/\w/);
    await tabTo(page, field);
    // A zone nobody knows is refused on the field, and nothing is saved.
    await page.keyboard.press("ControlOrMeta+A");
    await page.keyboard.type("Mars/Olympus");
    await page.keyboard.press("Enter");
    await expect(form.getByText("Choose a time zone from the list, e.g. Europe/Berlin")).toBeVisible();
    await expect(field).toBeFocused();
    await page.keyboard.press("ControlOrMeta+A");
    await page.keyboard.type(zone);
    await page.keyboard.press("Escape");
    await page.keyboard.press("Tab");
    await expect(form.getByRole("button", { name: "Save time zone" })).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(form.getByRole("status")).toHaveText(`Saved: the export writes times in ${zone}.`);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);

    await page.reload();
    await expect(page.getByRole("form", { name: "Time zone", exact: true }).getByLabel("Time zone", { exact: true })).toHaveValue(zone);
    // The same instant the API names in UTC, written as the merchant's clock with the zone's offset then.
    const csv = await (await page.request.get("/api/dashboard/invoices/export")).text();
    const [header, ...rows] = csv
      .trim()
      .split("\r\n")
      .map((line) => line.split(","));
    const row = rows.find((cells) => cells[0] === invoice.id)!;
    const exported = row[header!.indexOf("created_at")]!;
    expect(exported).toBe(isoInTimeZone(new Date(invoice.created), zone));
    expect(exported).not.toMatch(/Z$|\+00:00$/);

    // The invoice page shows its times in the merchant's zone, not UTC.
    await page.goto(`/invoices/${invoice.id}`);
    const created = page.getByRole("definition").filter({ hasText: inZone(invoice.created, zone) });
    await expect(created.first()).toBeVisible();
    await expect(page.getByText(/\d{2}:\d{2}:\d{2} UTC/)).toHaveCount(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);

    // The overview's days are the zone's days, and it says so.
    await page.goto("/home");
    await expect(page.getByTestId("overview-period")).toContainText(`Last 7 days (${zone}) · hours and days in ${zone}`);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  });
}
