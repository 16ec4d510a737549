import { findService, listServices } from "@/lib/providers";
import type { InvoiceDirection } from "@/lib/providers";
import type { Problem } from "@/lib/problems";
import { findReservedMembers, reservedMemberMessage } from "@/lib/customers/object-paths";
import { parseAmount } from "@/lib/money";

/** The codes of the rules below; they report Problems with paths from the request envelope's root. */
export type InvoiceRuleCode =
  "unknown_service" | "service_type_mismatch" | "currency_mismatch" | "invalid_amount" | "customer_conflict" | "too_deep" | "invalid_character";

export const ATTRIBUTES_PATH = ["data", "attributes"] as const;

const SERVICE_CODE_MAX = 255;

type JsonObject = Record<string, unknown>;

const isObject = (value: unknown): value is JsonObject => typeof value === "object" && value !== null && !Array.isArray(value);

function serviceCodes(direction: InvoiceDirection): string {
  return listServices()
    .filter((service) => service.direction === direction)
    .map((service) => service.code)
    .join(", ");
}

function checkService(direction: InvoiceDirection, attributes: JsonObject): Problem[] {
  const { service, currency } = attributes;
  // Over-long values already fail their own length check; echoing them again helps nobody.
  if (typeof service !== "string" || service === "" || service.length > SERVICE_CODE_MAX) return [];
  const path = [...ATTRIBUTES_PATH, "service"];
  const spec = findService(service);
  if (!spec) {
    return [
      {
        path,
        code: "unknown_service",
        message: `Unknown service "${service}"; ${direction} services are: ${serviceCodes(direction)}`,
      },
    ];
  }
  if (spec.direction !== direction) {
    return [
      {
        path,
        code: "service_type_mismatch",
        message: `${service} is a ${spec.direction} service; a ${direction} invoice takes one of: ${serviceCodes(direction)}`,
      },
    ];
  }
  // Spec 2.2: the currency "must match the currency of the service".
  if (typeof currency === "string" && currency !== spec.currency) {
    return [
      {
        path: [...ATTRIBUTES_PATH, "currency"],
        code: "currency_mismatch",
        message: `${service} takes ${spec.currency}, got ${currency}`,
      },
    ];
  }
  return [];
}

/** Decimal places depend on the currency; the service's currency stands in when none is sent. */
function checkAmount(attributes: JsonObject): Problem[] {
  const { amount, currency, service } = attributes;
  if (typeof amount !== "number" && typeof amount !== "string") return [];
  const fallback = typeof service === "string" ? findService(service)?.currency : undefined;
  const result = parseAmount(amount, typeof currency === "string" ? currency : (fallback ?? ""));
  if (result.ok) return [];
  return [{ path: [...ATTRIBUTES_PATH, "amount"], code: "invalid_amount", message: result.message }];
}

/**
 * Cross-field rules of one invoice's attributes (spec 2.2). Every rule runs, so a request learns
 * all its problems at once (REFERENCE "Errors"). Takes unknown input because it also runs when
 * other fields failed their own checks.
 */
export function checkInvoiceRules(direction: InvoiceDirection, attributes: unknown): Problem[] {
  if (!isObject(attributes)) return [];
  return [...checkService(direction, attributes), ...checkAmount(attributes)];
}

const CUSTOMER_SPOTS: readonly (readonly string[])[] = [
  ["data", "attributes", "customer"],
  ["data", "customer"],
  ["data", "attributes", "gateway_options", "customer"],
];

function valueAt(source: unknown, path: readonly string[]): unknown {
  let current = source;
  for (const segment of path) {
    if (!isObject(current) || !Object.hasOwn(current, segment)) return undefined;
    current = current[segment];
  }
  return current;
}

/**
 * Spec 2.1: `customer` may sit in one of three spots, but one invoice has one customer. The
 * customer resolver reports the same conflict with the same code; checking it here lets a form
 * or the schema alone catch it.
 */
export function checkCustomerPlacement(envelope: unknown): Problem[] {
  const sent = CUSTOMER_SPOTS.filter((path) => {
    const value = valueAt(envelope, path);
    return value !== undefined && value !== null;
  });
  const [first, ...extras] = sent;
  return extras.map((path) => ({
    path: [...path],
    code: "customer_conflict" as const,
    message: `customer is also sent at /${first?.join("/")}; send it in one place only`,
  }));
}

/**
 * The customer is an open object (provider extras pass through), so it cannot refuse
 * unknown keys as attributes and constants do; it refuses the reserved member names
 * (`__proto__`, `constructor`, `prototype`, listed once in lib/customers/object-paths) anywhere
 * inside it, each with the same `unknown_attribute` code an unknown attribute gets. Runs on the
 * body as received: a parsed object no longer holds a `__proto__` member.
 */
export function checkReservedCustomerMembers(envelope: unknown): Problem[] {
  return CUSTOMER_SPOTS.flatMap((spot) =>
    findReservedMembers(valueAt(envelope, spot), spot).map(({ path, name }) => ({
      path,
      code: "unknown_attribute" as const,
      message: reservedMemberMessage(name),
    })),
  );
}

/** Deepest legitimate member is about six levels down (gateway_options.customer.address.…). */
const MAX_NESTING_DEPTH = 32;

/**
 * Limits of the storage, checked on the whole body, iteratively: open members (customer extras,
 * service_fields, gateway options) take any JSON, but a 64 KiB body can nest 30 000 levels, which
 * overflows the recursive JSON.stringify used to hash and store it; and PostgreSQL text and jsonb
 * cannot hold U+0000. Both are reported like any other field problem instead of failing later.
 */
export function checkJsonLimits(envelope: unknown, max = MAX_NESTING_DEPTH): Problem[] {
  const problems: Problem[] = [];
  const stack: { value: unknown; path: (string | number)[] }[] = [{ value: envelope, path: [] }];
  while (stack.length > 0) {
    const { value, path } = stack.pop()!;
    if (typeof value === "string") {
      if (value.includes("\u0000")) problems.push({ path, code: "invalid_character", message: "Text must not contain the NUL character (\\u0000)" });
      continue;
    }
    if (typeof value !== "object" || value === null) continue;
    if (path.length >= max) {
      problems.push({ path, code: "too_deep", message: `JSON nested more than ${max} levels deep; flatten this value` });
      continue;
    }
    const entries: [string | number, unknown][] = Array.isArray(value) ? value.map((item, index) => [index, item]) : Object.entries(value);
    for (const [key, child] of entries) {
      if (typeof key === "string" && key.includes("\u0000")) {
        problems.push({ path: [...path, key], code: "invalid_character", message: "Member names must not contain the NUL character (\\u0000)" });
      } else {
        stack.push({ value: child, path: [...path, key] });
      }
    }
  }
  return problems;
}
