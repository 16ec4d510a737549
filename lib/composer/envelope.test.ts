import { describe, expect, it } from "vitest";
import { listTemplates, templateEnvelope } from "./templates";
import { amountValue, buildEnvelope, optionsFor } from "./envelope";
import { initialValues, valuesFromTemplate, type ComposerValues } from "./form-values";

const REFERENCE = "6f1c1b9e-2d3a-4c5b-8e7f-0a1b2c3d4e5f";
const context = { commerceAccount: "main", referenceId: REFERENCE, connectionId: "conn_1" };

function values(overrides: Partial<ComposerValues> = {}): ComposerValues {
  return { ...valuesFromTemplate(listTemplates()[0]!, context), ...overrides };
}

describe("buildEnvelope", () => {
  it.each(listTemplates().map((t) => [t.id, t] as const))(
    "turns the form values of %s back into the template's body, routed automatically",
    (_id, template) => {
      const built = buildEnvelope(valuesFromTemplate(template, context));
      expect(built.problems).toEqual([]);
      expect(built.envelope).toEqual(templateEnvelope(template, { commerceAccount: context.commerceAccount, referenceId: REFERENCE }));
      expect(built.envelope.data).not.toHaveProperty("relationships");
    },
  );

  it("pins the connection only when pinning is chosen; a live invoice only where the merchant allows live pins", () => {
    const template = listTemplates()[0]!;
    const pinned = { ...valuesFromTemplate(template, context), routing: "pin" as const };
    expect(buildEnvelope(pinned).envelope).toEqual(templateEnvelope(template, context));
    expect(buildEnvelope(pinned).envelope.data.relationships).toEqual({ connection: { data: { type: "connection", id: "conn_1" } } });
    expect(buildEnvelope({ ...pinned, test_mode: false }).envelope.data).not.toHaveProperty("relationships");
    expect(buildEnvelope({ ...pinned, test_mode: false }, { pinLive: true }).envelope.data).toHaveProperty("relationships");
    expect(buildEnvelope({ ...pinned, routing: "auto" }, { pinLive: true }).envelope.data).not.toHaveProperty("relationships");
  });

  it("charges a saved card: the payment_method relationship, the customer's reference, no pin and no tokenize", () => {
    const template = listTemplates().find((t) => t.direction === "payment")!;
    const form = {
      ...valuesFromTemplate(template, context),
      routing: "pin" as const,
      send_tokenize: true,
      payment_source: "saved_card" as const,
      saved_card_customer: " cus_42 ",
      payment_method_id: "pm_abc",
    };
    const { envelope } = buildEnvelope(form, { pinLive: true });
    expect(envelope.data.relationships).toEqual({ payment_method: { data: { type: "payment-methods", id: "pm_abc" } } });
    const attributes = envelope.data.attributes as Record<string, unknown>;
    expect((attributes.customer as Record<string, unknown>).reference_id).toBe("cus_42");
    expect((attributes.gateway_options as { cardgate?: unknown } | undefined)?.cardgate).toBeUndefined();
    // Back to the hosted page: no relationship of a saved card stays.
    expect(buildEnvelope({ ...form, payment_source: "hosted" }, { pinLive: true }).envelope.data.relationships).toEqual({
      connection: { data: { type: "connection", id: "conn_1" } },
    });
  });

  it("leaves blank customer fields out and places the customer where chosen (spec 2.1, 2.3)", () => {
    const form = values({ customer_placement: "gateway_options" });
    form.customer.address.city = "  ";
    form.customer.address.country = "UA";
    const { envelope } = buildEnvelope(form);
    const attributes = envelope.data.attributes as Record<string, unknown>;
    expect(attributes.customer).toBeUndefined();
    expect(attributes.gateway_options).toEqual({ customer: { reference_id: "cust-1001", name: "Olena Kovalenko", address: { country: "UA" } } });
    expect(buildEnvelope({ ...form, customer_placement: "none" }).envelope.data).not.toHaveProperty("customer");
  });

  it("sends only the customer fields shown for the provider", () => {
    const form = values();
    form.customer.email = "hidden@example.com"; // Provider A's examples show no e-mail
    expect(JSON.stringify(buildEnvelope(form).envelope)).not.toContain("hidden@example.com");
  });

  it("reports service_fields that are not a JSON array on their field", () => {
    expect(buildEnvelope(values({ service_fields: "{" })).problems).toEqual([{ field: "service_fields", message: expect.stringContaining("not valid JSON") }]);
    expect(buildEnvelope(values({ service_fields: '{"a":1}' })).problems[0]?.field).toBe("service_fields");
    expect(buildEnvelope(values({ service_fields: '[{"name":"x"}]' })).envelope.data.attributes).toMatchObject({ service_fields: [{ name: "x" }] });
  });

  it("gives payouts fields.card_number and no flow, gateway_options or service_fields", () => {
    const form = {
      ...initialValues({ commerceAccount: "main", referenceId: REFERENCE, direction: "payout" }),
      card_number: "4111 1111 1111 1111",
      send_tokenize: true,
      service_fields: "[]",
    };
    const attributes = buildEnvelope(form).envelope.data.attributes as Record<string, unknown>;
    expect(attributes.fields).toEqual({ card_number: "4111 1111 1111 1111" });
    expect(attributes).not.toHaveProperty("flow");
    expect(attributes).not.toHaveProperty("gateway_options");
    expect(attributes).not.toHaveProperty("service_fields");
    expect(buildEnvelope({ ...form, customer_placement: "gateway_options" }).problems[0]?.field).toBe("customer_placement");
  });

  it("sends attempts_limit as a whole number, blank as absent, anything else as typed for the API to judge", () => {
    const payout = valuesFromTemplate(listTemplates()[1]!, context);
    const optionsOf = (attempts: string) =>
      (buildEnvelope({ ...payout, options: { ...payout.options, attempts_limit: attempts } }).envelope.data.attributes as { options: object }).options;
    expect(optionsOf("3")).toMatchObject({ attempts_limit: 3 });
    expect(optionsOf("")).not.toHaveProperty("attempts_limit");
    expect(optionsOf("2.5")).toMatchObject({ attempts_limit: "2.5" });
  });
});

describe("optionsFor (spec 2.4)", () => {
  it("offers bypass_hpp and send_operation_context_on_return on Provider F payments only, payout options on payouts", () => {
    expect(optionsFor("payment", "provider-b")).toEqual(["allow_partially"]);
    expect(optionsFor("payment", "provider-f")).toEqual(["allow_partially", "bypass_hpp", "send_operation_context_on_return"]);
    expect(optionsFor("payout", "provider-a")).toEqual(["attempts_limit", "split_mode", "allow_partially", "auto_process"]);
  });
});

describe("amountValue", () => {
  it.each([
    ["100", false, 100],
    ["100.5", false, 100.5],
    ["100.50", false, 100.5],
    ["0.01", false, 0.01],
    ["100.50", true, "100.50"],
    ["1.234", false, 1.234],
    ["12345678901234567890", false, "12345678901234567890"],
    ["1e3", false, "1e3"],
    ["abc", false, "abc"],
    ["", false, ""],
  ] as const)("%s (as string: %s) → %j", (text, asString, expected) => {
    expect(amountValue(text, asString)).toEqual(expected);
  });
});
