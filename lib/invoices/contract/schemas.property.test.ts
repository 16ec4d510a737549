import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { toJsonPointer } from "@/lib/problems";
import { validateInvoice } from "./validate-invoice";
import { PAYMENT_EXAMPLES, payoutExample } from "@/tests/fixtures/invoices";

const directions = fc.constantFrom("payment" as const, "payout" as const);

/** Replaces one attribute of a valid body with arbitrary JSON, the way a buggy client would. */
function withAttribute(body: unknown, key: string, value: unknown): unknown {
  const { data } = body as { data: { attributes: Record<string, unknown> } };
  return { data: { ...data, attributes: { ...data.attributes, [key]: value } } };
}

describe("validateInvoice on arbitrary input", () => {
  it("never throws and points every issue into the body", () => {
    fc.assert(
      fc.property(directions, fc.jsonValue(), (direction, body) => {
        const result = validateInvoice(direction, body);
        if (!result.ok) {
          for (const problem of result.problems) {
            const pointer = toJsonPointer(problem.path);
            expect(pointer === "" || pointer.startsWith("/")).toBe(true);
          }
        }
      }),
    );
  });

  it("survives any value in any attribute, including __proto__", () => {
    const bases = [...Object.values(PAYMENT_EXAMPLES), payoutExample()];
    const keys = fc.constantFrom("service", "currency", "amount", "customer", "options", "fields", "gateway_options", "__proto__");
    fc.assert(
      fc.property(fc.constantFrom(...bases), keys, fc.jsonValue(), (base, key, value) => {
        const direction = (base as { data: { type: string } }).data.type === "payout-invoice" ? "payout" : "payment";
        const body = JSON.parse(JSON.stringify(withAttribute(base, key, value))) as unknown;
        const result = validateInvoice(direction, body);
        expect(result.ok || result.problems.length > 0).toBe(true);
      }),
    );
  });
});
