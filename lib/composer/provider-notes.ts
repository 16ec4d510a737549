import { PROVIDERS } from "@/lib/providers";
import { listTemplates } from "./templates";

/**
 * Who does what, for the composer's help texts, read from the registry so that no component names
 * a provider: e.g. which providers' examples send `bypass_hpp`.
 */

/** "A", "A and B", "A, B and C". */
export function joinNames(names: readonly string[]): string {
  if (names.length <= 1) return names[0] ?? "";
  return `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
}

/** Providers whose examples send a payment option (spec 2.4 "Seen in"). */
export function providersSendingOption(option: string): string[] {
  return PROVIDERS.filter((provider) => provider.examples.paymentOptions.includes(option)).map((provider) => provider.name);
}

/** Providers that offer a payout service (spec 4.2). */
export function providersOfferingPayouts(): string[] {
  return PROVIDERS.filter((provider) => provider.services.some((service) => service.direction === "payout")).map((provider) => provider.name);
}

/** Labels of the examples whose attributes carry a value at `path`, e.g. `gateway_options.cardgate.tokenize`. */
export function examplesSending(path: string): string[] {
  const valueAt = (attributes: unknown) => path.split(".").reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], attributes);
  return listTemplates()
    .filter((template) => valueAt(template.attributes) !== undefined)
    .map((template) => template.label);
}
