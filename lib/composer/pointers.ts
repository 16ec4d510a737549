import { CUSTOMER_FIELD_PATHS } from "./customer-fields";
import type { ComposerValues } from "./form-values";

/** Where problems without an input of their own go; the composer shows them in its alert. */
export const ENVELOPE_FIELD = "envelope";

/**
 * A problem's path, or a JSON:API `source.pointer` (RFC 6901) → the composer field that holds the
 * value. Used for the browser's own validation and for the API's answer alike, so an error lands
 * on the same input either way. Undefined means "no input holds this": the form alert shows it.
 */
const ATTRIBUTE_FIELDS = new Set(["service", "commerce_account", "currency", "amount", "reference_id", "flow", "test_mode"]);
const OPTION_FIELDS = new Set<string>([
  "allow_partially",
  "attempts_limit",
  "split_mode",
  "auto_process",
  "bypass_hpp",
  "send_operation_context_on_return",
] satisfies (keyof ComposerValues["options"])[]);

function segmentsOf(pointer: string): string[] | undefined {
  if (!pointer.startsWith("/")) return undefined;
  return pointer
    .slice(1)
    .split("/")
    .map((part) => part.replace(/~1/g, "/").replace(/~0/g, "~"));
}

/** Inside a customer object: the field's input, or the spot selector for the object as a whole. */
function customerField(rest: readonly string[]): string {
  const path = rest.join(".");
  return CUSTOMER_FIELD_PATHS.includes(path) ? `customer.${path}` : "customer_placement";
}

function attributeField(name: string | undefined, rest: readonly string[]): string | undefined {
  if (name === undefined) return undefined;
  if (ATTRIBUTE_FIELDS.has(name)) return name;
  switch (name) {
    case "options":
      return rest[0] !== undefined && OPTION_FIELDS.has(rest[0]) ? `options.${rest[0]}` : undefined;
    case "fields":
      return "card_number";
    case "service_fields":
      return "service_fields";
    case "customer":
      return customerField(rest);
    case "gateway_options":
      if (rest[0] === "cardgate") return "tokenize";
      if (rest[0] === "customer") return customerField(rest.slice(1));
      return undefined;
    default:
      return undefined;
  }
}

/** A problem's path from the document root → the composer field that holds the value. */
export function pathToField(path: readonly (string | number)[]): string | undefined {
  if (path[0] !== "data") return undefined;
  const [, member, name, ...rest] = path.map(String);
  if (member === "type") return "direction";
  if (member === "customer") return customerField(name === undefined ? [] : [name, ...rest]);
  if (member === "attributes") return attributeField(name, rest);
  if (member === "relationships" && name === "payment_method") return "payment_method_id";
  return undefined;
}

export function pointerToField(pointer: string | undefined): string | undefined {
  const segments = pointer === undefined ? undefined : segmentsOf(pointer);
  return segments ? pathToField(segments) : undefined;
}
