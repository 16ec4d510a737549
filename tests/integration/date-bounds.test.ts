import { beforeAll, describe, expect, it, vi } from "vitest";

const session = vi.hoisted(() => ({ userId: undefined as string | undefined }));
vi.mock("@/lib/auth", () => ({ auth: async () => (session.userId ? { user: { id: session.userId } } : null) }));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));
vi.mock("next/headers", () => ({ cookies: async () => ({ get: () => undefined, set: () => undefined }) }));

import AuditLogPage from "@/app/(dashboard)/audit-log/page";
import HomePage from "@/app/(dashboard)/home/page";
import WebhooksPage from "@/app/(dashboard)/webhooks/page";
import { GET as LIST } from "@/app/api/dashboard/invoices/route";
import { createApiKeyAction } from "@/lib/actions/api-keys";
import { createInvoice } from "@/lib/invoices/create/create-invoice";
import { PAYMENT_EXAMPLES } from "@/tests/fixtures/invoices";
import { setUpTestDb } from "./helpers/db";
import { bodyFor, connect, newReference, teamMerchant, type TeamMerchant } from "./helpers/invoice-fixtures";

/**
 * Dates and cursors in a page's URL outside 1970-01-01 to 9999-12-31 (lib/dates.ts): JavaScript
 * writes them in forms PostgreSQL refuses, so they used to reach the query and fail the page. Now
 * each page names the value it could not use and shows the rest; the last day of the range works.
 */
const t = setUpTestDb();
const RANGE = "between 1970-01-01 and 9999-12-31";
let m: TeamMerchant;
let invoiceId = "";

beforeAll(async () => {
  m = await teamMerchant(t.db);
  session.userId = m.ownerId;
  // One audit entry (a new key) and one invoice, so a filter that works has something to show.
  expect((await createApiKeyAction({ name: "dates key", mode: "test", scope: "full" })).ok).toBe(true);
  await connect(t.db, m.merchantId, "provider-b", "h2h");
  const created = await createInvoice(
    t.db,
    m.merchant,
    "payment",
    bodyFor(PAYMENT_EXAMPLES["B: EUR without customer"], m.account, { reference_id: newReference() }),
  );
  if (created.kind !== "created") throw new Error("setup: invoice");
  invoiceId = created.invoice.id;
});

/**
 * The text a server component's element tree carries: every string in its elements' props and in
 * the data it hands to client components (those render it in the browser). Not HTML, but what a
 * person would read is in it.
 */
function rendered(node: unknown, seen = new Set<unknown>()): string {
  if (typeof node === "string" || typeof node === "number") return String(node);
  if (!node || typeof node !== "object" || seen.has(node)) return "";
  seen.add(node);
  const element = node as { $$typeof?: unknown; props?: Record<string, unknown> };
  const values = element.$$typeof ? Object.values(element.props ?? {}) : Object.values(node);
  return values.map((value) => rendered(value, seen)).join("");
}
const page = (params: Record<string, string>) => ({ searchParams: Promise.resolve(params) });

describe("the Audit log page", () => {
  it("names a start date before 1970 as not a valid date and shows the log", async () => {
    const html = rendered(await AuditLogPage(page({ from: "0000-01-01" })));
    expect(html).toContain(`Enter a date ${RANGE}`);
    expect(html).toContain("dates key");
  });

  it("filters to 9999-12-31, the range's last day, and shows the log", async () => {
    const html = rendered(await AuditLogPage(page({ from: "2000-01-01", to: "9999-12-31" })));
    expect(html).toContain("dates key");
    expect(html).not.toContain("Enter a");
  });
});

describe("Home's custom period", () => {
  it("shows the overview for a period in year 9999", async () => {
    const html = rendered(await HomePage(page({ period: "custom", from: "9999-12-01", to: "9999-12-31" })));
    expect(html).toContain("9999-12-01 to 9999-12-31 (UTC)");
  });

  it("names a date before 1970 as not a valid date and shows the last 7 days", async () => {
    const html = rendered(await HomePage(page({ period: "custom", from: "1969-12-31", to: "1970-01-05" })));
    expect(html).toContain(`From "1969-12-31" is not a date ${RANGE}.`);
    expect(html).toContain("Last 7 days (UTC)");
  });
});

describe("the Webhooks event log", () => {
  it("drops a cursor whose time is past 9999, names it, and shows the first page", async () => {
    const html = rendered(await WebhooksPage(page({ after: "999999999999999.evt_x" })));
    expect(html).toContain("Ignored: after (not a value this log knows).");
    expect(html).toContain("No events yet.");
  });
});

describe("the dashboard's invoice list", () => {
  it("takes 9999-12-31 as the last day and names a day before 1970 as ignored", async () => {
    const response = await LIST(new Request("http://test/api/dashboard/invoices?from=1960-01-01&to=9999-12-31"), { params: Promise.resolve({}) });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { data: { invoices: { id: string }[] }; meta: { ignored: string[] } };
    expect(body.meta.ignored).toEqual(["from"]);
    expect(body.data.invoices.map((invoice) => invoice.id)).toEqual([invoiceId]);
  });
});
