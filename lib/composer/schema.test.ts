import { describe, expect, it } from "vitest";
import { listTemplates } from "./templates";
import { valuesFromTemplate, type ComposerValues } from "./form-values";
import { composerFormSchema } from "./schema";

const context = { commerceAccount: "main", referenceId: "6f1c1b9e-2d3a-4c5b-8e7f-0a1b2c3d4e5f", connectionId: "conn_1" };
const template = (id: string) => listTemplates().find((t) => t.id === id)!;

function issuesOf(values: ComposerValues) {
  const result = composerFormSchema.safeParse(values);
  return result.success ? [] : result.error.issues.map((issue) => ({ path: issue.path.join("."), message: issue.message }));
}

describe("composerFormSchema: the API's validation, on the form's inputs", () => {
  it.each(listTemplates().map((t) => [t.id] as const))("accepts template %s", (id) => {
    expect(issuesOf(valuesFromTemplate(template(id), context))).toEqual([]);
  });

  it("puts a refused amount on Amount with the API's message", () => {
    const values = { ...valuesFromTemplate(template("b-payment"), context), amount: "1.234" };
    expect(issuesOf(values)).toEqual([{ path: "amount", message: expect.stringMatching(/decimal/i) }]);
  });

  it("puts customer, card and service_fields problems on their inputs", () => {
    const payout = valuesFromTemplate(template("a-payout"), context);
    expect(issuesOf({ ...payout, card_number: "4111 1111 1111 1112" }).map((i) => i.path)).toEqual(["card_number"]);
    const f = valuesFromTemplate(template("f-payment"), context);
    const badEmail = { ...f, customer: { ...f.customer, email: "not-an-email" } };
    expect(issuesOf(badEmail).map((i) => i.path)).toEqual(["customer.email"]);
    expect(issuesOf({ ...f, service_fields: "nope" }).map((i) => i.path)).toEqual(["service_fields"]);
  });

  it("asks for a connection when pinning, and a reference", () => {
    const values = { ...valuesFromTemplate(template("c-payment-amd"), context), routing: "pin" as const, connection_id: "", reference_id: "" };
    expect(
      issuesOf(values)
        .map((i) => i.path)
        .sort(),
    ).toEqual(["connection_id", "reference_id"]);
  });

  it("routes automatically by default: no connection needed, a service is", () => {
    const values = valuesFromTemplate(template("c-payment-amd"), { ...context, connectionId: "" });
    expect(values.routing).toBe("auto");
    expect(issuesOf(values)).toEqual([]);
    expect(issuesOf({ ...values, service: "", currency: "" }).map((i) => i.path)).toContain("service");
  });

  it("a saved card's charge needs its customer, one of its cards, and no pin", () => {
    const b = valuesFromTemplate(template("b-payment"), context);
    const saved = { ...b, payment_source: "saved_card" as const };
    expect(issuesOf(saved).map((i) => i.path)).toEqual(["saved_card_customer", "payment_method_id"]);
    expect(issuesOf({ ...saved, saved_card_customer: "cus-1" }).map((i) => i.path)).toEqual(["payment_method_id", "payment_method_id"]);
    expect(issuesOf({ ...saved, saved_card_customer: "cus-1", payment_method_id: "pm_1" })).toEqual([]);
    expect(issuesOf({ ...saved, saved_card_customer: "cus-1", payment_method_id: "pm_1", routing: "pin" }).map((i) => i.path)).toEqual(["payment_source"]);
  });
});
