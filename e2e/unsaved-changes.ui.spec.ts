import { randomBytes } from "node:crypto";
import { expect, test, type Dialog, type Page } from "@playwright/test";
import { sampleCredentials } from "../lib/providers/server/sample-credentials";
import { createApiKey, signUp } from "./support/accounts";
import { expectNoSeriousViolations } from "./support/axe";
import { waitForHydration } from "./support/dev-server";
import { screenshot } from "./support/screenshots";
import { liveControl } from "./support/forms-on-use";

/**
 * No lost work: a dashboard form with unsaved changes asks before they are lost (a nav link, Back,
 * the Test/Live switch: a Leave/Stay dialog; closing or reloading the tab: the browser's own
 * prompt), and asks nothing once saved. The routing order and a connection's edit form.
 */
test.use({ viewport: { width: 1280, height: 900 } });

const eurList = (page: Page) => page.locator('[data-testid="routing-order"][data-order-id="payment_card_eur_hpp:test"]');
const rowOrder = (page: Page) =>
  eurList(page)
    .getByTestId("routing-row")
    .evaluateAll((rows) => rows.map((row) => row.getAttribute("data-connection-id")));
const nav = (page: Page, name: string) => page.getByRole("navigation", { name: "Main" }).getByRole("link", { name, exact: true });
const question = (page: Page) => page.getByRole("alertdialog", { name: "Unsaved changes" });

/** Reloads and answers the browser's own prompt (if any) with `accept`; returns the prompt's type, or undefined when there was none. */
async function reloadAnswering(page: Page, accept: boolean): Promise<string | undefined> {
  let seen: string | undefined;
  const answer = (dialog: Dialog) => {
    seen = dialog.type();
    void (accept ? dialog.accept() : dialog.dismiss());
  };
  page.on("dialog", answer);
  await page.reload({ timeout: 3_000 }).catch(() => undefined);
  page.off("dialog", answer);
  return seen;
}

test("unsaved routing and connection edits ask before they are lost, and nothing is asked once saved", async ({ page, request }) => {
  test.setTimeout(90_000);
  await signUp(page);
  const apiKey = await createApiKey(page);
  const run = randomBytes(3).toString("hex");
  const ids: string[] = [];
  for (const [provider, label] of [
    ["provider-b", `B ${run}`],
    ["provider-f", `F ${run}`],
  ] as const) {
    const attributes = { provider, kind: "h2h", label, mode: "test", credentials: sampleCredentials(provider, "h2h", "test") };
    const response = await request.post("/api/connections", {
      headers: { Authorization: `Bearer ${apiKey}`, "Content-Type": "application/vnd.api+json" },
      data: { data: { type: "connection", attributes } },
    });
    expect(response.status(), await response.text()).toBe(201);
    ids.push((await response.json()).data.id as string);
  }

  // A changed routing order, not saved.
  await page.goto("/routing");
  await liveControl(eurList(page).getByRole("button", { name: `Move F ${run} up` }));
  await eurList(page)
    .getByRole("button", { name: `Move F ${run} up` })
    .click();
  await expect.poll(() => rowOrder(page)).toEqual([ids[1], ids[0]]);
  await expect(eurList(page)).toContainText("Unsaved changes");

  // A nav link asks; Stay keeps the edits, with focus back where it was.
  await nav(page, "Home").click();
  await expect(question(page)).toBeVisible();
  await expect(question(page)).toContainText("You have unsaved changes. Leave without saving?");
  await expect(question(page).getByRole("button", { name: "Stay" })).toBeFocused();
  await expectNoSeriousViolations(page);
  await screenshot(page, "unsaved-dialog-routing");
  await question(page).getByRole("button", { name: "Stay" }).click();
  await expect(question(page)).toHaveCount(0);
  await expect(page).toHaveURL(/\/routing$/);
  await expect.poll(() => rowOrder(page)).toEqual([ids[1], ids[0]]);
  await expect(nav(page, "Home")).toBeFocused();

  // Back asks too; Escape is Stay.
  await page.evaluate(() => history.back());
  await expect(question(page)).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(question(page)).toHaveCount(0);
  await expect(page).toHaveURL(/\/routing$/);
  await expect.poll(() => rowOrder(page)).toEqual([ids[1], ids[0]]);

  // The Test/Live switch would show other orders: it asks as well.
  await page.getByTestId("view-mode-switch").click();
  await expect(question(page)).toBeVisible();
  await question(page).getByRole("button", { name: "Stay" }).click();
  await expect(page.getByTestId("view-mode-switch")).toHaveAttribute("aria-pressed", "true");

  // Reloading gets the browser's own prompt; dismissed, the edits stay.
  expect(await reloadAnswering(page, false)).toBe("beforeunload");
  await expect.poll(() => rowOrder(page)).toEqual([ids[1], ids[0]]);

  // At 390 px the dialog fits the screen (Back opens it: the nav is behind the menu button there).
  await page.setViewportSize({ width: 390, height: 844 });
  await page.evaluate(() => history.back());
  await expect(question(page)).toBeVisible();
  const box = (await question(page).boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(390);
  await screenshot(page, "unsaved-dialog-routing-390");
  await question(page).getByRole("button", { name: "Stay" }).click();
  await page.setViewportSize({ width: 1280, height: 900 });

  // Leave goes where the link led, the edits dropped.
  await nav(page, "Home").click();
  await question(page).getByRole("button", { name: "Leave" }).click();
  await expect(page).toHaveURL(/\/home$/);
  await expect(page.getByRole("heading", { level: 1, name: "Home" })).toBeVisible();

  // Saved: nothing is asked, on reload or by a link.
  await nav(page, "Routing").click();
  await expect(page).toHaveURL(/\/routing$/);
  await expect.poll(() => rowOrder(page)).toEqual([ids[0], ids[1]]);
  await eurList(page)
    .getByRole("button", { name: `Move F ${run} up` })
    .click();
  await eurList(page).getByRole("button", { name: "Save order" }).click();
  await expect(eurList(page).getByTestId("routing-status")).toContainText("Saved.");
  expect(await reloadAnswering(page, true)).toBeUndefined();
  await expect.poll(() => rowOrder(page)).toEqual([ids[1], ids[0]]);
  await page.locator('[data-form-on-use="routing-order"][data-ready]').first().waitFor({ state: "attached" });
  await nav(page, "Home").click();
  await expect(page).toHaveURL(/\/home$/);
  await expect(question(page)).toHaveCount(0);

  // Another form: a connection's label, edited, then saved.
  await page.goto(`/connections/${ids[0]}`);
  const label = page.getByRole("form", { name: "Edit connection" }).getByLabel(/^Label/);
  await liveControl(label);
  await label.fill(`B renamed ${run}`);
  await nav(page, "Connections").click();
  await expect(question(page)).toBeVisible();
  await screenshot(page, "unsaved-dialog-connection");
  await question(page).getByRole("button", { name: "Stay" }).click();
  await expect(label).toHaveValue(`B renamed ${run}`);
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByRole("form", { name: "Edit connection" }).getByText("Changes saved.")).toBeVisible();
  await nav(page, "Connections").click();
  await expect(page).toHaveURL(/\/connections$/);
  await expect(question(page)).toHaveCount(0);
  await expect(page.getByRole("main").getByText(`B renamed ${run}`).first()).toBeVisible();

  // A settings switch ticked and not saved asks too; unticked again, there is nothing to lose.
  await page.goto("/settings");
  await waitForHydration(page, 'form[aria-label="Security settings"]');
  const requireMfa = page.getByLabel("Require two-factor authentication for owners");
  await requireMfa.check();
  await nav(page, "Home").click();
  await expect(question(page)).toBeVisible();
  await question(page).getByRole("button", { name: "Stay" }).click();
  await expect(requireMfa).toBeChecked();
  await requireMfa.uncheck();
  await nav(page, "Home").click();
  await expect(page).toHaveURL(/\/home$/);
  await expect(question(page)).toHaveCount(0);
});
