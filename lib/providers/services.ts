import { getKind, getProvider } from "./lookup";
import { PROVIDERS } from "./registry";
import type { ConnectionKind, CredentialValues, KindSpec, ProviderSpec, ServiceSpec } from "./types";

/**
 * Every service of every provider, once per code (several providers share `payment_card_eur_hpp`).
 * Read from the registry on each call, so a provider registered later is included.
 */
export function listServices(): ServiceSpec[] {
  const byCode = new Map<string, ServiceSpec>();
  for (const provider of PROVIDERS) {
    for (const service of provider.services) {
      if (!byCode.has(service.code)) byCode.set(service.code, service);
    }
  }
  return [...byCode.values()];
}

export function findService(code: string): ServiceSpec | undefined {
  for (const provider of PROVIDERS) {
    const found = provider.services.find((service) => service.code === code);
    if (found) return found;
  }
  return undefined;
}

function hasField(kind: KindSpec, id: string): boolean {
  return kind.fields.some((field) => field.id === id);
}

function resolveKind(provider: ProviderSpec, kind: KindSpec | ConnectionKind): KindSpec | undefined {
  return typeof kind === "string" ? getKind(provider.slug, kind) : kind;
}

/**
 * Services a connection may process. A provider account exposes everything the provider offers;
 * an H2H account is set up for one currency, and where it lists features, payouts need `payouts`.
 */
export function servicesForConnection(provider: ProviderSpec | string, kind: KindSpec | ConnectionKind, credentials: CredentialValues): ServiceSpec[] {
  const providerSpec = typeof provider === "string" ? getProvider(provider) : provider;
  if (providerSpec === undefined) return [];
  const kindSpec = resolveKind(providerSpec, kind);
  if (kindSpec === undefined) return [];
  if (kindSpec.kind === "provider_account") return [...providerSpec.services];

  const features = Array.isArray(credentials.features) ? credentials.features : [];
  return providerSpec.services.filter((service) => {
    if (hasField(kindSpec, "currency") && service.currency !== credentials.currency) return false;
    if (hasField(kindSpec, "features") && service.direction === "payout") return features.includes("payouts");
    return true;
  });
}

/** Payment methods by the word in a service code (`payment_<method>_<currency>`). */
const METHOD_LABELS: Readonly<Record<string, string>> = { card: "Card" };

/**
 * A service as a merchant reads it, e.g. "Card payment · UAH · hosted page" for
 * `payment_card_uah_hpp` or "Card payout · UAH" for `payment_card_uah`; shown beside the code.
 */
export function serviceLabel(service: ServiceSpec): string {
  const method = /^payment_([a-z]+)_/.exec(service.code)?.[1] ?? "";
  const word = METHOD_LABELS[method] ?? (method ? method[0]!.toUpperCase() + method.slice(1) : "Payment");
  return [`${word} ${service.direction}`, service.currency, ...(service.hostedPage ? ["hosted page"] : [])].join(" · ");
}

/** The readable name of a service code; the code itself when no provider offers it. */
export function serviceLabelOf(code: string): string {
  const service = findService(code);
  return service ? serviceLabel(service) : code;
}
