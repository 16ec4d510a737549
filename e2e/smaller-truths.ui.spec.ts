import { randomBytes } from "node:crypto";
import { expect, test } from "@playwright/test";
import { payoutExample } from "../tests/fixtures/invoices";
import { sampleCredentials } from "../lib/providers/server/sample-credentials";
import { createApiKey, signUp } from "./support/accounts";
import { apiHeaders as headers } from "./support/connections";

/**
 * Small things the dashboard said that were not true, at desktop and phone widths: the webhook URL
 * error against the field's help, where invitations go without a mail server, and a processed
 * payout's page (no cancel to ask for; its timeline says payout). Forms with the keyboard alone.
 */
for (const [width, height, name] of [
  [1280, 900, "desktop"],
  [390, 844, "phone"],
] as const) {
  test(`the webhook URL error names what the field's help allows, keyboard only (${name})`, async ({ browser }) => {
    const page = await (await browser.newContext({ viewport: { width, height } })).newPage();
    await signUp(page);

    // The URL error names what the help allows (http:// too, where this server takes it), keyboard only.
    await page.goto("/webhooks");
    const form = page.getByRole("form", { name: "Add endpoint" });
    await expect(form).toBeVisible();
    const url = form.getByLabel("Endpoint URL");
    await url.focus();
    await page.keyboard.type("ftp://127.0.0.1:4000/hooks");
    await form.getByRole("button", { name: "Add endpoint" }).focus();
    await page.keyboard.press("Enter");
    await expect(url).toHaveAttribute("aria-invalid", "true");
    const error = page.locator(`[id="${await url.getAttribute("id")}-error"]`);
    await expect(error).toHaveText("Endpoint URL must start with https:// or http:// (the field's help says which this server accepts)");
    await expect(page.locator(`[id="${await url.getAttribute("id")}-help"]`)).toContainText("http://");
  });

  test(`the Team page says where invitations go without a mail server (${name})`, async ({ browser }) => {
    const page = await (await browser.newContext({ viewport: { width, height } })).newPage();
    await signUp(page);
    // No SMTP_URL here: the invitation's e-mail waits on the Outbox page, and the page says so.
    await page.goto("/team");
    const delivery = page.getByTestId("invite-delivery");
    await expect(delivery).toContainText("No mail server is set up (SMTP_URL)");
    await expect(delivery.getByRole("link", { name: "Outbox" })).toHaveAttribute("href", "/outbox");
  });

  test(`a processed payout's page offers no cancel and its timeline says payout (${name})`, async ({ browser }) => {
    const page = await (await browser.newContext({ viewport: { width, height } })).newPage();
    const account = await signUp(page);
    const apiKey = await createApiKey(page);
    // A payout the provider paid: nothing can cancel it any more, and its timeline says payout.
    const connection = await page.request.post("/api/connections", {
      headers: headers(apiKey),
      data: {
        data: {
          type: "connection",
          attributes: {
            provider: "provider-a",
            kind: "h2h",
            label: `A ${randomBytes(3).toString("hex")}`,
            mode: "test",
            credentials: sampleCredentials("provider-a", "h2h", "test"),
          },
        },
      },
    });
    expect(connection.status(), await connection.text()).toBe(201);
    const created = await page.request.post("/api/commerce/payout-invoices", {
      headers: headers(apiKey),
      data: payoutExample({ commerce_account: account.commerceAccount, reference_id: `truths-${randomBytes(6).toString("hex")}` }),
    });
    expect(created.status(), await created.text()).toBe(201);
    const payout = (await created.json()).data as { id: string; attributes: { status: string } };
    expect(payout.attributes.status).toBe("processed");
    await page.goto(`/invoices/${payout.id}`);
    await expect(page.getByTestId("invoice-status")).toHaveText("processed");
    await expect(page.getByTestId("invoice-live")).toHaveText("Final: this invoice will not change any more.");
    await expect(page.getByTestId("invoice-cancel")).toHaveCount(0);
    const timeline = page.getByTestId("invoice-timeline");
    await expect(timeline).toContainText("payout request");
    await expect(timeline).not.toContainText("payment");
  });
}

for (const [width, height, name] of [
  [1280, 900, "desktop"],
  [390, 844, "phone"],
] as const) {
  test(`the Live view's setup checklist counts live connections and keys only (${name})`, async ({ browser }) => {
    const page = await (await browser.newContext({ viewport: { width, height } })).newPage();
    await signUp(page);
    const apiKey = await createApiKey(page);
    const connection = await page.request.post("/api/connections", {
      headers: headers(apiKey),
      data: {
        data: {
          type: "connection",
          attributes: {
            provider: "provider-a",
            kind: "h2h",
            label: `A ${randomBytes(3).toString("hex")}`,
            mode: "test",
            credentials: sampleCredentials("provider-a", "h2h", "test"),
          },
        },
      },
    });
    expect(connection.status(), await connection.text()).toBe(201);
    await page.goto("/home");
    await expect(page.getByTestId("setup-step-connected")).toContainText("Done");
    await expect(page.getByTestId("setup-step-apiKey")).toContainText("Done");
    // The Test/Live switch, from the keyboard.
    const viewSwitch = page.getByRole("button", { name: "Test mode" });
    await viewSwitch.focus();
    await page.keyboard.press("Space");
    await expect(viewSwitch).toHaveAttribute("aria-pressed", "false");
    await expect(page.getByTestId("setup-step-connected")).toContainText("To do");
    await expect(page.getByTestId("setup-step-connected")).toContainText("counts live connections");
    await expect(page.getByTestId("setup-step-apiKey")).toContainText("To do");
    await expect(page.getByTestId("setup-progress")).toHaveText("0 of 5 steps done");
  });
}

for (const [width, height, name] of [
  [1280, 900, "desktop"],
  [390, 844, "phone"],
] as const) {
  test(`the rule editor refuses a lowest amount above the highest and an unknown country as they are typed, keyboard only (${name})`, async ({ browser }) => {
    const page = await (await browser.newContext({ viewport: { width, height } })).newPage();
    await signUp(page);
    const apiKey = await createApiKey(page);
    const connection = await page.request.post("/api/connections", {
      headers: headers(apiKey),
      data: {
        data: {
          type: "connection",
          attributes: {
            provider: "provider-b",
            kind: "h2h",
            label: `B ${randomBytes(3).toString("hex")}`,
            mode: "test",
            credentials: sampleCredentials("provider-b", "h2h", "test"),
          },
        },
      },
    });
    expect(connection.status(), await connection.text()).toBe(201);
    await page.goto("/routing");
    const list = page.locator('[data-testid="routing-order"][data-order-id="payment_card_eur_hpp:test"]');
    await list.getByRole("button", { name: "Add a rule" }).focus();
    await page.keyboard.press("Enter");
    const form = list.getByRole("form", { name: "New rule" });
    await expect(form.getByLabel("Rule name")).toBeFocused();
    await page.keyboard.type("Big");
    const min = form.getByLabel("Amount at least (EUR)");
    const max = form.getByLabel("Amount at most (EUR)");
    await min.focus();
    await page.keyboard.type("200.00");
    await max.focus();
    await page.keyboard.type("100.00");
    // Said while typing, before Add this rule is pressed.
    await expect(max).toHaveAttribute("aria-invalid", "true");
    await expect(form.getByTestId("rule-max-error")).toHaveText("The lowest amount 200.00 is above the highest 100.00, so the rule would match nothing");
    await page.keyboard.press("ControlOrMeta+a");
    await page.keyboard.type("300.00");
    await expect(max).not.toHaveAttribute("aria-invalid", "true");
    await expect(form.getByTestId("rule-max-error")).toHaveCount(0);
    const countries = form.getByLabel("Customer country is one of");
    await countries.focus();
    await page.keyboard.type("FR, XX");
    await expect(countries).toHaveAttribute("aria-invalid", "true");
    await expect(form.getByTestId("rule-customer-error")).toHaveText("XX is not an ISO 3166-1 country code (such as GB, FR or DE)");
    // Add this rule keeps the form, with the problem said again.
    await form.getByRole("button", { name: "Add this rule" }).focus();
    await page.keyboard.press("Enter");
    await expect(form).toBeVisible();
    await expect(list.getByTestId("routing-rule")).toHaveCount(0);
  });
}

test("on a phone the overview's wide table scrolls inside its region, with a visible hint; on a desktop no hint", async ({ browser }) => {
  const page = await (await browser.newContext({ viewport: { width: 390, height: 844 } })).newPage();
  await signUp(page);
  const apiKey = await createApiKey(page);
  const connection = await page.request.post("/api/connections", {
    headers: headers(apiKey),
    data: {
      data: {
        type: "connection",
        attributes: {
          provider: "provider-b",
          kind: "h2h",
          label: `B ${randomBytes(3).toString("hex")}`,
          mode: "test",
          credentials: sampleCredentials("provider-b", "h2h", "test"),
        },
      },
    },
  });
  expect(connection.status(), await connection.text()).toBe(201);
  await page.goto("/home");
  const region = page.getByRole("region", { name: "Connections table (scrolls sideways on narrow screens)" });
  await expect(region.getByTestId("overview-connections")).toBeVisible();
  const hint = page.getByTestId("scroll-hint");
  await expect(hint.first()).toBeVisible();
  await expect(hint.first()).toHaveText("Scroll sideways for every column →");
  // The table is wider than the phone and scrolls inside its region; the page itself does not.
  expect(await region.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.setViewportSize({ width: 1280, height: 900 });
  await expect(hint.first()).toBeHidden();
});

for (const [width, height, name] of [
  [1280, 900, "desktop"],
  [390, 844, "phone"],
] as const) {
  test(`the focus lands on the new content after Connect and after Save on a connection's forms, keyboard only (${name})`, async ({ browser }) => {
    const page = await (await browser.newContext({ viewport: { width, height } })).newPage();
    await signUp(page);
    const apiKey = await createApiKey(page);
    const created = await page.request.post("/api/connections", {
      headers: headers(apiKey),
      data: {
        data: {
          type: "connection",
          attributes: {
            provider: "provider-b",
            kind: "h2h",
            label: `B ${randomBytes(3).toString("hex")}`,
            mode: "test",
            credentials: sampleCredentials("provider-b", "h2h", "test"),
          },
        },
      },
    });
    expect(created.status(), await created.text()).toBe(201);
    const connectionId = (await created.json()).data.id as string;

    // Connect: the button goes and the form's first field (the connection kind) takes the focus.
    await page.goto("/providers/provider-b");
    await page.getByRole("button", { name: "Connect" }).focus();
    await page.keyboard.press("Enter");
    await expect(page.getByRole("radio", { name: /^H2H merchant account/ })).toBeFocused();

    // Save on the edit form: its confirmation takes the focus.
    await page.goto(`/connections/${connectionId}`);
    const edit = page.getByRole("form", { name: "Edit connection" });
    await edit.getByLabel(/^Label/).focus();
    await page.keyboard.press("End");
    await page.keyboard.type(" renamed");
    await page.keyboard.press("Enter");
    await expect(edit.getByRole("status").filter({ hasText: "Changes saved." })).toBeFocused();

    // Save on the constants form: its confirmation takes the focus.
    const constants = page.getByRole("form", { name: "Connection constants" });
    await constants.getByLabel("Customer city", { exact: true }).focus();
    await page.keyboard.type("Berlin");
    await page.keyboard.press("Enter");
    const saved = constants.getByRole("status").filter({ hasText: "Constants saved." });
    await expect(saved).toBeVisible();
    await expect(saved).toBeFocused();
  });
}
