import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ConstantSpec } from "@/lib/providers/types";
import { getPath, isPlainObject, listLeaves, setPath } from "./object-paths";
import { resolveCustomer, type ResolveResult } from "./resolve-customer";

type Slot = { request: unknown; constant: string | undefined; fallback: string | undefined };
type Case = { target: string; slot: Slot };

const segment = fc.stringMatching(/^[a-z]{1,3}$/);
const present = fc.string({ minLength: 1, maxLength: 12 }).filter((value) => value.trim() !== "");
const absent = fc.constantFrom(undefined, null, "", " ", "\t\n");
const maybe = fc.oneof(present, absent);

/** Location inside the resolved customer object; collisions there would make a case ambiguous. */
function locationOf(target: string): string[] {
  return target.replace(/^customer\./, "").split(".");
}

function clashes(a: string[], b: string[]): boolean {
  const length = Math.min(a.length, b.length);
  return a.slice(0, length).join(".") === b.slice(0, length).join(".");
}

const targetArb = fc.oneof(
  fc.array(segment, { minLength: 1, maxLength: 3 }).map((parts) => `customer.${parts.join(".")}`),
  segment,
);

const casesArb = fc
  .uniqueArray(
    fc.record({
      target: targetArb,
      slot: fc.record({
        request: maybe,
        constant: maybe.map((value) => (value === null ? undefined : value)),
        fallback: maybe.map((value) => (value === null ? undefined : value)),
      }),
    }),
    { selector: (entry) => entry.target, maxLength: 8 },
  )
  .map((cases) => cases.filter((entry, index) => cases.every((other, j) => j >= index || !clashes(locationOf(entry.target), locationOf(other.target)))));

function run(cases: readonly Case[]): Extract<ResolveResult, { ok: true }> {
  const customer: Record<string, unknown> = {};
  const attributes: Record<string, unknown> = { customer };
  const constantSpecs: ConstantSpec[] = [];
  const constants: Record<string, string | undefined> = {};
  const defaults: Record<string, string> = {};
  cases.forEach(({ target, slot }, index) => {
    const isCustomer = target.startsWith("customer.");
    if (slot.request !== undefined) setPath(isCustomer ? customer : attributes, locationOf(target), slot.request);
    const name = `C${index}`;
    constantSpecs.push({ name, target, label: name, format: "text" });
    constants[name] = slot.constant;
    if (slot.fallback !== undefined) defaults[target] = slot.fallback;
  });
  const result = resolveCustomer({ data: { attributes }, constants, constantSpecs, defaults });
  if (!result.ok) throw new Error("unexpected errors");
  return result;
}

function isFilled(value: unknown): value is string {
  return typeof value === "string" && value.trim() !== "";
}

describe("resolveCustomer properties", () => {
  it("takes the request value over the constant and the constant over the default", () => {
    fc.assert(
      fc.property(casesArb, (cases) => {
        const result = run(cases);
        for (const { target, slot } of cases) {
          const field = result.fields.find((entry) => entry.path === target);
          const value = getPath(result.customer, locationOf(target));
          if (isFilled(slot.request)) {
            expect(field).toEqual({ path: target, value: slot.request, source: "request" });
          } else if (isFilled(slot.constant)) {
            expect(field?.source).toBe("constant");
            expect(field?.value).toBe(slot.constant);
          } else if (isFilled(slot.fallback)) {
            expect(field).toEqual({ path: target, value: slot.fallback, source: "default" });
          } else {
            expect(field).toBeUndefined();
            expect(value).toBeUndefined();
            continue;
          }
          expect(value).toBe(field?.value);
        }
      }),
      { numRuns: 300 },
    );
  });

  it("leaves the customer empty when nothing is given anywhere", () => {
    fc.assert(
      fc.property(casesArb, fc.array(absent, { minLength: 3, maxLength: 3 }), (cases, [request, constant, fallback]) => {
        const slot = { request, constant: constant ?? undefined, fallback: fallback ?? undefined };
        const result = run(cases.map((entry) => ({ ...entry, slot })));
        expect(result.customer).toEqual({});
        expect(result.fields).toEqual([]);
      }),
    );
  });

  it("never outputs empty strings, lists every leaf once and sorts fields", () => {
    const customerArb = fc.dictionary(segment, fc.jsonValue({ maxDepth: 3 }));
    fc.assert(
      fc.property(customerArb, casesArb, (customer, cases) => {
        const result = resolveCustomer({
          data: { attributes: { customer } },
          constants: Object.fromEntries(cases.map((entry, index) => [`C${index}`, entry.slot.constant])),
          constantSpecs: cases.map(({ target }, index) => ({ name: `C${index}`, target, label: "", format: "text" })),
        });
        if (!result.ok) throw new Error("unexpected errors");
        const leaves = listLeaves(result.customer);
        for (const leaf of leaves) {
          expect(typeof leaf.value === "string" && leaf.value.trim() === "").toBe(false);
          expect(leaf.value).not.toBeNull();
        }
        expect(result.fields).toHaveLength(leaves.length);
        const paths = result.fields.map((field) => field.path);
        expect(paths).toEqual([...paths].sort());
        expect(isPlainObject(result.customer)).toBe(true);
      }),
    );
  });

  it("resolves the same customer identically in all three placements", () => {
    const customerArb = fc.dictionary(segment, fc.jsonValue({ maxDepth: 3 }));
    fc.assert(
      fc.property(customerArb, (customer) => {
        const specs: ConstantSpec[] = [{ name: "CITY", target: "customer.address.city", label: "", format: "text" }];
        const datas = [{ attributes: { customer } }, { customer, attributes: {} }, { attributes: { gateway_options: { customer } } }];
        const outputs = datas.map((data) => {
          const result = resolveCustomer({ data, constants: { CITY: "Lviv" }, constantSpecs: specs });
          return result.ok ? { customer: result.customer, fields: result.fields } : result;
        });
        expect(outputs[1]).toEqual(outputs[0]);
        expect(outputs[2]).toEqual(outputs[0]);
      }),
    );
  });
});
