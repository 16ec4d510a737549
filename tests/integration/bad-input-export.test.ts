/** The session cookie is next-auth's business; here `auth()` answers with whoever the test signs in. */
const session = vi.hoisted(() => ({ userId: undefined as string | undefined }));
vi.mock("@/lib/auth", () => ({
  auth: async () => (session.userId ? { user: { id: session.userId } } : null),
}));

import fc from "fast-check";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { queryArb } from "../../e2e/support/bad-input";
import { assertValidApiResponse } from "../helpers/api-validator";
import { GET as EXPORT } from "@/app/api/dashboard/invoices/export/route";
import { GET as PAYMENTS } from "@/app/api/commerce/payment-invoices/route";
import { GET as PAYOUTS } from "@/app/api/commerce/payout-invoices/route";
import { buildOpenApiDocument } from "@/lib/api/openapi";
import { resetRateLimits } from "@/lib/api/rate-limit";
import { createInvoice } from "@/lib/invoices/create/create-invoice";
import { PAYMENT_EXAMPLES, payoutExample } from "@/tests/fixtures/invoices";
import { logger } from "@/lib/logger";
import { setUpTestDb } from "./helpers/db";
import { bodyFor, connect, newReference, teamMerchant, type TeamMerchant } from "./helpers/invoice-fixtures";
import { snapshotTenant } from "./helpers/tenant-world";

/**
 * The bad-input suite for the CSV export's query parameters, at both of its entry points: the
 * dashboard's Export (GET /api/dashboard/invoices/export, the invoice list's filters) and the API's
 * lists with `Accept: text/csv` (the parameters the OpenAPI document lists for them). Whatever the
 * query string: 200 with a CSV that starts with its header line, or 400 naming each bad parameter in
 * source.parameter; never a 5xx; and nothing of the merchant's changes (an export only reads).
 */

const t = setUpTestDb();
let m: TeamMerchant;
let logged: unknown[] = [];

beforeAll(async () => {
  vi.spyOn(logger, "info").mockImplementation(() => undefined);
  vi.spyOn(logger, "error").mockImplementation((...args: unknown[]) => void logged.push(args));
  m = await teamMerchant(t.db);
  await connect(t.db, m.merchantId, "provider-b", "h2h");
  await connect(t.db, m.merchantId, "provider-a", "provider_account");
  for (const [direction, example, customer] of [
    ["payment", PAYMENT_EXAMPLES["B: EUR without customer"], { name: "=cmd|'/c calc'!A1", email: "+ada@example.com" }],
    ["payment", PAYMENT_EXAMPLES["B: EUR without customer"], { name: "Ada Lovelace", email: "ada@example.com" }],
    ["payout", payoutExample(), { name: "Grace Hopper", email: "grace@example.com" }],
  ] as const) {
    const overrides = { reference_id: newReference(), customer, ...(direction === "payout" ? { options: { auto_process: false } } : {}) };
    const created = await createInvoice(t.db, m.merchant, direction, bodyFor(example, m.account, overrides));
    if (created.kind !== "created") throw new Error(`setup: ${JSON.stringify(created)}`);
  }
});
afterAll(() => vi.restoreAllMocks());
beforeEach(() => {
  resetRateLimits();
  session.userId = undefined;
  logged = [];
});

/** A query string the URL parser refuses never reaches a route (server.ts answers it 400 before). */
function requestOrNull(url: string, init: RequestInit): Request | null {
  try {
    return new Request(url, init);
  } catch (error) {
    if (error instanceof TypeError) return null;
    throw error;
  }
}

/** The merchant's rows, but for when its API key was last used (which using it sets, by design). */
/** The merchant's rows but the audit log's export entries (an export served is recorded; counted apart). */
async function rowsOfMerchant(): Promise<Record<string, string[]>> {
  const rows = await snapshotTenant(t.db, m.merchantId);
  return {
    ...rows,
    api_keys: (rows.api_keys ?? []).map((row) => row.replace(/"last_used_at":("[^"]*"|null)/, '"last_used_at":"(not compared)"')),
    audit_log: (rows.audit_log ?? []).filter((row) => !row.includes('"action":"export.invoices"')),
  };
}

async function exportEntries(): Promise<number> {
  return ((await snapshotTenant(t.db, m.merchantId)).audit_log ?? []).filter((row) => row.includes('"action":"export.invoices"')).length;
}

type Judged = { refused: number; served: number };

/** 200 and a CSV, or 400 naming only parameters of the query string (a documented one, or one it sent); never anything else. */
async function judge(response: Response, query: string, documented: readonly string[], tally: Judged): Promise<string> {
  const names = [...documented, ...new URLSearchParams(query).keys()];
  const text = await response.text();
  expect(response.status === 200 || response.status === 400, `${query} → ${response.status} ${text.slice(0, 300)}`).toBe(true);
  if (response.status === 200) {
    tally.served += 1;
    expect(response.headers.get("content-type")).toMatch(/^text\/csv/);
    expect(text).toMatch(/^id,type,status,/);
  } else {
    tally.refused += 1;
    const errors = (JSON.parse(text) as { errors: { status: string; source?: { parameter?: string } }[] }).errors;
    expect(errors.length).toBeGreaterThan(0);
    for (const error of errors) {
      expect(error.status).toBe("400");
      expect(names, `${query}: ${JSON.stringify(error)}`).toContain(error.source?.parameter);
      expect(typeof error.source?.parameter, `${query}: ${JSON.stringify(error)}`).toBe("string");
    }
  }
  return text;
}

describe("the export's query parameters (bad-input suite)", () => {
  it("the dashboard's Export: generated query strings answer 200 CSV or 400 naming the parameter; nothing changes, nothing is logged as an error", async () => {
    const names = ["q", "type", "status", "provider", "mode", "reference", "from", "to", "after"];
    const tally: Judged = { refused: 0, served: 0 };
    const before = await rowsOfMerchant();
    const exportsBefore = await exportEntries();
    await fc.assert(
      fc.asyncProperty(queryArb(names), fc.constantFrom("test", "live", "bogus"), async (query, view) => {
        session.userId = m.ownerId;
        const request = requestOrNull(`http://test/api/dashboard/invoices/export${query}`, { headers: { cookie: `view_mode=${view}` } });
        if (!request) return;
        await judge(await EXPORT(request, { params: Promise.resolve({}) }), query, names, tally);
      }),
      { numRuns: 80, seed: 26 },
    );
    expect(await rowsOfMerchant()).toEqual(before);
    // Every export served is one audit entry; a refused one is none.
    expect((await exportEntries()) - exportsBefore).toBe(tally.served);
    expect(logged).toEqual([]);
    expect(tally.refused).toBeGreaterThan(0);
    expect(tally.served).toBeGreaterThan(0);
  });

  it.each([
    ["payment", "/api/commerce/payment-invoices", PAYMENTS],
    ["payout", "/api/commerce/payout-invoices", PAYOUTS],
  ] as const)(
    "the API's %s list with Accept: text/csv: generated query strings answer 200 CSV or 400 naming the parameter, as the document says; nothing changes",
    async (_direction, path, route) => {
      const operation = (buildOpenApiDocument({ baseUrl: "http://test" }).paths as Record<string, { get: { parameters: { name: string; in: string }[] } }>)[
        path
      ]!.get;
      const names = operation.parameters.filter((p) => p.in === "query").map((p) => p.name);
      expect(names).toEqual(expect.arrayContaining(["filter[status]", "page[size]", "page[after]"]));
      const tally: Judged = { refused: 0, served: 0 };
      const before = await rowsOfMerchant();
      await fc.assert(
        fc.asyncProperty(
          queryArb(names),
          fc.constantFrom("text/csv", "text/csv; charset=utf-8", "text/csv, application/vnd.api+json;q=0.5"),
          async (query, accept) => {
            resetRateLimits();
            const request = requestOrNull(`http://test${path}${query}`, { headers: { authorization: `Bearer ${m.key}`, accept } });
            if (!request) return;
            const response = await route(request, { params: Promise.resolve({}) });
            const copy = response.clone();
            await judge(response, query, names, tally);
            // Refusals are JSON:API error documents the OpenAPI document describes; CSV answers are what it lists too.
            assertValidApiResponse({ method: "GET", url: `${path}${query}`, status: copy.status, headers: copy.headers, body: await copy.text() });
          },
        ),
        { numRuns: 80, seed: 27 },
      );
      expect(await rowsOfMerchant()).toEqual(before);
      expect(logged).toEqual([]);
      expect(tally.refused).toBeGreaterThan(0);
      expect(tally.served).toBeGreaterThan(0);
    },
  );
});
