import { expect, test } from "@playwright/test";
import { dateInTimeZone } from "../lib/time-zones";
import { merchantWithKey, signIn } from "./support/accounts";
import { oneEurInvoice } from "./support/connections";
import { screenshot } from "./support/screenshots";

/**
 * The invoice list's From and To are days of the zone in force, at 1280 and 390 px: with a person's
 * zone set on Settings, an invoice is listed under the day it was made on that zone's calendar, and
 * not under its UTC day. The zone is one whose date differs from UTC's at the invoice's moment
 * (14 hours ahead from 10:00 UTC on, else 11 hours behind), so the test shows the boundary at any hour.
 */
let owner = { email: "", password: "" };
let invoice = { id: "", created: new Date(0) };

test.beforeAll(async ({ browser, request }) => {
  const merchant = await merchantWithKey(browser);
  owner = { email: merchant.email, password: merchant.password };
  const made = await oneEurInvoice(request, merchant, "B days");
  invoice = { id: made.id, created: new Date(made.created) };
});

for (const width of [1280, 390]) {
  test(`the invoice list's days are the person's zone's days at ${width} px`, async ({ page }) => {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    const zone = invoice.created.getUTCHours() >= 10 ? "Pacific/Kiritimati" : "Pacific/Pago_Pago";
    const zoneDay = dateInTimeZone(invoice.created, zone);
    const utcDay = invoice.created.toISOString().slice(0, 10);
    expect(zoneDay).not.toBe(utcDay);

    await signIn(page, owner.email, owner.password);
    await expect(page.getByRole("heading", { level: 1, name: "Home" })).toBeVisible();
    await page.goto("/settings");
    const yours = page.getByRole("form", { name: "Your time zone" });
    await yours.getByLabel("Your time zone").fill(zone);
    await yours.getByRole("button", { name: "Save your time zone" }).click();
    await expect(yours.getByRole("status")).toHaveText(`Saved: you see times in ${zone}.`);

    const rows = page.locator(`[data-testid="invoice-row"][data-invoice-id="${invoice.id}"]`);
    for (const [day, listed] of [
      [zoneDay, 1],
      [utcDay, 0],
    ] as const) {
      await page.goto("/invoices");
      if (width === 390) {
        // The filters fold behind their button on a phone. A press that lands before the page's
        // script listens opens nothing, and a person presses again: so does this test, until open.
        const toggle = page.getByRole("button", { name: /^Filters/ });
        await expect(async () => {
          if ((await toggle.getAttribute("aria-expanded")) !== "true") await toggle.click();
          await expect(toggle).toHaveAttribute("aria-expanded", "true", { timeout: 1_000 });
        }).toPass();
      }
      const form = page.getByRole("form", { name: "Filter invoices" });
      await expect(form.getByText(`Days in ${zone}, both included`)).toBeVisible();
      await form.getByLabel("Created from").fill(day);
      await form.getByLabel("Created to").fill(day);
      await form.getByRole("button", { name: "Apply filters" }).click();
      await expect(page).toHaveURL(new RegExp(`from=${day}&to=${day}`));
      await expect(rows, `${day} in ${zone}`).toHaveCount(listed);
      if (listed) await screenshot(page, `invoice-filter-zone-${width}`, { fullPage: true });
    }
  });
}
