import { describe, expect, it } from "vitest";
import { getProvider } from "@/lib/providers";
import { validateInvoice } from "../invoices/contract/validate-invoice";
import { findTemplate, listTemplates, templateEnvelope, type InvoiceTemplate } from "./templates";

const REFERENCE = "6f1c1b9e-2d3a-4c5b-8e7f-0a1b2c3d4e5f";
const envelopeOf = (template: InvoiceTemplate) => templateEnvelope(template, { commerceAccount: "main", referenceId: REFERENCE });
const byId = (id: string) => findTemplate(id)!;

describe("invoice templates (spec 4.1, 4.2)", () => {
  it("has one template per provider example: A payment, A payout, B, C in AMD, C in EUR, D, E, F", () => {
    expect(listTemplates().map((t) => t.id)).toEqual([
      "a-payment",
      "a-payout",
      "b-payment",
      "c-payment-amd",
      "c-payment-eur",
      "d-payment",
      "e-payment",
      "f-payment",
    ]);
  });

  it.each(listTemplates().map((t) => [t.id, t] as const))("%s passes the API's own validation", (_id, template) => {
    const result = validateInvoice(template.direction, envelopeOf(template));
    expect(result.ok ? [] : result.problems).toEqual([]);
  });

  it.each(listTemplates().map((t) => [t.id, t] as const))("%s uses a service its provider offers, in its currency", (_id, template) => {
    const service = getProvider(template.provider)?.services.find((s) => s.code === template.service);
    expect(service).toMatchObject({ currency: template.currency, direction: template.direction });
    expect(template.attributes).toMatchObject({ service: template.service, currency: template.currency });
  });

  it("fills commerce_account and reference_id, and puts the customer in the template's spot (spec 2.1)", () => {
    const f = envelopeOf(byId("f-payment")).data as Record<string, unknown>;
    expect(f.customer).toMatchObject({ name: "Ada Lovelace" });
    expect((f.attributes as Record<string, unknown>).customer).toBeUndefined();
    expect(f.attributes).toMatchObject({ commerce_account: "main", reference_id: REFERENCE });
    const e = envelopeOf(byId("e-payment")).data.attributes as Record<string, unknown>;
    expect(e.customer).toMatchObject({ date_of_birth: "1990-04-21" });
  });

  it("follows each provider's notes of spec 4.1 and 4.2", () => {
    const attributes = (id: string) => byId(id).attributes as Record<string, unknown>;
    expect(attributes("a-payment")).toMatchObject({ service: "payment_card_uah_hpp", currency: "UAH", flow: "charge", options: { allow_partially: false } });
    expect(Object.keys(attributes("a-payment").options as object)).toEqual(["allow_partially"]);
    expect(attributes("a-payout")).toMatchObject({
      service: "payment_card_uah",
      test_mode: true,
      fields: { card_number: "411111******1111" },
      options: { attempts_limit: 5, split_mode: false, allow_partially: false, auto_process: true },
    });
    expect(byId("a-payout").customer).toBeDefined();
    expect(byId("b-payment").customer).toBeUndefined();
    expect(attributes("c-payment-amd")).toMatchObject({ service: "payment_card_amd_hpp", currency: "AMD" });
    for (const id of ["c-payment-eur", "d-payment", "f-payment"]) {
      expect(attributes(id)).toMatchObject({ gateway_options: { cardgate: { tokenize: "" } }, service_fields: [] });
    }
    expect(attributes("d-payment")).toMatchObject({ service: "payment_card_uzs_hpp", currency: "UZS" });
    expect(byId("e-payment").customer).toHaveProperty("date_of_birth");
    expect(attributes("f-payment").options).toEqual({ allow_partially: false, bypass_hpp: true, send_operation_context_on_return: true });
  });

  it("every payment is a test-mode charge and every template sends options.allow_partially (spec 2.4)", () => {
    for (const template of listTemplates()) {
      expect(template.attributes.test_mode).toBe(true);
      expect(template.attributes.options).toHaveProperty("allow_partially");
      if (template.direction === "payment") expect(template.attributes.flow).toBe("charge");
    }
  });
});
