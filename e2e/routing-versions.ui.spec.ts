import { randomBytes } from "node:crypto";
import { expect, test, type Page } from "@playwright/test";
import { createApiKey, signIn, signUp } from "./support/accounts";
import { expectNoSeriousViolations } from "./support/axe";
import { connectByApi as connect, apiHeaders as headers } from "./support/connections";
import { inviteMember } from "./support/mail";
import { screenshot } from "./support/screenshots";

/**
 * The routing order's versions on the Routing page with the keyboard alone, at desktop and phone widths:
 * an owner saves a rule, then a new order, then removes the rule; opens the history, compares two
 * versions (sentences), rolls back to the first after a confirmation that says what will change,
 * sees the editors show the first version again, and finds the rollback in the audit log.
 */
// Each test signs up a merchant of its own, so they run side by side on both workers (in serial mode
// they held one worker for minutes while the other finished its share).

/** Tab (forward) until the element is focused: what a keyboard user does to reach it. */
async function tabTo(page: Page, target: ReturnType<Page["locator"]>, limit = 80) {
  for (let i = 0; i < limit; i += 1) {
    if (await target.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press("Tab");
  }
  throw new Error("could not reach the control with Tab");
}

/** The element's focus ring is visible: an outline or a box shadow. */
async function expectVisibleFocus(page: Page) {
  const ring = await page.evaluate(() => {
    const style = getComputedStyle(document.activeElement!);
    return { outline: style.outlineStyle !== "none" && style.outlineWidth !== "0px", shadow: style.boxShadow !== "none" };
  });
  expect(ring.outline || ring.shadow).toBe(true);
}

async function choose(page: Page, select: ReturnType<Page["locator"]>, value: string) {
  await select.focus();
  for (let i = 0; i < 30 && (await select.inputValue()) !== value; i += 1) await page.keyboard.press("ArrowUp");
  for (let i = 0; i < 30 && (await select.inputValue()) !== value; i += 1) await page.keyboard.press("ArrowDown");
  await expect(select).toHaveValue(value);
}

for (const [width, height, name] of [
  [1280, 900, "desktop"],
  [390, 844, "phone"],
] as const) {
  test(`an owner compares routing versions and rolls back to one, keyboard only (${name})`, async ({ browser, request }) => {
    test.setTimeout(180_000);
    const page = await (await browser.newContext({ viewport: { width, height } })).newPage();
    await signUp(page);
    const apiKey = await createApiKey(page);
    const run = randomBytes(3).toString("hex");
    const labels = { b: `B main ${run}`, f: `F France ${run}` };
    const ids = { b: await connect(request, apiKey, "provider-b", "h2h", labels.b), f: await connect(request, apiKey, "provider-f", "h2h", labels.f) };

    await page.goto("/routing");
    const list = page.locator('[data-testid="routing-order"][data-order-id="payment_card_eur_hpp:test"]');
    const history = page.locator('[data-testid="routing-history"][data-order-id="payment_card_eur_hpp:test"]');
    await expect(history).toContainText("No versions yet");

    // Version 1: a rule.
    await list.getByRole("button", { name: "Add a rule" }).focus();
    await page.keyboard.press("Enter");
    const form = list.getByRole("form", { name: "New rule" });
    await expect(form.getByLabel("Rule name")).toBeFocused();
    await page.keyboard.type("France");
    await form.getByLabel("Customer country is one of", { exact: true }).focus();
    await page.keyboard.type("FR");
    await choose(page, form.getByLabel("Try first"), ids.f);
    await form.getByRole("button", { name: "Add this rule" }).focus();
    await page.keyboard.press("Enter");
    await expect(list.getByRole("button", { name: "Edit rule France" })).toBeFocused();
    await list.getByRole("button", { name: "Save rules" }).focus();
    await page.keyboard.press("Enter");
    await expect(list.getByTestId("routing-rules-status")).toHaveText("Rules saved as version 1.");
    await expect(history.getByTestId("routing-version")).toHaveCount(1);

    // Version 2: F first in the routing order.
    await list.getByRole("button", { name: `Move ${labels.f} up` }).focus();
    await page.keyboard.press("Enter");
    await list.getByRole("button", { name: "Save order" }).focus();
    await page.keyboard.press("Enter");
    await expect(list.getByTestId("routing-status")).toContainText("Saved.");
    await expect(history.getByTestId("routing-version")).toHaveCount(2);

    // Version 3: the rule removed.
    await list.getByRole("button", { name: "Remove rule France" }).focus();
    await page.keyboard.press("Enter");
    // No rule left: the focus goes to Add a rule, not to the page's start.
    await expect(list.getByRole("button", { name: "Add a rule" })).toBeFocused();
    await list.getByRole("button", { name: "Save rules" }).focus();
    await page.keyboard.press("Enter");
    await expect(history.getByTestId("routing-version")).toHaveCount(3);
    await expect(list.getByTestId("routing-rule")).toHaveCount(0);

    // The history, newest first, with who and when; the latest compared with the one before by default.
    const versions = history.getByTestId("routing-version");
    await expect(versions.nth(0)).toContainText("Version 3");
    await expect(versions.nth(0)).toContainText("Current");
    await expect(versions.nth(0)).toContainText("Rule “France” removed");
    await expect(versions.nth(1)).toContainText(`“${labels.f}” moved to 1`);
    await expect(versions.nth(2)).toContainText("First save: 1 rule, then");
    await expect(versions.nth(0).locator("time")).toHaveAttribute("title", /UTC$/);
    const comparison = history.getByTestId("routing-comparison");
    await expect(comparison).toHaveText(`Rule 1 “France” removed (When customer in FR → ${labels.f}).`);

    // Compare version 1 with version 3, chosen with the keyboard.
    await choose(page, history.getByLabel("Older version"), "1");
    await choose(page, history.getByLabel("Newer version"), "3");
    const compare = history.getByRole("button", { name: "Compare" });
    await tabTo(page, compare);
    await expectVisibleFocus(page);
    await page.keyboard.press("Enter");
    await expect(history.getByRole("heading", { name: "From version 1 to version 3" })).toBeVisible();
    await expect(comparison.getByRole("listitem")).toHaveText([
      `Rule 1 “France” removed (When customer in FR → ${labels.f}).`,
      `“${labels.f}” moved from position 2 to 1 in the routing order.`,
    ]);
    await expectNoSeriousViolations(page);
    await screenshot(page, `history-compare-${name}`, { fullPage: true });

    // Roll back to version 1: the confirmation says what will change; Escape keeps the current version.
    const rollBack = history.getByRole("button", { name: "Roll back to version 1" });
    await tabTo(page, rollBack);
    await expectVisibleFocus(page);
    if (name === "phone") expect((await rollBack.boundingBox())!.height).toBeGreaterThanOrEqual(44);
    await page.keyboard.press("Enter");
    const dialog = history.getByRole("alertdialog", { name: "Roll back payment_card_eur_hpp (test) to version 1?" });
    await expect(dialog).toContainText("This saves a new version, 4, with version 1's rules and order. Compared with now:");
    await expect(dialog.getByRole("listitem")).toHaveText([
      `Rule 1 “France” added (When customer in FR → ${labels.f}).`,
      `“${labels.b}” moved from position 2 to 1 in the routing order.`,
    ]);
    await expect(dialog.getByRole("button", { name: "Roll back to version 1" })).toBeFocused();
    await expectNoSeriousViolations(page);
    await screenshot(page, `rollback-confirm-${name}`, { fullPage: true });
    await page.keyboard.press("Escape");
    await expect(dialog).toHaveCount(0);
    await expect(rollBack).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(dialog.getByRole("button", { name: "Roll back to version 1" })).toBeFocused();
    await page.keyboard.press("Enter");

    const status = history.getByTestId("routing-history-status");
    await expect(status).toHaveText("Rolled back to version 1 as version 4.");
    await expect(status).toBeFocused();
    // The editors' own "saved" lines spoke of what the rollback replaced: gone.
    await expect(list.getByTestId("routing-rules-status")).toHaveText("");
    await expect(list.getByTestId("routing-status")).toHaveText("");
    await expect(versions).toHaveCount(4);
    await expect(versions.nth(0)).toContainText("Rolled back to version 1");
    // The editors show version 1 again: the rule, and B before F.
    await expect(list.getByTestId("routing-rule")).toHaveCount(1);
    await expect(list.getByTestId("routing-rule")).toContainText(`When customer in FR → ${labels.f}`);
    await expect(list.locator("ol li[data-connection-id]")).toHaveCount(2);
    expect(await list.locator("ol li[data-connection-id]").evaluateAll((rows) => rows.map((row) => row.getAttribute("data-connection-id")))).toEqual([
      ids.b,
      ids.f,
    ]);
    await expectNoSeriousViolations(page);
    await screenshot(page, `rolled-back-${name}`, { fullPage: true });

    // The API sees the same history.
    const listed = await request.get("/api/routing/payment_card_eur_hpp:test/versions", { headers: headers(apiKey) });
    expect(
      (await listed.json()).data.map((v: { attributes: { version: number; restored_from: number | null } }) => [
        v.attributes.version,
        v.attributes.restored_from,
      ]),
    ).toEqual([
      [4, 1],
      [3, null],
      [2, null],
      [1, null],
    ]);

    // The audit log shows the rollback, under Routing.
    await page.goto("/audit-log?group=routing");
    const entry = page.getByTestId("audit-log").getByRole("listitem").filter({ hasText: "Routing rolled back to an earlier version" });
    await expect(entry).toHaveCount(1);
    await expect(entry).toContainText("payment_card_eur_hpp (test): rolled back to version 1 as version 4");
    await screenshot(page, `audit-log-${name}`, { fullPage: true });
    await page.context().close();
  });
}

for (const [width, height, name] of [
  [1280, 900, "desktop"],
  [390, 844, "phone"],
] as const) {
  test(`more versions than the history shows: Show older versions, compare the first with the latest, roll back to the first, keyboard only (${name})`, async ({
    browser,
    request,
  }) => {
    test.setTimeout(120_000);
    const page = await (await browser.newContext({ viewport: { width, height } })).newPage();
    await signUp(page);
    const apiKey = await createApiKey(page);
    const run = randomBytes(3).toString("hex");
    const b = await connect(request, apiKey, "provider-b", "h2h", `B main ${run}`);
    const f = await connect(request, apiKey, "provider-f", "h2h", `F France ${run}`);
    // 22 versions: odd ones F, B; even ones B, F (the order before any save).
    for (let version = 1; version <= 22; version += 1) {
      const connection_ids = version % 2 ? [f, b] : [b, f];
      const saved = await request.patch("/api/routing/payment_card_eur_hpp:test", {
        headers: headers(apiKey),
        data: { data: { type: "routing-order", attributes: { connection_ids } } },
      });
      expect(saved.status(), await saved.text()).toBe(200);
    }

    await page.goto("/routing");
    const history = page.locator('[data-testid="routing-history"][data-order-id="payment_card_eur_hpp:test"]');
    const versions = history.getByTestId("routing-version");
    await expect(versions).toHaveCount(20);
    await expect(history).toContainText("The 20 newest of 22 are shown.");
    await expect(history.getByLabel("Older version").locator("option")).toHaveCount(20);

    const older = history.getByRole("button", { name: "Show older versions" });
    await tabTo(page, older, 200);
    await expectVisibleFocus(page);
    if (name === "phone") expect((await older.boundingBox())!.height).toBeGreaterThanOrEqual(44);
    await page.keyboard.press("Enter");
    await expect(versions).toHaveCount(22);
    // The first version loaded takes the focus; none are left to load.
    await expect(history.locator('[data-version="2"]')).toBeFocused();
    await expect(older).toHaveCount(0);
    await expect(history).not.toContainText("newest of");
    await expect(versions.nth(21)).toContainText("Version 1");
    await expect(versions.nth(21)).toContainText(`First save: F France ${run}, B main ${run}`);
    await expectNoSeriousViolations(page);
    // The viewport: the first version loaded, focused and scrolled to.
    await screenshot(page, `routing-history-older-${name}`);

    // The versions loaded can be compared: the first against the latest.
    await choose(page, history.getByLabel("Older version"), "1");
    await choose(page, history.getByLabel("Newer version"), "22");
    await history.getByRole("button", { name: "Compare" }).focus();
    await page.keyboard.press("Enter");
    await expect(history.getByRole("heading", { name: "From version 1 to version 22" })).toBeVisible();
    await expect(history.getByTestId("routing-comparison")).toContainText(`“B main ${run}” moved from position 2 to 1 in the routing order.`);

    // And rolled back to: a new version 23; the history starts again from it.
    const rollBack = history.getByRole("button", { name: "Roll back to version 1", exact: true });
    await rollBack.focus();
    await page.keyboard.press("Enter");
    const dialog = history.getByRole("alertdialog", { name: "Roll back payment_card_eur_hpp (test) to version 1?" });
    await expect(dialog).toContainText("This saves a new version, 23, with version 1's rules and order.");
    await expectNoSeriousViolations(page);
    await page.keyboard.press("Enter");
    await expect(history.getByTestId("routing-history-status")).toHaveText("Rolled back to version 1 as version 23.");
    await expect(versions).toHaveCount(20);
    await expect(versions.nth(0)).toContainText("Rolled back to version 1");
    await expect(history).toContainText("The 20 newest of 23 are shown.");
    await page.context().close();
  });
}

test("a support member reads the history and compares versions, with no rollback", async ({ browser, request }) => {
  test.setTimeout(120_000);
  const page = await (await browser.newContext()).newPage();
  await signUp(page);
  const apiKey = await createApiKey(page);
  const run = randomBytes(3).toString("hex");
  const b = await connect(request, apiKey, "provider-b", "h2h", `B main ${run}`);
  const f = await connect(request, apiKey, "provider-f", "h2h", `F France ${run}`);
  for (const connection_ids of [
    [f, b],
    [b, f],
  ]) {
    const saved = await request.patch("/api/routing/payment_card_eur_hpp:test", {
      headers: headers(apiKey),
      data: { data: { type: "routing-order", attributes: { connection_ids } } },
    });
    expect(saved.status(), await saved.text()).toBe(200);
  }
  const email = `support-${run}@example.com`;
  await inviteMember(page, browser, { name: "Sam Support", email, role: "support" }, "support-pass-99");

  const support = await (await browser.newContext()).newPage();
  await signIn(support, email, "support-pass-99");
  await support.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Routing" }).click();
  const history = support.locator('[data-testid="routing-history"][data-order-id="payment_card_eur_hpp:test"]');
  await expect(history.getByTestId("routing-version")).toHaveCount(2);
  await expect(history.getByTestId("routing-version").first()).toContainText(/by API key /);
  await expect(history.getByTestId("routing-comparison")).toHaveText(`“B main ${run}” moved from position 2 to 1 in the routing order.`);
  await expect(support.getByRole("button", { name: /^Roll back/ })).toHaveCount(0);
  await choose(support, history.getByLabel("Older version"), "2");
  await choose(support, history.getByLabel("Newer version"), "1");
  await history.getByRole("button", { name: "Compare" }).focus();
  await support.keyboard.press("Enter");
  await expect(history.getByLabel("Older version")).toHaveAccessibleDescription(
    "Version 2 comes after version 1: compare the older version (from) with the newer (to)",
  );
  await expectNoSeriousViolations(support);
  await page.context().close();
  await support.context().close();
});
