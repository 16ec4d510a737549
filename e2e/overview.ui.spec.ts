import { randomBytes } from "node:crypto";
import { expect, test, type Page } from "@playwright/test";
import { createApiKey, signUp } from "./support/accounts";
import { expectNoSeriousViolations } from "./support/axe";
import { screenshot } from "./support/screenshots";

/**
 * The home page's overview with seeded data made as a merchant makes it: two Provider B test
 * connections in routing order, payments on the hosted page with the sandbox's test cards
 * (success, issuer decline, insufficient funds), one recovered by cascading while the first
 * connection's sandbox answers 5xx, and a refund through the API. Each chart and its table, the
 * connection health on the overview, the connection page and the lists, at 1280 and 390 px, axe
 * clean; bad period input gives a message on the page, never a 500.
 */
const JSON_API = { "Content-Type": "application/vnd.api+json" };

async function connectB(page: Page, headers: Record<string, string>, label: string): Promise<string> {
  const created = await page.request.post("/api/connections", {
    headers,
    data: {
      data: {
        type: "connection",
        attributes: {
          provider: "provider-b",
          kind: "h2h",
          label,
          mode: "test",
          credentials: { terminal_id: `TERM-${randomBytes(3).toString("hex")}`, secret_key: randomBytes(18).toString("base64url"), currency: "EUR" },
          constants: {},
        },
      },
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  return ((await created.json()) as { data: { id: string } }).data.id;
}

async function setBehaviour(page: Page, connectionId: string, option: string) {
  await page.goto(`/connections/${connectionId}`);
  const section = page.getByTestId("sandbox-behaviour");
  await section.getByLabel("Sandbox behaviour").selectOption({ label: option });
  await section.getByRole("button", { name: "Apply" }).click();
  await expect(section.getByTestId("sandbox-fault-current")).toHaveText(`Now: ${option}`);
}

/** A 40.00 EUR invoice paid on the hosted page with the test card whose button matches `card`; its id. */
async function payWith(
  page: Page,
  headers: Record<string, string>,
  commerceAccount: string,
  card: RegExp,
  expected: string | RegExp,
  attributes: Record<string, unknown> = {},
): Promise<string> {
  const answer = await page.request.post("/api/commerce/payment-invoices", {
    headers,
    data: {
      data: {
        type: "payment-invoice",
        attributes: {
          service: "payment_card_eur_hpp",
          commerce_account: commerceAccount,
          currency: "EUR",
          amount: "40.00",
          reference_id: `overview-${randomBytes(6).toString("hex")}`,
          flow: "charge",
          test_mode: true,
          ...attributes,
        },
      },
    },
  });
  expect(answer.status(), await answer.text()).toBe(201);
  const invoice = ((await answer.json()) as { data: { id: string; attributes: { hpp_url: string } } }).data;
  await page.goto(new URL(invoice.attributes.hpp_url).pathname);
  await page.getByRole("button", { name: card }).click();
  await page.getByLabel("Cardholder name").fill("Ada Lovelace");
  await page.getByRole("button", { name: "Pay", exact: true }).click();
  await expect(page.getByTestId("pay-result")).toContainText(expected);
  return invoice.id;
}

async function noSidewaysScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
}

test("the overview shows volume, success trend, declines, recovered by cascading and each connection's figures and health, each chart with its table", async ({
  page,
}) => {
  test.slow();
  const { commerceAccount } = await signUp(page);
  const apiKey = await createApiKey(page);
  const headers = { Authorization: `Bearer ${apiKey}`, ...JSON_API };
  const suffix = randomBytes(2).toString("hex");
  const first = await connectB(page, headers, `B first ${suffix}`);
  await connectB(page, headers, `B second ${suffix}`);

  // The first connection answers 5xx: the payment cascades to the second and succeeds there.
  await setBehaviour(page, first, "Server error (5xx)");
  await payWith(page, headers, commerceAccount, /4242 4242 4242 4242/, "Payment received");
  await setBehaviour(page, first, "Normal");
  const paid = await payWith(page, headers, commerceAccount, /4242 4242 4242 4242/, "Payment received");
  await payWith(page, headers, commerceAccount, /4242 4242 4242 4242/, "Payment received");
  await payWith(page, headers, commerceAccount, /0002/, /declined/i);
  await payWith(page, headers, commerceAccount, /9995/, /declined|funds/i);
  const refund = await page.request.post(`/api/commerce/payment-invoices/${paid}/refunds`, {
    headers,
    data: { data: { type: "refund", attributes: { reference_id: `overview-refund-${suffix}`, amount: "15.00" } } },
  });
  expect(refund.status(), await refund.text()).toBe(201);

  const home = await page.goto("/home?period=today");
  expect(home?.status()).toBe(200);
  const overview = page.getByTestId("overview");
  await expect(page.getByTestId("overview-period")).toContainText("Test data · Today (UTC)");
  // Volume per currency: 3 × 40.00 processed, 15.00 refunded, net 105.00.
  const totals = page.getByTestId("overview-totals");
  await expect(totals.getByRole("row", { name: /EUR/ })).toContainText("120.00 EUR");
  await expect(totals.getByRole("row", { name: /EUR/ })).toContainText("3 processed");
  await expect(totals.getByRole("row", { name: /EUR/ })).toContainText("15.00 EUR");
  await expect(totals.getByRole("row", { name: /EUR/ })).toContainText("105.00 EUR");
  await expect(totals.getByRole("row", { name: /EUR/ }).getByTestId("overview-authorized")).toContainText("0 held");
  await expect(page.getByTestId("recovered-count")).toHaveText("1");
  await expect(page.getByTestId("recovered-amounts")).toHaveText("40.00 EUR");
  await expect(page.getByTestId("success-rate")).toHaveText("60.0%");

  // Success trend: the chart names what it shows; its table lists every hour of today.
  await expect(page.getByTestId("trend-chart")).toHaveAttribute("aria-label", /^Success rate per hour: from \d+\.\d% to \d+\.\d%/);
  await page.getByTestId("trend-table").getByText("Show the trend as a table").click();
  const trendTable = page.getByTestId("trend-table").getByRole("table");
  await expect(trendTable.getByRole("row")).toHaveCount(25);
  // Every payment was made in this test's hour (or two, across an hour's turn): only those rows have a rate.
  expect(
    await trendTable
      .getByRole("row")
      .filter({ hasText: /\d\.\d%/ })
      .count(),
  ).toBeGreaterThanOrEqual(1);

  // Declines by reason: chart and table agree.
  await expect(page.getByTestId("declines-chart")).toHaveAttribute(
    "aria-label",
    /Issuer decline 1.*Insufficient funds 1.*Provider unavailable 1|Insufficient funds 1.*Issuer decline 1.*Provider unavailable 1/,
  );
  await page.getByTestId("declines-table").getByText("Show the declines as a table").click();
  const declinesTable = page.getByTestId("declines-table").getByRole("table");
  for (const reason of ["Issuer decline", "Insufficient funds", "Provider unavailable"]) {
    await expect(declinesTable.getByRole("row", { name: new RegExp(reason) })).toContainText("1");
  }

  // Per connection: the first had 5 attempts (1 soft failure, 2 successes, 2 declines), the second took the cascaded one.
  const connections = page.getByTestId("overview-connections");
  const firstRow = connections.getByRole("row", { name: new RegExp(`B first ${suffix}`) });
  await expect(firstRow).toContainText("5");
  await expect(firstRow).toContainText("40.0%");
  await expect(firstRow).toContainText(/≤ [\d,]+ ms/);
  await expect(firstRow).toContainText("Degraded");
  // The last error is the provider's (the 503), not the customers' later declines.
  await expect(firstRow).toContainText("Provider unavailable: The provider could not take the request (HTTP 503).");
  await expect(firstRow).not.toContainText("Insufficient funds");
  await expect(connections.getByRole("row", { name: new RegExp(`B second ${suffix}`) })).toContainText("100.0%");
  await expect(overview).toBeVisible();

  await expectNoSeriousViolations(page);
  await screenshot(page, "overview-1280", { fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await page.getByTestId("trend-table").getByText("Show the trend as a table").click();
  await page.getByTestId("declines-table").getByText("Show the declines as a table").click();
  await expect(page.getByTestId("declines-table").getByRole("table")).toBeVisible();
  await noSidewaysScroll(page);
  await expectNoSeriousViolations(page);
  await screenshot(page, "overview-390", { fullPage: true });

  // Health in the connection list, the providers list and on the connection page.
  await page.goto("/connections");
  await expect(page.getByRole("row", { name: new RegExp(`B first ${suffix}`) }).getByTestId("connection-health")).toHaveText("Degraded");
  await screenshot(page, "connections-390", { fullPage: true });
  await page.goto("/providers");
  await expect(page.getByTestId("health-provider-b")).toContainText("Degraded");
  await page.goto(`/connections/${first}`);
  await expect(page.getByRole("region", { name: /Health/ })).toContainText("failing after 3 technical failures in a row");
  await expect(page.getByTestId("connection-last-error")).toContainText("provider_unavailable");
  await screenshot(page, "connection-health-390", { fullPage: false });
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto("/connections");
  await screenshot(page, "connections-1280", { fullPage: true });

  // Authorized, not captured: reserved money, shown apart from payments, whose figures stay as they were.
  await payWith(page, headers, commerceAccount, /4242 4242 4242 4242/, /./, { flow: "authorize", amount: "25.00" });
  await page.goto("/home?period=today");
  const eur = page.getByTestId("overview-totals").getByRole("row", { name: /EUR/ });
  await expect(eur.getByTestId("overview-authorized")).toContainText("25.00 EUR");
  await expect(eur.getByTestId("overview-authorized")).toContainText("1 held");
  await expect(eur).toContainText("3 processed");
  await expect(eur).toContainText("105.00 EUR");

  // Bad period input: a message naming the field on the page, the last 7 days shown, never a 500.
  for (const [query, message] of [
    ["period=custom&from=2026-02-30&to=2026-03-01", /From "2026-02-30" is not a date/],
    ["period=custom&from=2026-03-02&to=2026-03-01", /is after To/],
    ["period=custom&from=2024-01-01&to=2026-01-01", /choose at most 366/],
    ["period=%3Cscript%3E", /Period must be one of/],
    ["period=custom&from=&to=", /From: enter a start date/],
  ] as const) {
    const answer = await page.goto(`/home?${query}`);
    expect(answer?.status(), query).toBe(200);
    await expect(page.getByTestId("period-problem")).toContainText(message);
    await expect(page.getByTestId("overview-period")).toContainText("Last 7 days");
  }
  await expect(page.getByLabel("From (custom)")).toHaveAttribute("aria-invalid", "true");
  await expectNoSeriousViolations(page);
  await screenshot(page.getByRole("form", { name: "Overview period" }), "overview-bad-period-1280");
});
