import type { Problem } from "@/lib/problems";
import type { ConstantSpec, CustomerPlacement } from "@/lib/providers/types";
import { copyWithoutBlanks, getPath, isPlainObject, isPresent, listLeaves, setPath, type PlainObject } from "./object-paths";

export type { CustomerPlacement };

export type FieldSource = "request" | "constant" | "default";

export type ResolvedField = {
  /** Spec path relative to `data.attributes`, e.g. "customer.address.city" or "language". */
  path: string;
  value: unknown;
  source: FieldSource;
  /** Name of the constant that supplied the value; set only when source is "constant". */
  constant?: string;
};

/** Problems are `customer_conflict` (sent in two spots) or `customer_invalid`, with paths from the document root. */
export type ResolveResult =
  { ok: true; placement: CustomerPlacement | null; customer: PlainObject; fields: ResolvedField[] } | { ok: false; problems: Problem[] };

export type ResolveCustomerInput = {
  /** The request envelope's `data` member, unvalidated. */
  data: unknown;
  /** Stored constant values keyed by constant name. */
  constants: Readonly<Record<string, string | undefined>>;
  constantSpecs: readonly ConstantSpec[];
  /** Built-in fallbacks keyed by target path (spec 2.6, Provider B). */
  defaults?: Readonly<Record<string, string>>;
};

const CUSTOMER_PREFIX = "customer.";

/** Spec 2.1: the same customer object may arrive in any one of these spots. */
const PLACEMENTS: readonly { placement: CustomerPlacement; segments: string[] }[] = [
  { placement: "attributes", segments: ["attributes", "customer"] },
  { placement: "data", segments: ["customer"] },
  { placement: "gateway_options", segments: ["attributes", "gateway_options", "customer"] },
];

type Target = {
  path: string;
  /** Where the value sits inside the resolved customer object. */
  segments: string[];
  isCustomerField: boolean;
  constants: { name: string; value: string | undefined }[];
  fallback: string | undefined;
};

/** `path` is from the document root: `data` is the envelope's `data` member. */
type Found = { placement: CustomerPlacement; path: string[]; value: unknown };

function findCustomers(data: unknown): Found[] {
  return PLACEMENTS.map(({ placement, segments }) => ({
    placement,
    path: ["data", ...segments],
    value: getPath(data, segments),
  })).filter((found) => found.value !== undefined && found.value !== null);
}

function checkPlacements(found: readonly Found[]): Problem[] {
  const problems: Problem[] = [];
  for (const entry of found) {
    if (!isPlainObject(entry.value)) {
      problems.push({ code: "customer_invalid", message: "customer must be an object", path: entry.path });
    }
  }
  const [first, ...extras] = found;
  for (const extra of extras) {
    problems.push({
      code: "customer_conflict",
      message: `customer is also sent at /${first?.path.join("/")}; send it in one place only`,
      path: extra.path,
    });
  }
  return problems;
}

function collectTargets(specs: readonly ConstantSpec[], input: ResolveCustomerInput): Target[] {
  const byPath = new Map<string, Target>();
  const targetFor = (path: string): Target => {
    let target = byPath.get(path);
    if (!target) {
      const isCustomerField = path.startsWith(CUSTOMER_PREFIX);
      const relative = isCustomerField ? path.slice(CUSTOMER_PREFIX.length) : path;
      target = { path, segments: relative.split("."), isCustomerField, constants: [], fallback: undefined };
      byPath.set(path, target);
    }
    return target;
  };
  for (const spec of specs) {
    targetFor(spec.target).constants.push({ name: spec.name, value: input.constants[spec.name] });
  }
  for (const [path, value] of Object.entries(input.defaults ?? {})) targetFor(path).fallback = value;
  return [...byPath.values()];
}

type Choice = { value: unknown; source: FieldSource; constant?: string };

function pickValue(target: Target, customer: PlainObject, attributes: unknown): Choice | undefined {
  const sent = target.isCustomerField
    ? getPath(customer, target.segments)
    : [getPath(attributes, target.segments), getPath(customer, target.segments)].find(isPresent);
  if (isPresent(sent)) return { value: sent, source: "request" };
  const constant = target.constants.find((entry) => isPresent(entry.value));
  if (constant) return { value: constant.value, source: "constant", constant: constant.name };
  if (isPresent(target.fallback)) return { value: target.fallback, source: "default" };
  return undefined;
}

/**
 * Builds the customer object a provider receives: the request's customer, with gaps filled
 * from the connection's constants and then from built-in defaults (spec 2.3, 2.5, 2.6).
 */
export function resolveCustomer(input: ResolveCustomerInput): ResolveResult {
  const found = findCustomers(input.data);
  const problems = checkPlacements(found);
  if (problems.length > 0) return { ok: false, problems };

  const sent = found[0];
  const customer = copyWithoutBlanks(isPlainObject(sent?.value) ? sent.value : {});
  const attributes = getPath(input.data, ["attributes"]);
  const picks = new Map<string, Choice>();
  const targets = collectTargets(input.constantSpecs, input);

  for (const target of targets) {
    const pick = pickValue(target, customer, attributes);
    // Targets outside `customer.` (Provider B's `language`) still describe the customer, and
    // the resolved customer is everything the provider receives about them, so they sit at
    // the top level of the same object rather than in a second structure.
    if (pick && isPresent(pick.value) && setPath(customer, target.segments, pick.value)) {
      picks.set(target.path, pick);
    }
  }

  const outside = targets.filter((target) => !target.isCustomerField).map((target) => target.path);
  const fields = listLeaves(customer).map(({ segments, value }): ResolvedField => {
    const relative = segments.join(".");
    const isOutside = outside.some((path) => relative === path || relative.startsWith(`${path}.`));
    const path = isOutside ? relative : `${CUSTOMER_PREFIX}${relative}`;
    const pick = picks.get(path);
    const source = pick?.source ?? "request";
    return pick?.constant ? { path, value, source, constant: pick.constant } : { path, value, source };
  });
  fields.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));

  return { ok: true, placement: sent?.placement ?? null, customer, fields };
}
