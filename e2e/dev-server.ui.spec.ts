import { randomBytes } from "node:crypto";
import { expect, test, type Page } from "@playwright/test";
import { lockDataDir } from "../lib/db/lock";
import { finishSignUp, newAccount, submitSignUpForm } from "./support/accounts";
import { inviteMember } from "./support/mail";
import { fKeys, pair, save, textbox, uniqueLabel, uploadKey } from "./support/connections";
import { isListening, removeDevServer, startDevServer, waitForExit, waitForHydration, waitUntilServing, type DevServer } from "./support/dev-server";

/**
 * `npm run dev` as the README starts it. Its output must hold no secret
 * typed into a form, and SIGTERM must stop `next dev` with it. Both share one server: compiling
 * the pages in development takes minutes on a small machine.
 */
test.describe.configure({ mode: "default" });

let server: DevServer;
const secrets: string[] = [];
/** The first visit of a route compiles it. */
const COMPILING = { timeout: 120_000 };

test.beforeAll(async () => {
  test.setTimeout(240_000);
  server = await startDevServer();
  await waitUntilServing(server, "/sign-in", 230_000);
});

test.afterAll(() => {
  if (server) removeDevServer(server);
});

/** The output's lines that hold a secret, with the secret itself blanked out. */
function linesWithSecrets(output: string): string[] {
  return output
    .split("\n")
    .filter((line) => secrets.some((secret) => line.includes(secret)))
    .map((line) => secrets.reduce((text, secret) => text.replaceAll(secret, "<secret>"), line).slice(0, 300));
}

function expectNoSecretIn(output: string) {
  expect(secrets.length).toBeGreaterThan(0);
  expect(linesWithSecrets(output)).toEqual([]);
}

async function openForm(page: Page, provider: string, kind: string) {
  await page.goto(`/providers/${provider}`, COMPILING);
  await waitForHydration(page, "main button");
  await page.getByRole("button", { name: "Connect" }).click();
  await page.getByRole("radio", { name: new RegExp(`^${kind}`) }).check();
  await expect(page.getByRole("form", { name: `New ${kind}` })).toBeVisible(COMPILING);
  const label = uniqueLabel(`Dev ${provider}`);
  await page.getByLabel("Label").fill(label);
  return label;
}

async function saveAndExpect(page: Page, label: string) {
  await save(page);
  await expect(page).toHaveURL(/\/connections\/conn_/, COMPILING);
  await expect(page.getByRole("heading", { level: 1, name: label })).toBeVisible(COMPILING);
}

test("npm run dev prints no password, secret key or private key while people sign up, sign in and save connections", async ({ browser }) => {
  test.setTimeout(600_000);
  const account = { ...newAccount(), password: `dev-pw-${randomBytes(6).toString("hex")}7` };
  const memberPassword = `member-${randomBytes(6).toString("hex")}7`;
  const bSecret = `b-secret-${randomBytes(9).toString("hex")}`;
  const fSecret = fKeys("dev");
  const pemBody = pair.privateKey.split("\n").filter((line) => line && !line.startsWith("-----"));
  secrets.push(account.password, memberPassword, bSecret, fSecret.secretKey, ...pemBody);

  const context = await browser.newContext({ baseURL: server.url });
  const page = await context.newPage();

  await page.goto("/sign-up", COMPILING);
  await waitForHydration(page, "form");
  await submitSignUpForm(page, account);
  // The account is created from the e-mailed link, with the password typed again.
  await finishSignUp(page, account, COMPILING.timeout);

  const b = await openForm(page, "provider-b", "H2H merchant account");
  await textbox(page, "Terminal ID").fill("TERM-DEV");
  await page.getByLabel("Secret key").fill(bSecret);
  await saveAndExpect(page, b);

  const f = await openForm(page, "provider-f", "H2H merchant account");
  await textbox(page, "Public key").fill(fSecret.publicKey);
  await page.getByLabel("Secret key").fill(fSecret.secretKey);
  await saveAndExpect(page, f);

  const a = await openForm(page, "provider-a", "Provider account");
  await textbox(page, "Merchant ID").fill("A-DEV-1");
  // The form's script may still be compiling (filling Merchant ID started it): a file is chosen in the live form.
  await expect(page.locator("[data-form-on-use][data-live]").getByLabel("Upload Payment key file")).toBeAttached(COMPILING);
  await uploadKey(page, "Payment key", "payment.pem", pair.publicKey, COMPILING.timeout);
  await uploadKey(page, "Private key", "private.pem", pair.privateKey, COMPILING.timeout);
  await textbox(page, "Service code").fill("SVC-DEV");
  await saveAndExpect(page, a);

  await page.goto("/team", COMPILING);
  await waitForHydration(page, "main form");
  const memberEmail = `member-${randomBytes(4).toString("hex")}@example.com`;
  // The member chooses their password on the invitation page (next dev keeps mail in the outbox).
  await inviteMember(page, browser, { name: "Dev Member", email: memberEmail, role: "support" }, memberPassword, COMPILING.timeout);

  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/sign-in/, COMPILING);
  await waitForHydration(page, "form");
  await page.getByLabel("E-mail").fill(account.email);
  await page.getByLabel("Password").fill(account.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Home" })).toBeVisible(COMPILING);
  await context.close();

  // The server logs each request as it answers it; the last one's line means the actions' are in.
  await expect.poll(() => server.output(), COMPILING).toMatch(/POST \/sign-in/);
  expectNoSecretIn(server.output());
});

test("SIGTERM to npm run dev stops next dev: the port closes and the data directory is free again", async () => {
  test.setTimeout(120_000);
  expect(await isListening(server.port)).toBe(true);
  server.process.kill("SIGTERM");
  expect(await waitForExit(server.process, 15_000), server.output()).toBe(true);
  await expect.poll(() => isListening(server.port), { timeout: 15_000 }).toBe(false);
  // The lock is free when this process can take it; a live holder would make lockDataDir throw.
  const release = lockDataDir(server.dataDir);
  release();
  // Whatever was still buffered when it stopped has arrived by now.
  if (secrets.length > 0) expectNoSecretIn(server.output());
});
