import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

/**
 * Waits for the page to settle before it is checked. First its title: after a server action that
 * revalidates, Next streams the page's metadata again, and for a moment the document has no <title>
 * (a page that never gets one still fails, when the wait runs out). Then the end of any pending
 * action (a submit button is `aria-busy` while its action runs, and the page can show the action's
 * answer a moment before the button is enabled again). Then its finite CSS transitions and
 * animations: a button that was disabled (opacity 60%) while its action ran fades back in for
 * 150 ms, and checked mid-fade, axe measures the contrast of a colour no one sees once it settles.
 * Endless animations (a spinner) are not waited for.
 */
async function settle(page: Page) {
  await expect(page).toHaveTitle(/\S/);
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
  await page.evaluate(async () => {
    const finite = document.getAnimations().filter((animation) => animation.effect?.getComputedTiming().endTime !== Infinity);
    await Promise.all(finite.map((animation) => animation.finished.catch(() => undefined)));
  });
}

/**
 * No serious or critical axe violations on the page, or only within `include` (a CSS selector): for a
 * part of a page whose whole was scanned elsewhere, such as one operation's Try it form on the API
 * reference, where a whole-page scan costs minutes on two busy cores.
 */
export async function expectNoSeriousViolations(page: Page, options: { include?: string } = {}) {
  await settle(page);
  const builder = new AxeBuilder({ page });
  if (options.include) {
    await expect(page.locator(options.include)).toHaveCount(1);
    builder.include(options.include);
  }
  const results = await builder.analyze();
  const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
}
