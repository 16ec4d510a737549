import fs from "node:fs";
import type { Locator, Page } from "@playwright/test";

/**
 * Screenshots for people to look at: never assertions, never attached to the report.
 * `E2E_SCREENSHOTS=1 npx playwright test …` saves them under /tmp/shots-<port> (E2E_PORT,
 * else "e2e"); any other value of E2E_SCREENSHOTS is the folder itself. CI sets nothing
 * and takes none, so no full-page PNG costs time there.
 */
export function screenshotsDir(): string | undefined {
  const value = process.env.E2E_SCREENSHOTS;
  if (!value) return undefined;
  if (value === "1" || value === "true") return `/tmp/shots-${process.env.E2E_PORT ?? "e2e"}`;
  return value;
}

/** Saves `<screenshotsDir()>/<name>.png` when E2E_SCREENSHOTS is set; `fullPage` applies to a Page only. */
export async function screenshot(target: Page | Locator, name: string, options: { fullPage?: boolean } = {}): Promise<void> {
  const dir = screenshotsDir();
  if (!dir) return;
  fs.mkdirSync(dir, { recursive: true });
  const path = `${dir}/${name}.png`;
  if ("goto" in target) await target.screenshot({ path, fullPage: options.fullPage });
  else await target.screenshot({ path });
}
