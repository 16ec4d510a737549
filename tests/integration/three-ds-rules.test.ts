import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { POST as POST_PAYMENT } from "@/app/api/commerce/payment-invoices/route";
import { GET as GET_PAYMENT } from "@/app/api/commerce/payment-invoices/[id]/route";
import { PATCH } from "@/app/api/routing/[id]/route";
import { resetRateLimits } from "@/lib/api/rate-limit";
import type { RoutingOrderAttributes } from "@/lib/api/routing-resource";
import { findTemplate, templateEnvelope } from "@/lib/composer/templates";
import type { InvoiceResource } from "@/lib/invoices/contract";
import { readPayingCard } from "@/lib/invoices/read/paying-card";
import { readInvoice } from "@/lib/invoices/store";
import { logger } from "@/lib/logger";
import { findHostedInvoice } from "@/lib/pay/hosted-invoice";
import { payHostedInvoice } from "@/lib/pay/pay-hosted-invoice";
import { listAttempts } from "@/lib/processing/attempts";
import { resumeAfterRedirect } from "@/lib/processing/engine";
import type { ConnectionKind } from "@/lib/providers";
import { completeThreeDs } from "@/lib/sandbox/three-ds";
import { credentialsKey } from "@/lib/vault/vault-key";
import { setUpTestDb } from "./helpers/db";
import { connect, invoiceMerchant, newReference, type InvoiceMerchant } from "./helpers/invoice-fixtures";
import { serveSandboxes } from "./helpers/sandbox-http";
import { errorsOf, send } from "./helpers/send";

/**
 * 3-D Secure by routing rule, through every provider: a rule with require_three_ds makes Pay ask the
 * provider for it, in the provider's own field; each sandbox honours it (a normal card is challenged,
 * 4000 0000 0000 3063 passes without a challenge), the attempt records passed or frictionless and the
 * invoice page's card panel shows the liability shift. Without the rule the same card is not
 * challenged. Provider D cannot authenticate: a rule requiring 3-D Secure that only names D is
 * refused at save, at require_three_ds.
 */
const t = setUpTestDb();
serveSandboxes(() => t.db, { asAppUrl: true });

const NORMAL = "4242424242424242";
const FRICTIONLESS = "4000000000003063";

const PAYMENTS: readonly { provider: string; kind: ConnectionKind; template: string }[] = [
  { provider: "provider-a", kind: "provider_account", template: "a-payment" },
  { provider: "provider-b", kind: "h2h", template: "b-payment" },
  { provider: "provider-c", kind: "provider_account", template: "c-payment-eur" },
  { provider: "provider-e", kind: "h2h", template: "e-payment" },
  { provider: "provider-f", kind: "h2h", template: "f-payment" },
];

beforeEach(() => {
  resetRateLimits();
  vi.spyOn(logger, "info").mockImplementation(() => {});
  vi.spyOn(logger, "warn").mockImplementation(() => {});
});
afterEach(() => vi.restoreAllMocks());

type Body = { data: { attributes: Record<string, unknown> } };

function bodyOf(template: string, m: InvoiceMerchant): Body {
  const body = templateEnvelope(findTemplate(template)!, { commerceAccount: m.account, referenceId: newReference() }) as Body;
  delete (body.data.attributes.options as Record<string, unknown> | undefined)?.bypass_hpp;
  return body;
}

const saveRules = (m: InvoiceMerchant, service: string, rules: unknown[]) =>
  send<{ attributes: RoutingOrderAttributes }, { id: string }>(
    PATCH,
    { id: `${service}:test` },
    { method: "PATCH", key: m.key, path: `/api/routing/${service}:test`, body: { data: { type: "routing-order", attributes: { rules } } } },
  );

async function create(m: InvoiceMerchant, template: string): Promise<string> {
  const created = await send<{ id: string }>(
    POST_PAYMENT,
    {},
    { method: "POST", path: "/api/commerce/payment-invoices", key: m.key, body: bodyOf(template, m) },
  );
  expect(created.status, created.text).toBe(201);
  return created.json.data.id;
}

async function pay(id: string, number: string) {
  const hosted = await findHostedInvoice(t.db, id);
  const paid = await payHostedInvoice(t.db, id, { number, expiry: "12/30", holder: "Ada Lovelace", ...(hosted?.takesCvc ? { cvc: "737" } : {}) });
  expect(paid.ok, JSON.stringify(paid)).toBe(true);
  return paid.ok ? paid.value : undefined;
}

const statusOf = async (m: InvoiceMerchant, id: string) =>
  (await send<InvoiceResource, { id: string }>(GET_PAYMENT, { id }, { key: m.key, path: `/api/commerce/payment-invoices/${id}` })).json.data.attributes;

const cardPanel = async (id: string) => (await readPayingCard(t.db, (await readInvoice(t.db, id))!))!.threeDs;

describe.each(PAYMENTS)("3-D Secure required by a rule through $provider", ({ provider, kind, template }) => {
  async function setUp(requireThreeDs: boolean) {
    const m = await invoiceMerchant(t.db);
    const connection = await connect(t.db, m.merchantId, provider, kind, { vaultKey: credentialsKey() });
    const service = String(bodyOf(template, m).data.attributes.service);
    const rules = [
      { name: "Check the cardholder", outcome: { kind: "cascade", connection_ids: [connection.id] }, ...(requireThreeDs ? { require_three_ds: true } : {}) },
    ];
    const saved = await saveRules(m, service, rules);
    expect(saved.status, saved.text).toBe(200);
    return m;
  }

  it("challenges a normal card; a pass processes it with the liability shift, and the routing sentence says why", async () => {
    const m = await setUp(true);
    const id = await create(m, template);
    expect((await statusOf(m, id)).routing).toMatchObject({ explanation: expect.stringContaining("The rule requires 3-D Secure") });
    const answer = await pay(id, NORMAL);
    expect(answer?.kind).toBe("redirect");
    const [attempt] = await listAttempts(t.db, id);
    expect(attempt?.threeDs).toBe("required");
    expect((await cardPanel(id)).label).toBe("Waiting for the customer to complete the challenge");
    await completeThreeDs(t.db, provider, attempt!.providerReference!, "pass");
    await resumeAfterRedirect(t.db, id);
    expect((await statusOf(m, id)).status).toBe("processed");
    expect(await cardPanel(id)).toMatchObject({ result: "passed", liabilityShift: true });
  });

  it("passes the frictionless card without a challenge, recorded as frictionless with the liability shift", async () => {
    const m = await setUp(true);
    const id = await create(m, template);
    const answer = await pay(id, FRICTIONLESS);
    expect(answer?.kind).toBe("result");
    expect((await statusOf(m, id)).status).toBe("processed");
    expect(await cardPanel(id)).toMatchObject({ result: "frictionless", label: "Passed without a challenge (frictionless)", liabilityShift: true });
  });

  it("without the rule, the same normal card is not challenged", async () => {
    const m = await setUp(false);
    const id = await create(m, template);
    const answer = await pay(id, NORMAL);
    expect(answer?.kind).toBe("result");
    expect((await statusOf(m, id)).status).toBe("processed");
    expect(await cardPanel(id)).toMatchObject({ result: "not_requested", liabilityShift: false });
  });
});

describe("Provider D cannot authenticate with 3-D Secure", () => {
  it("refuses a rule requiring it that sends invoices only to D, at require_three_ds; without it the rule saves", async () => {
    const m = await invoiceMerchant(t.db);
    const d = await connect(t.db, m.merchantId, "provider-d", "h2h", { vaultKey: credentialsKey() });
    const service = String(bodyOf("d-payment", m).data.attributes.service);
    const rule = { name: "Only D", outcome: { kind: "cascade", connection_ids: [d.id] } };
    const refused = await saveRules(m, service, [{ ...rule, require_three_ds: true }]);
    expect(refused.status, refused.text).toBe(422);
    expect(errorsOf(refused)).toEqual([["/data/attributes/rules/0/require_three_ds", "three_ds_not_offered"]]);
    const bad = await saveRules(m, service, [{ ...rule, require_three_ds: "yes" }]);
    expect(errorsOf(bad).map(([pointer]) => pointer)).toEqual(["/data/attributes/rules/0/require_three_ds"]);
    expect((await saveRules(m, service, [rule])).status).toBe(200);
  });
});
