import type { constantValueSchema } from "@/lib/customers/constant-formats";
import type { ResolvedField } from "@/lib/customers";
import type { ConstantFormat, ConstantSpec, ProviderSpec } from "@/lib/providers";

export type SampleInvoice = "without_customer" | "with_customer";

export const SAMPLE_INVOICES: readonly { id: SampleInvoice; label: string }[] = [
  { id: "without_customer", label: "Sample invoice without a customer" },
  { id: "with_customer", label: "Sample invoice with a customer name and city" },
];

/** Deliberately not a constant value of any provider's examples, so "request" stands out. */
const SAMPLE_CUSTOMER = { name: "Ada Lovelace", address: { city: "Paris" } };

/**
 * A minimum payment request (spec 2.1, 2.2) in the provider's first payment service, with the
 * customer at `data.attributes.customer` as most examples place it.
 */
export function sampleInvoiceData(sample: SampleInvoice, provider: Pick<ProviderSpec, "services">) {
  const service = provider.services.find((s) => s.direction === "payment") ?? provider.services[0];
  return {
    type: "payment-invoice",
    attributes: {
      service: service?.code ?? "payment_card_eur_hpp",
      commerce_account: "your-commerce-account",
      currency: service?.currency ?? "EUR",
      amount: 25.5,
      flow: "charge",
      reference_id: "7d2c6b0e-4f1a-4c3e-9b8d-2a5f6e7c8d90",
      test_mode: true,
      ...(sample === "with_customer" ? { customer: SAMPLE_CUSTOMER } : {}),
    },
  };
}

export type PreviewConstants = {
  /** Normalised values, as the server would store them; blank ones left out. */
  constants: Record<string, string>;
  /** Names whose current value would be refused on save, so the preview leaves them out. */
  invalid: string[];
};

/**
 * The editor's values as the resolver would see them after saving: each one checked with the same
 * schema the server uses (`schemaOf`, lib/customers' constantValueSchema), so the preview never
 * shows a value that cannot be saved. Without `schemaOf` (the page has not loaded zod yet: nothing
 * was edited) the values are taken as they are, since saved values were checked when saved.
 */
export function previewConstants(
  specs: readonly ConstantSpec[],
  values: Readonly<Record<string, unknown>> | undefined,
  schemaOf: typeof constantValueSchema | undefined,
  now?: () => Date,
): PreviewConstants {
  const constants: Record<string, string> = {};
  const invalid: string[] = [];
  for (const spec of specs) {
    const value = values?.[spec.name];
    if (typeof value !== "string" || value.trim() === "") continue;
    if (!schemaOf) {
      constants[spec.name] = value.trim();
      continue;
    }
    const parsed = schemaOf(spec.format, now ? { now } : {}).safeParse(value);
    if (parsed.success) constants[spec.name] = parsed.data;
    else invalid.push(spec.name);
  }
  return { constants, invalid };
}

export type ConstantInputType = "email" | "tel" | "text";

export function constantInputType(format: ConstantFormat): ConstantInputType {
  if (format === "email") return "email";
  if (format === "phone" || format === "phone_country_code") return "tel";
  // A text box, not type="date": the browser's date picker shows the date in the browser's locale
  // (04/21/1990), while the help text and the saved value are YYYY-MM-DD.
  return "text";
}

/** Every constant as a string, so each input is controlled from the start; "" means not set. */
export function editorValues(specs: readonly ConstantSpec[], stored: Readonly<Record<string, string | null | undefined>>) {
  const out: Record<string, string> = {};
  for (const spec of specs) out[spec.name] = stored[spec.name] ?? "";
  return out;
}

/** The parts of one postal address; a mix of the merchant's and a provider's defaults describes no real place. */
const ADDRESS_PARTS = new Set(["full_address", "city", "post_code", "region", "country"]);

export type AddressMix = { own: ResolvedField[]; defaults: ResolvedField[] };

/**
 * Provider B fills missing address parts with its own built-in address (1 Canada Square, London).
 * When the merchant's constants or the request set only some parts, the provider would receive a
 * mixed address (city Berlin with "1 Canada Square, London E14 5AB"); null when there is no mix.
 */
export function addressMix(fields: readonly ResolvedField[]): AddressMix | null {
  const address = fields.filter((field) => {
    const parts = field.path.split(".");
    return parts.at(-2) === "address" && ADDRESS_PARTS.has(parts.at(-1)!);
  });
  const own = address.filter((field) => field.source !== "default");
  const defaults = address.filter((field) => field.source === "default");
  return own.length && defaults.length ? { own, defaults } : null;
}
