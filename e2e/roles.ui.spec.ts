import { randomBytes } from "node:crypto";
import { expect, test, type Browser, type Page } from "@playwright/test";
import { signIn, signUp } from "./support/accounts";
import { inviteMember } from "./support/mail";
import { screenshot } from "./support/screenshots";

/**
 * The roles merchants asked for, invited by an owner and signed in: each sees exactly the
 * navigation its role opens (lib/identity/permissions.ts), Home offers no link that leads to
 * /forbidden, and a page outside its role shows the forbidden page. At 1280 and 390 px (the menu).
 */
const EVERYONE = ["Home", "Invoices", "Disputes", "Alerts", "Risk", "Customers", "Routing", "Webhooks", "Settings", "API reference", "Webhook docs"];
const ROLES = {
  developer: {
    label: "Developer",
    nav: ["Home", "Invoices", "Disputes", "Alerts", "Risk", "Customers", "Routing", "API keys", "Webhooks", "Settings", "API reference", "Webhook docs"],
    refused: ["/team", "/connections", "/audit-log"],
  },
  finance: {
    label: "Finance",
    nav: ["Home", "Invoices", "Disputes", "Alerts", "Risk", "Customers", "Routing", "Webhooks", "Settings", "Audit log", "API reference", "Webhook docs"],
    refused: ["/api-keys", "/team", "/providers", "/invoices/new"],
  },
  read_only: { label: "Read-only", nav: EVERYONE, refused: ["/api-keys", "/audit-log", "/invoices/new", "/connections"] },
} as const;

async function navLabels(page: Page): Promise<string[]> {
  return page.getByRole("navigation", { name: "Main" }).getByRole("link").allTextContents();
}

async function member(browser: Browser, owner: Page, role: keyof typeof ROLES, width: number) {
  const email = `${role.replace("_", "-")}-${randomBytes(4).toString("hex")}@example.com`;
  const name = `${ROLES[role].label} Person`;
  await inviteMember(owner, browser, { name, email, role }, "member-pass-99");
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  const page = await context.newPage();
  await signIn(page, email, "member-pass-99");
  await expect(page.getByRole("heading", { level: 1, name: "Home" })).toBeVisible();
  return { page, context, name };
}

test("the Team page describes every role from the permission table and invitations offer them all", async ({ page }) => {
  await signUp(page);
  await page.goto("/team");
  const roles = page.getByTestId("role-descriptions");
  await expect(roles.locator("dt")).toHaveText(["Owner", "Developer", "Finance", "Support", "Read-only"]);
  await expect(roles.locator('[data-role="support"] dd')).toContainText(
    "refund test payments, capture or void test authorizations, process test payouts, cancel test payouts",
  );
  await expect(roles.locator('[data-role="developer"] dd')).toContainText("create, roll and revoke test API keys");
  await expect(roles.locator('[data-role="developer"] dd')).not.toContainText("refund test payments");
  await expect(roles.locator('[data-role="finance"] dd')).toContainText("refund live payments");
  await expect(page.locator("#member-role").locator("option")).toHaveText(["Owner", "Developer", "Finance", "Support", "Read-only"]);
  await page.locator("#member-role").selectOption("finance");
  await expect(page.locator("#member-role-help")).toContainText("Reads everything and moves money back");
  await screenshot(page, "roles-team-1280", { fullPage: true });
});

for (const width of [1280, 390]) {
  for (const role of Object.keys(ROLES) as (keyof typeof ROLES)[]) {
    test(`a ${role} member, invited and signed in at ${width} px, sees only its navigation${width < 768 ? " behind the menu" : " and is refused elsewhere"}`, async ({
      page,
      browser,
    }) => {
      test.setTimeout(90_000);
      await signUp(page);
      const { page: memberPage, context } = await member(browser, page, role, width);
      if (width < 768) await memberPage.getByRole("button", { name: "Menu" }).click();
      await expect(memberPage.getByRole("navigation", { name: "Main" })).toBeVisible();
      expect(await navLabels(memberPage)).toEqual([...ROLES[role].nav]);
      await expect(memberPage.getByTestId("viewer-role")).toHaveText(ROLES[role].label);
      await screenshot(memberPage, `roles-${role}-home-${width}`, { fullPage: true });

      // What the server lets the role open is the same at every width: walked once, at 1280 px.
      if (width < 768) return context.close();
      // Every link on Home goes somewhere the role may open.
      await memberPage.goto("/home");
      const hrefs = await memberPage
        .getByRole("main")
        .getByRole("link")
        .evaluateAll((links) => links.map((link) => link.getAttribute("href") ?? ""));
      for (const href of new Set(hrefs.filter((h) => h.startsWith("/")))) {
        await memberPage.goto(href);
        await expect(memberPage, href).not.toHaveURL(/\/forbidden$/);
      }
      for (const path of ROLES[role].refused) {
        await memberPage.goto(path);
        await expect(memberPage.getByRole("heading", { name: "You do not have access to this page" }), path).toBeVisible();
      }
      await context.close();
    });
  }
}
