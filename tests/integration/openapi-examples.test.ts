import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { eq } from "drizzle-orm";
import { createApiKey } from "@/lib/api-keys/queries";
import { resetRateLimits } from "@/lib/api/rate-limit";
import { buildOpenApiDocument } from "@/lib/api/openapi";
import type { RouteHandler } from "@/lib/api/run-logged";
import { findTemplate, templateEnvelope } from "@/lib/composer/templates";
import { invoiceAttempts, paymentMethods } from "@/lib/db/schema";
import { applyDisputeReport } from "@/lib/disputes/apply-report";
import { uploadFile } from "@/lib/disputes/files";
import { createInvoice } from "@/lib/invoices/create/create-invoice";
import { logger } from "@/lib/logger";
import { payWithCard } from "@/lib/processing/engine";
import { PROVIDER_KINDS } from "./helpers/connection-fixtures";
import { setUpTestDb } from "./helpers/db";
import { connect, invoiceMerchant, newReference, type InvoiceMerchant } from "./helpers/invoice-fixtures";
import { serveSandboxesAsAppUrl } from "./helpers/sandbox-server";
import { send } from "./helpers/send";

/**
 * The API reference's examples are bodies a reader copies and "Try it" sends: each one, written for
 * a merchant's own commerce account as the dashboard writes it, is sent as shown through the real
 * route handler with a key of that merchant, and must be accepted. Every operation with a request
 * body must have at least one.
 */
const t = setUpTestDb();
serveSandboxesAsAppUrl();
const CARD = { number: "4242424242424242", expiryMonth: 12, expiryYear: 2030, cvc: "737", holder: "Heidi Muster" };
const METHODS = new Set(["get", "put", "post", "delete", "patch"]);
const ROUTING_ORDER = "payment_card_eur_hpp:test";
const EXAMPLE_PDF = new TextEncoder().encode("%PDF-1.4\n%%EOF\n");

type Operation = {
  operationId: string;
  requestBody?: { content: Record<string, { examples?: Record<string, { value: unknown }> }> };
  responses: Record<string, unknown>;
};

beforeEach(() => {
  resetRateLimits();
  for (const level of ["info", "warn"] as const) vi.spyOn(logger, level).mockImplementation(() => {});
});
afterEach(() => vi.restoreAllMocks());

/** The route module Next serves the path from: `/api/connections/{id}` is app/api/connections/[id]/route.ts. */
async function routeModule(template: string): Promise<Record<string, RouteHandler<Record<string, string>>>> {
  const file = path.join(
    process.cwd(),
    "app",
    ...template
      .split("/")
      .filter(Boolean)
      .map((segment) => segment.replace(/^\{(\w+)\}$/, "[$1]")),
    "route.ts",
  );
  return (await import(file)) as Record<string, RouteHandler<Record<string, string>>>;
}

/** A merchant with a test connection of every provider and kind, a processed payment and two saved routing versions. */
async function world(): Promise<{
  m: InvoiceMerchant;
  liveKey: string;
  params: Record<string, Record<string, string>>;
  paymentMethodId: string;
  evidenceFileId: string;
}> {
  const m = await invoiceMerchant(t.db);
  const connections = [];
  for (const [provider, kind] of PROVIDER_KINDS) connections.push(await connect(t.db, m.merchantId, provider, kind));
  const providerB = connections.find((connection) => connection.provider === "provider-b")!;
  const body = templateEnvelope(findTemplate("a-payment")!, { commerceAccount: m.account, referenceId: newReference() }) as {
    data: { attributes: Record<string, unknown> };
  };
  body.data.attributes.amount = "100.00";
  const created = await createInvoice(t.db, m.merchant, "payment", body);
  if (created.kind !== "created") throw new Error(`setup: ${JSON.stringify(created)}`);
  const paid = await payWithCard(t.db, created.invoice.id, CARD);
  if (paid.kind === "refused" || paid.invoice.status !== "processed") throw new Error("setup: the payment was not processed");
  // Two saves that change the order (the listed order reversed, then back), so the rollback example's version 2 exists.
  const reorder = (await routeModule("/api/routing/{id}")).PATCH!;
  const save = async (ids: string[]) => {
    const saved = await send<{ attributes: { connection_ids: string[] } }, { id: string }>(
      reorder,
      { id: ROUTING_ORDER },
      { method: "PATCH", path: `/api/routing/${ROUTING_ORDER}`, key: m.key, body: { data: { type: "routing-order", attributes: { connection_ids: ids } } } },
    );
    if (saved.status !== 200) throw new Error(`setup: routing ${saved.text}`);
    return saved.json.data.attributes.connection_ids;
  };
  const listed = await save([providerB.id]);
  await save([...listed].reverse());
  await save(listed);
  const { key: liveKey } = await createApiKey(t.db, { merchantId: m.merchantId, name: "live examples", mode: "live" });
  // Two authorized payments (flow authorize): one for the capture example, one for the void example.
  const authorizedPayment = async () => {
    const authorize = templateEnvelope(findTemplate("b-payment")!, { commerceAccount: m.account, referenceId: newReference() }) as {
      data: { attributes: Record<string, unknown> };
    };
    Object.assign(authorize.data.attributes, { flow: "authorize", amount: "100.00", options: { allow_partially: false } });
    const made = await createInvoice(t.db, m.merchant, "payment", authorize);
    if (made.kind !== "created") throw new Error(`setup: ${JSON.stringify(made)}`);
    const held = await payWithCard(t.db, made.invoice.id, CARD);
    if (held.kind === "refused" || held.invoice.status !== "authorized")
      throw new Error(`setup: not authorized (${held.kind === "refused" ? "refused" : held.invoice.status})`);
    return made.invoice.id;
  };
  const toCapture = await authorizedPayment();
  const toVoid = await authorizedPayment();
  // A saved card (a paid payment that asked to save it) for the saved-card charge's example.
  const saving = templateEnvelope(findTemplate("b-payment")!, { commerceAccount: m.account, referenceId: newReference() }) as {
    data: { attributes: Record<string, unknown> };
  };
  Object.assign(saving.data.attributes, { gateway_options: { cardgate: { tokenize: "" } }, customer: { reference_id: "customer-0001" } });
  const saved = await createInvoice(t.db, m.merchant, "payment", saving);
  if (saved.kind !== "created") throw new Error(`setup: ${JSON.stringify(saved)}`);
  await payWithCard(t.db, saved.invoice.id, CARD);
  const [method] = await t.db.select({ id: paymentMethods.id }).from(paymentMethods).where(eq(paymentMethods.merchantId, m.merchantId));
  if (!method) throw new Error("setup: no card was saved");
  // A dispute of the processed payment, as its provider would notify it, and an uploaded file the evidence example names.
  const [attempt] = await t.db.select().from(invoiceAttempts).where(eq(invoiceAttempts.invoiceId, created.invoice.id));
  const connection = connections.find((candidate) => candidate.id === attempt!.connectionId)!;
  const opened = await applyDisputeReport(
    t.db,
    { id: connection.id, merchantId: m.merchantId, mode: "test" },
    {
      disputeReference: "dsp-example-0001",
      paymentReference: attempt!.providerReference!,
      // Part of the payment only: the refund examples refund the rest.
      amountMinor: 1000n,
      currency: created.invoice.currency,
      reason: "not_received",
      providerReason: "not received",
      status: "needs_response",
      evidenceDueBy: new Date(Date.now() + 7 * 24 * 60 * 60_000),
    },
    "example",
  );
  if (opened.kind !== "created") throw new Error(`setup: no dispute (${opened.kind})`);
  const file = await uploadFile(t.db, {
    merchantId: m.merchantId,
    testMode: true,
    purpose: "dispute_evidence",
    file: new File([EXAMPLE_PDF], "receipt.pdf"),
    createdBy: "setup",
  });
  if (file.kind !== "created") throw new Error("setup: no file");
  // The path parameters each example is sent with: this merchant's own resources.
  const params = {
    "/api/connections/{id}": { id: providerB.id },
    "/api/commerce/payment-invoices/{id}/refunds": { id: created.invoice.id },
    "/api/commerce/payment-invoices/{id}/capture": { id: toCapture },
    "/api/commerce/payment-invoices/{id}/void": { id: toVoid },
    "/api/routing/{id}": { id: ROUTING_ORDER },
    "/api/routing/{id}/rollback": { id: ROUTING_ORDER },
    "/api/commerce/disputes/{id}/evidence": { id: opened.dispute.id },
  };
  return { m, liveKey, params, paymentMethodId: method.id, evidenceFileId: file.file.id };
}

describe("the OpenAPI document's request examples", () => {
  it("every operation that takes a body has an example, and each example is accepted as shown with the merchant's key", { timeout: 120_000 }, async () => {
    const { m, liveKey, params, paymentMethodId, evidenceFileId } = await world();
    const doc = buildOpenApiDocument({ baseUrl: "http://test", commerceAccount: m.account, paymentMethodId, evidenceFileId }) as {
      paths: Record<string, Record<string, Operation>>;
    };
    const sent: string[] = [];
    for (const [template, item] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        if (!METHODS.has(method) || !operation.requestBody) continue;
        const multipart = operation.requestBody.content["multipart/form-data"];
        if (multipart) {
          // A form: each example's fields as parts, the file part a small PDF (the example shows its bytes only as words).
          const forms = Object.entries(multipart.examples ?? {});
          expect(forms.length, `${operation.operationId} has no request example`).toBeGreaterThan(0);
          const handler = (await routeModule(template))[method.toUpperCase()]!;
          for (const [name, example] of forms) {
            const form = new FormData();
            for (const [field, value] of Object.entries(example.value as Record<string, string>)) {
              if (field === "file") form.set(field, new File([EXAMPLE_PDF], "receipt.pdf"));
              else form.set(field, value);
            }
            const request = new Request(`http://test${template}`, { method: method.toUpperCase(), headers: { authorization: `Bearer ${m.key}` }, body: form });
            const answer = await handler(request, { params: Promise.resolve({}) });
            expect(answer.status, `${operation.operationId} example ${name}: ${await answer.clone().text()}`).toBe(201);
            sent.push(`${operation.operationId}:${name}`);
          }
          continue;
        }
        const examples = Object.entries(operation.requestBody.content["application/vnd.api+json"]?.examples ?? {});
        expect(examples.length, `${operation.operationId} has no request example`).toBeGreaterThan(0);
        const pathParams = template.includes("{") ? params[template as keyof typeof params] : {};
        expect(pathParams, `no path parameters for ${template}`).toBeDefined();
        const url = template.replace(/\{(\w+)\}/g, (_all, name: string) => encodeURIComponent(pathParams![name]!));
        const handler = (await routeModule(template))[method.toUpperCase()]!;
        // The settings steer both modes, so the document says only a live key changes them.
        const key = (operation.responses["403"] as { $ref?: string } | undefined)?.$ref?.endsWith("/SettingsForbidden") ? liveKey : m.key;
        for (const [name, example] of examples) {
          const answer = await send(handler, pathParams!, { method: method.toUpperCase(), path: url, key, body: example.value });
          expect(answer.status, `${operation.operationId} example ${name}: ${answer.text}`).toBeGreaterThanOrEqual(200);
          expect(answer.status, `${operation.operationId} example ${name}: ${answer.text}`).toBeLessThan(300);
          sent.push(`${operation.operationId}:${name}`);
        }
      }
    }
    // The operations the reference had without examples are among those sent.
    for (const id of [
      "createConnection",
      "editConnection",
      "simulateRouting",
      "updateRoutingSettings",
      "reorderRouting",
      "createPaymentInvoice",
      "createPayoutInvoice",
      "createRefund",
      "rollBackRouting",
      "capturePaymentInvoice",
      "voidPaymentInvoice",
      // Authorize now, capture later; saving a card, and charging the saved card.
      "createPaymentInvoice:authorize-only",
      "createPaymentInvoice:save-card",
      "createPaymentInvoice:saved-card-charge",
      "saveDisputeEvidence",
      "uploadFile",
    ]) {
      expect(
        sent.some((entry) => entry === id || entry.startsWith(`${id}:`)),
        id,
      ).toBe(true);
    }
  });
});
