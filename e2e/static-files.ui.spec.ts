import { expect, test } from "@playwright/test";
import { sharedTest } from "./support/fixtures";

/** Public/ holds the icon, the logo and robots.txt, served to everyone. */
const FILES = [
  { path: "/logo.svg", type: "image/svg+xml" },
  { path: "/favicon.ico", type: /^image\/(x-icon|vnd\.microsoft\.icon)/ },
  { path: "/robots.txt", type: /^text\/plain/ },
];

for (const file of FILES) {
  test(`${file.path} answers 200 to a signed-out visitor, not a redirect to sign-in`, async ({ request }) => {
    const response = await request.get(file.path, { maxRedirects: 0 });
    expect(response.status()).toBe(200);
    expect(response.headers()["content-type"]).toMatch(file.type);
  });
}

test("robots.txt keeps crawlers out of the dashboard", async ({ request }) => {
  expect(await (await request.get("/robots.txt")).text()).toMatch(/User-agent: \*\s+Disallow: \/\s*$/);
});

const isLoaded = (img: HTMLImageElement) => img.complete && img.naturalWidth > 0;

// Signed out in a context of its own, then in the shell as the worker's shared merchant (e2e/support/fixtures.ts).
sharedTest("pages name the SVG icon, and the logo with its accessible name is shown signed out and in the shell", async ({ browser, page }, testInfo) => {
  const signedOut = await browser.newContext({ baseURL: testInfo.project.use.baseURL });
  const visitor = await signedOut.newPage();
  await visitor.goto("/sign-in");
  await expect(visitor.locator('link[rel="icon"][type="image/svg+xml"]')).toHaveAttribute("href", /^\/logo\.svg/);
  const logo = visitor.getByRole("img", { name: "Payment Orchestrator" });
  await expect(logo).toBeVisible();
  await expect.poll(() => logo.evaluate(isLoaded)).toBe(true);
  await signedOut.close();

  await page.goto("/home");
  await expect(page.getByRole("heading", { level: 1, name: "Home" })).toBeVisible();
  const shellLogo = page.getByRole("complementary").getByRole("img", { name: "Payment Orchestrator" });
  await expect(shellLogo).toBeVisible();
  await expect.poll(() => shellLogo.evaluate(isLoaded)).toBe(true);
});
