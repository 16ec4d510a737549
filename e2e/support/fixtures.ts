import { test as base, type Browser, type BrowserContextOptions } from "@playwright/test";
import { createApiKey, signUp, type Account } from "./accounts";

/**
 * One merchant per worker for the tests that only need *a* signed-in owner, not an empty one.
 *
 * It is signed up once per worker through the real flow (sign-up form, e-mailed link, confirm form,
 * Home) and given one API key; every test of `sharedTest` then starts with a page already signed
 * in as that owner (its saved storage state). Whatever one test leaves in the merchant, the next
 * test of the same worker sees, in any order, so a shared test must not:
 * - assert emptiness, counts or lists another test could add to (connections, invoices, keys, audit
 *   entries beyond its own object), the setup checklist, or "the first connection";
 * - create invoices that routing sends to "the merchant's" connection, or change the routing order;
 * - switch the Test/Live view (it persists per merchant), change the password, sessions, team or roles,
 *   or sign out (that would end the shared session for every later test);
 * - create a Provider D connection (one enabled D connection per currency and mode: a second is refused;
 *   and composer-unconnected.ui.spec.ts counts on the shared merchant having none);
 * - use a fixed connection label (labels are unique per merchant: use uniqueLabel);
 * - share a file with a `beforeAll` that signs up accounts of its own: when the worker's first test
 *   there is a shared one, the hook's new contexts carry the shared owner's storage state, signed in.
 * A failed test restarts its worker, and with it the merchant.
 */
export type SharedMerchant = { account: Account; apiKey: string; storageState: Exclude<BrowserContextOptions["storageState"], string | undefined> };

/**
 * Made once per worker process and kept here, for the life of the worker: a test-scoped fixture over a
 * module-level cache, not a `{ scope: "worker" }` fixture, on purpose. Playwright gives tests whose
 * fixture sets register different worker fixtures different worker hashes, and a worker only runs tests
 * of its own hash: mixing `sharedTest` with plain `test` (in one file or across files) would then stop
 * and start a worker, with a new browser and a new sign-up, at every switch.
 */
let shared: Promise<SharedMerchant> | undefined;

async function signUpShared(browser: Browser, baseURL: string | undefined): Promise<SharedMerchant> {
  const context = await browser.newContext({ baseURL });
  try {
    const page = await context.newPage();
    const account = await signUp(page);
    const apiKey = await createApiKey(page, "shared e2e");
    return { account, apiKey, storageState: await context.storageState() };
  } finally {
    await context.close();
  }
}

export const sharedTest = base.extend<{ merchant: SharedMerchant }>({
  merchant: [
    async ({ browser }, provide, testInfo) => {
      shared ??= signUpShared(browser, testInfo.project.use.baseURL).catch((error: unknown) => {
        shared = undefined;
        throw error;
      });
      await provide(await shared);
    },
    // The first test of a worker signs up: its own time limit, so that test keeps its full one.
    { timeout: 60_000 },
  ],
  storageState: async ({ merchant }, provide) => provide(merchant.storageState),
});
