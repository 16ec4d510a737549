import { getProvider } from "./lookup";
import type { ProviderCapabilities } from "./types";

/**
 * What an invoice asks of its provider beyond a sale: `authorize_capture` for
 * `flow: "authorize"`, `card_tokens` when `gateway_options.cardgate.tokenize` is present. Routing
 * (lib/routing/decide.ts) passes over connections whose provider cannot, and says so; creation
 * refuses an invoice no connected provider can take, at the field that asked. Isomorphic and a
 * lookup in the registry's constant table: the create path pays nothing else for it.
 */
export type CapabilityAsk = "authorize_capture" | "card_tokens" | "three_ds";

/** What an invoice's own request can ask (`three_ds` comes from a routing rule, not the request). */
export const CAPABILITY_ASKS: readonly Exclude<CapabilityAsk, "three_ds">[] = ["authorize_capture", "card_tokens"];

/** Where each ask comes from in the invoice request: the pointer of its 422. */
export const CAPABILITY_ASK_POINTERS: Readonly<Record<Exclude<CapabilityAsk, "three_ds">, string>> = {
  authorize_capture: "/data/attributes/flow",
  card_tokens: "/data/attributes/gateway_options/cardgate/tokenize",
};

/** The ask in plain words, as a routing sentence and a 422 name it. */
export const CAPABILITY_ASK_TEXT: Readonly<Record<CapabilityAsk, string>> = {
  authorize_capture: "authorize now and capture later",
  card_tokens: "save cards for later charges",
  three_ds: "authenticate the customer with 3-D Secure",
};

const NONE: ProviderCapabilities = {
  cardTokens: false,
  authorizeCapture: false,
  threeDSecure: false,
  partialCapture: false,
  void: false,
  authorizationHoldHours: null,
  note: "",
};

/** The provider's declared capabilities; an unknown provider can do nothing beyond a sale. */
export function capabilitiesOf(provider: string): ProviderCapabilities {
  return getProvider(provider)?.capabilities ?? NONE;
}

export function providerCan(provider: string, ask: CapabilityAsk): boolean {
  const capabilities = capabilitiesOf(provider);
  if (ask === "three_ds") return capabilities.threeDSecure;
  return ask === "authorize_capture" ? capabilities.authorizeCapture : capabilities.cardTokens;
}

/** The first of `asks` the provider cannot do, if any. */
export function missingCapability(provider: string, asks: readonly CapabilityAsk[]): CapabilityAsk | undefined {
  return asks.find((ask) => !providerCan(provider, ask));
}

/** Why routing passed over a connection of this provider, in plain words (the routing sentence's "Skipped: … (why)"). */
export function capabilitySkipReason(provider: string, ask: CapabilityAsk): string {
  const name = getProvider(provider)?.name ?? provider;
  return `${name} cannot ${CAPABILITY_ASK_TEXT[ask]}`;
}

/**
 * What a payment asks, from its stored or sent attributes: `flow` and `gateway_options`. Payouts
 * ask nothing.
 */
export function capabilityAsksOf(invoice: { direction?: "payment" | "payout"; flow?: unknown; gatewayOptions?: unknown }): CapabilityAsk[] {
  if (invoice.direction === "payout") return [];
  const asks: CapabilityAsk[] = [];
  if (invoice.flow === "authorize") asks.push("authorize_capture");
  const cardgate = (invoice.gatewayOptions as { cardgate?: unknown } | null | undefined)?.cardgate;
  if (cardgate !== null && typeof cardgate === "object" && (cardgate as { tokenize?: unknown }).tokenize !== undefined) asks.push("card_tokens");
  return asks;
}
