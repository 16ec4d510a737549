import { expect, type Locator } from "@playwright/test";

const isLive = (element: Element) => Object.keys(element).some((key) => key.startsWith("__reactProps"));

/**
 * Makes the control's form live before a test edits it, as waiting for hydration does elsewhere:
 * in a form that loads when used (components/forms/hydrate-on-use.tsx) the control is focused (a
 * use), then the test waits for the live form's control. Specs about what is done before a form
 * loads (e2e/forms-on-use.ui.spec.ts) do not call it. Any other control: waits for hydration.
 */
export async function liveControl(control: Locator): Promise<void> {
  await expect(control).toBeVisible();
  if (await control.evaluate((element) => element.closest("[data-form-on-use]:not([data-live])") !== null)) {
    // Ready to catch a use, or already live (the form may have gone live since the check above).
    await expect(control.locator("xpath=ancestor::*[@data-form-on-use][@data-ready or @data-live]")).toHaveCount(1, { timeout: 30_000 });
    await control.focus();
  }
  await expect.poll(() => control.evaluate(isLive), { timeout: 30_000 }).toBe(true);
}
