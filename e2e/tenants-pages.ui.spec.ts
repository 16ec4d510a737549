import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { expect, test, type BrowserContext, type Page } from "@playwright/test";
import { findTemplate, templateEnvelope } from "../lib/composer/templates";
import { createApiKey, newAccount, signIn, signUp, type Account } from "./support/accounts";
import { fKeys, uniqueLabel } from "./support/connections";
import { inviteMember } from "./support/mail";
import { addWebhookEndpoint } from "./support/webhooks";

/**
 * The pages: every dashboard page under a [param] folder, opened over
 * real HTTP with merchant A's owner session and merchant B's ids (the not-found page, nothing of B
 * in the HTML), and with A's support member on A's own ids where the page is for owners (the
 * forbidden page). B's owner opens the same addresses to show they do hold data. The table is
 * checked against app/(dashboard), so a new page with a [param] fails here until it is named.
 * (Route handlers and server actions: tests/integration/tenants-roles.test.ts.)
 */
type World = {
  account: Account;
  apiKey: string;
  connectionId: string;
  connectionLabel: string;
  invoiceId: string;
  reference: string;
  /** The payment's customer reference (its customer page). */
  customerReference: string;
  eventId: string;
  endpointUrl: string;
  /** A dispute of a Provider B test payment paid with the dispute card. */
  disputeId: string;
  /** The request log's entry of the invoice's create. */
  logId: string;
};
type PageCase = {
  path: (w: World) => string;
  /** The page is for owners only (lib/auth/permissions.ts): a support member is sent to /forbidden. */
  ownerOnly: boolean;
  /** The path names something a merchant owns (and its page then shows this of it); otherwise why not. */
  tenant: { shows: (w: World) => string } | string;
};

const PAGES: Record<string, PageCase> = {
  "app/(dashboard)/connections/[id]/page.tsx": { path: (w) => `/connections/${w.connectionId}`, ownerOnly: true, tenant: { shows: (w) => w.connectionLabel } },
  "app/(dashboard)/customers/[reference]/page.tsx": {
    path: (w) => `/customers/${w.customerReference}`,
    ownerOnly: false,
    tenant: { shows: (w) => w.invoiceId },
  },
  "app/(dashboard)/disputes/[id]/page.tsx": { path: (w) => `/disputes/${w.disputeId}`, ownerOnly: false, tenant: { shows: (w) => w.disputeId } },
  "app/(dashboard)/docs/api/[tag]/page.tsx": {
    path: () => "/docs/api/payments",
    ownerOnly: false,
    tenant: "the tag names a group of the API's operations, the same for every merchant (its examples are written for the viewer's own account)",
  },
  "app/(dashboard)/invoices/[id]/page.tsx": { path: (w) => `/invoices/${w.invoiceId}`, ownerOnly: false, tenant: { shows: (w) => w.reference } },
  // Support reads test-mode requests too: the entry is a test key's.
  "app/(dashboard)/logs/[id]/page.tsx": { path: (w) => `/logs/${w.logId}`, ownerOnly: false, tenant: { shows: (w) => w.reference } },
  "app/(dashboard)/providers/[slug]/page.tsx": {
    path: () => "/providers/provider-f",
    ownerOnly: true,
    tenant: "the slug names a provider of the registry, the same for every merchant",
  },
  "app/(dashboard)/webhooks/events/[id]/page.tsx": { path: (w) => `/webhooks/events/${w.eventId}`, ownerOnly: false, tenant: { shows: (w) => w.endpointUrl } },
};

function pagesWithParams(): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((entry) => (statSync(path.join(dir, entry)).isDirectory() ? walk(path.join(dir, entry)) : [path.join(dir, entry)]));
  return walk(path.join("app", "(dashboard)"))
    .map((file) => file.split(path.sep).join("/"))
    .filter((file) => file.endsWith("/page.tsx") && /\/\[[^/]+\]\//.test(file))
    .sort();
}

test("the table names every dashboard page under a [param] folder", () => {
  expect(Object.keys(PAGES).sort()).toEqual(pagesWithParams());
});

const JSON_API = { "Content-Type": "application/vnd.api+json" };

/** A merchant with an API key, a Provider F test connection and a payment invoice, all made as a client would. */
async function merchant(context: BrowserContext): Promise<World> {
  const page = await context.newPage();
  const account = await signUp(page, newAccount());
  const apiKey = await createApiKey(page);
  // A webhook endpoint (nothing listens there) and a test event sent to it: the event page's id.
  const endpointUrl = `http://127.0.0.1:9/tenant-${crypto.randomUUID()}`;
  await addWebhookEndpoint(page, endpointUrl);
  await page.getByRole("button", { name: "Send test event" }).click();
  await expect(page.getByTestId("webhook-answer")).toContainText("Test event: not delivered");
  await page.reload();
  const eventHref = await page.getByRole("table", { name: "Events" }).getByRole("link", { name: "webhook.test" }).getAttribute("href");
  const eventId = eventHref!.split("/").at(-1)!;
  await page.close();
  const auth = { Authorization: `Bearer ${apiKey}`, ...JSON_API };
  const keys = fKeys("dev");
  const connectionLabel = uniqueLabel("Tenant F");
  const connection = await context.request.post("/api/connections", {
    headers: auth,
    data: {
      data: {
        type: "connection",
        attributes: {
          provider: "provider-f",
          kind: "h2h",
          label: connectionLabel,
          credentials: { public_key: keys.publicKey, secret_key: keys.secretKey, test_mode: true, currency: "EUR" },
        },
      },
    },
  });
  expect(connection.status()).toBe(201);
  const reference = `tenant-${crypto.randomUUID()}`;
  const body = templateEnvelope(findTemplate("f-payment")!, { commerceAccount: account.commerceAccount, referenceId: reference }) as {
    data: { attributes: Record<string, unknown> };
  };
  body.data.attributes.test_mode = true;
  body.data.attributes.options = {};
  // Provider F's example sends the customer beside attributes (data.customer): its reference goes there.
  const customerReference = `tenant-cus-${crypto.randomUUID()}`;
  const withCustomer = body as { data: { customer?: Record<string, unknown> } };
  withCustomer.data.customer = { ...withCustomer.data.customer, reference_id: customerReference };
  const invoice = await context.request.post("/api/commerce/payment-invoices", { headers: auth, data: body });
  expect(invoice.status(), await invoice.text()).toBe(201);
  const invoiceId = ((await invoice.json()) as { data: { id: string } }).data.id;
  const disputeId = await disputedPayment(context, auth, account.commerceAccount);
  const logId = await logEntryOf(context, invoiceId);
  return {
    account,
    apiKey,
    connectionId: (await connection.json()).data.id,
    connectionLabel,
    invoiceId,
    reference,
    customerReference,
    eventId,
    endpointUrl,
    disputeId,
    logId,
  };
}

/** The request log's entry of the invoice's create, from the Logs page filtered by the invoice (written within a second). */
async function logEntryOf(context: BrowserContext, invoiceId: string): Promise<string> {
  const page = await context.newPage();
  let id = "";
  await expect(async () => {
    await page.goto(`/logs?invoice=${invoiceId}`);
    const link = page.getByTestId("logs-list").getByRole("link").first();
    id = ((await link.getAttribute("href", { timeout: 1_000 })) ?? "").split("/").pop() ?? "";
    expect(id).toMatch(/^rql_/);
  }).toPass({ timeout: 20_000 });
  await page.close();
  return id;
}

/** A Provider B test payment paid on the hosted page with the dispute card; its dispute's id once the sandbox opened it. */
async function disputedPayment(context: BrowserContext, auth: Record<string, string>, commerceAccount: string): Promise<string> {
  const credentials = { terminal_id: `TERM-${crypto.randomUUID().slice(0, 6)}`, secret_key: crypto.randomUUID().replaceAll("-", ""), currency: "EUR" };
  const connection = await context.request.post("/api/connections", {
    headers: auth,
    data: { data: { type: "connection", attributes: { provider: "provider-b", kind: "h2h", label: uniqueLabel("Tenant B"), mode: "test", credentials } } },
  });
  expect(connection.status(), await connection.text()).toBe(201);
  const created = await context.request.post("/api/commerce/payment-invoices", {
    headers: auth,
    data: {
      data: {
        type: "payment-invoice",
        attributes: {
          service: "payment_card_eur_hpp",
          commerce_account: commerceAccount,
          currency: "EUR",
          amount: "9.99",
          reference_id: `tenant-dispute-${crypto.randomUUID()}`,
          flow: "charge",
          test_mode: true,
        },
        relationships: { connection: { data: { type: "connection", id: (await connection.json()).data.id } } },
      },
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const invoice = (await created.json()).data as { id: string; attributes: { hpp_url: string } };
  const page = await context.newPage();
  await page.goto(new URL(invoice.attributes.hpp_url).pathname);
  await page.getByRole("button", { name: /4000 0000 0000 0259/ }).click();
  await page.getByRole("button", { name: "Pay", exact: true }).click();
  await expect(page.getByTestId("pay-result")).toContainText("Payment received");
  await page.close();
  let disputeId = "";
  await expect(async () => {
    const list = await context.request.get(`/api/commerce/disputes?filter[invoice]=${invoice.id}`, { headers: auth });
    disputeId = ((await list.json()).data as { id: string }[])[0]?.id ?? "";
    expect(disputeId).not.toBe("");
  }).toPass({ timeout: 20_000 });
  return disputeId;
}

const markersOf = (w: World) => [w.connectionLabel, w.reference, w.invoiceId, w.account.commerceAccount, w.account.email, w.disputeId];

test("merchant A sees the not-found page for merchant B's ids, and A's support member the forbidden page on owners' pages", async ({ browser }) => {
  test.setTimeout(120_000);
  const contextA = await browser.newContext();
  const contextB = await browser.newContext();
  const A = await merchant(contextA);
  const B = await merchant(contextB);

  const contextSupport = await browser.newContext();
  const ownerPage = await contextA.newPage();
  const support = { name: "Sam Support", email: `support-${crypto.randomUUID()}@example.com`, role: "support" as const };
  await inviteMember(ownerPage, browser, support, "support-pass-99");
  const supportPage = await contextSupport.newPage();
  await signIn(supportPage, support.email, "support-pass-99");
  await expect(supportPage.getByRole("heading", { level: 1, name: "Home" })).toBeVisible();

  // The dashboard streams its pages (loading.tsx), so the not-found and forbidden answers arrive in
  // the rendered page rather than as a status: what is checked is what the browser shows, and the HTML.
  const open = async (page: Page, url: string, heading: string | RegExp) => {
    await page.goto(url);
    await expect(page.getByRole("heading", { name: heading })).toBeVisible();
    return page.content();
  };
  const pageA = await contextA.newPage();
  const pageB = await contextB.newPage();
  let cases = 0;
  for (const [file, entry] of Object.entries(PAGES)) {
    const { tenant } = entry;
    if (typeof tenant !== "string") {
      await test.step(`${file}: merchant A's owner with merchant B's id → not found`, async () => {
        await pageB.goto(entry.path(B));
        await expect(pageB.getByText(tenant.shows(B)).first()).toBeVisible();
        const seen = await open(pageA, entry.path(B), /^(Invoice not found|Customer not found|Not found)$/);
        // What the address itself names may be echoed (the title names the id asked for); nothing else of B's.
        for (const marker of markersOf(B).filter((m) => !entry.path(B).includes(m))) expect(seen).not.toContain(marker);
        cases += 1;
      });
    }
    if (entry.ownerOnly) {
      await test.step(`${file}: merchant A's support member with A's own id → forbidden`, async () => {
        const seen = await open(supportPage, entry.path(A), "You do not have access to this page");
        await expect(supportPage).toHaveURL(/\/forbidden$/);
        for (const marker of [A.connectionLabel, A.reference]) expect(seen).not.toContain(marker);
        cases += 1;
      });
    }
  }
  // The header's search and the list's export take B's keys as text, not as a path: A finds none of B's invoices.
  for (const q of [B.reference, B.invoiceId]) {
    await test.step(`search and export: merchant A's owner searching merchant B's ${q === B.reference ? "reference" : "invoice id"} → no invoice`, async () => {
      await pageB.goto(`/invoices?q=${encodeURIComponent(q)}`);
      await expect(pageB).toHaveURL(new RegExp(`/invoices/${B.invoiceId}$`));
      const seen = await open(pageA, `/invoices?q=${encodeURIComponent(q)}`, "No invoices match these filters");
      // The page repeats what was searched for, and nothing else of B's.
      for (const marker of markersOf(B).filter((marker) => marker !== q)) expect(seen).not.toContain(marker);
      await expect(pageA.getByTestId("invoice-row")).toHaveCount(0);
      const csv = await pageA.request.get(`/api/dashboard/invoices/export?q=${encodeURIComponent(q)}`);
      expect(csv.status()).toBe(200);
      expect((await csv.text()).trim().split("\r\n")).toHaveLength(1);
      cases += 1;
    });
  }
  test.info().annotations.push({ type: "cases", description: String(cases) });
  await Promise.all([contextA.close(), contextB.close(), contextSupport.close()]);
});
