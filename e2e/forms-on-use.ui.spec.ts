import { expect, type Page } from "@playwright/test";
import { sharedTest as test } from "./support/fixtures";
import { connectByApi, uniqueLabel } from "./support/connections";
import { screenshot } from "./support/screenshots";

/**
 * Forms that load when used (components/forms/hydrate-on-use.tsx): the page shows the form with its
 * values before the form's script arrives, and the first interaction is not lost while it loads.
 * The form's script is held back for a moment after the page loaded, so what is done first lands
 * on the server's markup, not on a form that happened to load already.
 */

const VIEWPORTS = [
  { width: 1280, height: 900 },
  { width: 390, height: 844 },
];

/** From now on each script answer waits `ms`: the form's chunk arrives after the first keys. */
async function slowScripts(page: Page, ms = 700) {
  await page.route(/\/_next\/static\/chunks\/.*\.js/, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, ms));
    await route.continue();
  });
}

const serverForm = (page: Page, name: string) => page.locator(`[data-form-on-use="${name}"]:not([data-live])`);
const liveForm = (page: Page, name: string) => page.locator(`[data-form-on-use="${name}"][data-live]`);

for (const viewport of VIEWPORTS) {
  test(`a connection's page shows its values before its forms load, and what is typed first is kept (${viewport.width} px)`, async ({ page, merchant }) => {
    await page.setViewportSize(viewport);
    const label = uniqueLabel("On use");
    const id = await connectByApi(page.request, merchant.apiKey, "provider-b", "h2h", label);
    await page.goto(`/connections/${id}`);
    await page.waitForLoadState("networkidle");
    // Loaded and idle, the edit form is still the server's, showing the stored label.
    await expect(serverForm(page, "edit-connection").getByLabel("Label")).toHaveValue(label);
    await expect(liveForm(page, "edit-connection")).toHaveCount(0);
    await screenshot(page, `forms-on-use-connection-${viewport.width}`, { fullPage: true });

    await slowScripts(page);
    const field = page.getByRole("form", { name: "Edit connection" }).getByLabel("Label");
    await field.click();
    await field.press("End");
    await page.keyboard.type(" renamed");
    // The live form took over with every key typed while it loaded, and the caret stays in the field.
    await expect(liveForm(page, "edit-connection")).toHaveCount(1);
    await expect(serverForm(page, "edit-connection")).toHaveCount(0);
    const live = liveForm(page, "edit-connection").getByLabel("Label");
    await expect(live).toHaveValue(`${label} renamed`);
    await expect(live).toBeFocused();
    await page.keyboard.type("!");
    await expect(live).toHaveValue(`${label} renamed!`);
    // The unsaved-changes guard knows about the edit.
    await page.getByRole("main").getByRole("link", { name: "Provider B" }).click();
    const dialog = page.getByTestId("unsaved-changes-dialog");
    await expect(dialog).toBeVisible();
    await dialog.getByRole("button", { name: "Stay" }).click();
    await expect(page).toHaveURL(new RegExp(`/connections/${id}$`));
  });

  test(`keyboard only: Tab into a form that has not loaded and type (${viewport.width} px)`, async ({ page, merchant }) => {
    await page.setViewportSize(viewport);
    const label = uniqueLabel("Keys");
    const id = await connectByApi(page.request, merchant.apiKey, "provider-b", "h2h", label);
    await page.goto(`/connections/${id}`);
    await page.waitForLoadState("networkidle");
    await slowScripts(page);
    // From the control just before the Edit section, Tab until the focus is in the edit form.
    await page.getByTestId("callback-url").focus();
    for (let i = 0; i < 20; i += 1) {
      await page.keyboard.press("Tab");
      if (await page.evaluate(() => Boolean(document.activeElement?.closest('[data-form-on-use="edit-connection"]')))) break;
    }
    await page.keyboard.press("ControlOrMeta+a");
    const typed = uniqueLabel("Typed by keys");
    await page.keyboard.type(typed);
    const live = liveForm(page, "edit-connection").getByLabel("Label");
    await expect(live).toHaveValue(typed);
    await expect(live).toBeFocused();
    // Enter saves: the press reaches the live form.
    await page.keyboard.press("Enter");
    await expect(page.getByTestId("edit-saved")).toBeVisible();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(typed);
  });

  test(`the composer: a press on a template, an amount typed after it and a click on a radio before the form loads all take effect (${viewport.width} px)`, async ({
    page,
    merchant,
  }) => {
    await page.setViewportSize(viewport);
    await connectByApi(page.request, merchant.apiKey, "provider-c", "provider_account", uniqueLabel("C on use"));
    await page.goto("/invoices/new");
    await page.waitForLoadState("networkidle");
    await expect(serverForm(page, "invoice-composer").getByRole("radio", { name: /^Route automatically/ })).toBeChecked();
    await expect(serverForm(page, "invoice-composer").getByLabel(/^Reference ID/)).not.toHaveValue("");
    await slowScripts(page);
    await page.getByRole("button", { name: /^Provider C payment in AMD payment_card/ }).click();
    // Then an amount typed while the form still loads: it is typed after the template, so it stays.
    await serverForm(page, "invoice-composer")
      .getByRole("textbox", { name: /^Amount/ })
      .focus();
    await page.keyboard.press("ControlOrMeta+a");
    await page.keyboard.type("777.00");
    await expect(liveForm(page, "invoice-composer")).toHaveCount(0);
    await expect(page.getByTestId("template-status")).toContainText("Filled in from Provider C payment in AMD");
    await expect(liveForm(page, "invoice-composer")).toHaveCount(1);
    await expect(liveForm(page, "invoice-composer").getByRole("textbox", { name: /^Amount/ })).toHaveValue("777.00");

    await page.reload();
    await page.waitForLoadState("networkidle");
    await slowScripts(page);
    await page.getByRole("radio", { name: /^Pin to a connection/ }).click();
    await expect(page.getByRole("radio", { name: /^Pin to a connection/ })).toBeChecked();
    await expect(page.getByRole("combobox", { name: /^Connection/ })).toBeVisible();
    await expect(liveForm(page, "invoice-composer")).toHaveCount(1);
  });
}

test("the routing simulator: fields typed and Enter pressed before its script arrives are sent as typed", async ({ page, merchant }) => {
  await connectByApi(page.request, merchant.apiKey, "provider-b", "h2h", uniqueLabel("Sim on use"));
  await page.goto("/routing");
  await page.waitForLoadState("networkidle");
  const simulator = page.getByTestId("routing-simulator");
  await expect(serverForm(page, "routing-simulator").getByLabel(/^Amount/)).toHaveValue("10.00");
  // The inputs have no name: the live form finds each one's twin by its label, which the two copies
  // share by id while both are in the document.
  await slowScripts(page, 1_500);
  await simulator.getByLabel(/^Amount/).focus();
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.type("20.00");
  await simulator.getByLabel("Customer country").focus();
  await page.keyboard.type("F1");
  await page.keyboard.press("Enter");
  await expect(liveForm(page, "routing-simulator")).toHaveCount(1);
  await expect(liveForm(page, "routing-simulator").getByLabel(/^Amount/)).toHaveValue("20.00");
  // The press reached the live form with the typed values: the server refused the typed country on its field.
  await expect(simulator.getByText("customer_country is a two-letter ISO 3166-1 code such as GB")).toBeVisible();
  await expect(liveForm(page, "routing-simulator").getByLabel("Customer country")).toHaveValue("F1");
});

test("the composer: a template pressed and an amount typed before the page's own script has run both take effect, and nothing is sent as a GET", async ({
  page,
  merchant,
}) => {
  await connectByApi(page.request, merchant.apiKey, "provider-c", "provider_account", uniqueLabel("C early"));
  // Every script waits until the test lets it go: until then nothing of the app's own listens.
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/_next\/static\/chunks\/.*\.js/, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto("/invoices/new", { waitUntil: "domcontentloaded" });
  const form = serverForm(page, "invoice-composer");
  await expect(form).not.toHaveAttribute("data-ready");
  await page.getByRole("button", { name: /^Provider C payment in AMD payment_card/ }).click();
  const amount = form.getByRole("textbox", { name: /^Amount/ });
  await amount.fill("");
  await amount.pressSequentially("321.00");
  expect(new URL(page.url()).search).toBe("");
  release();
  await expect(page.getByTestId("template-status")).toContainText("Filled in from Provider C payment in AMD");
  await expect(liveForm(page, "invoice-composer").getByRole("textbox", { name: /^Amount/ })).toHaveValue("321.00");
  await expect(page).toHaveURL(/\/invoices\/new$/);
});
