import type { ServiceSpec } from "./types";

/** Card payment on the provider's hosted page, e.g. `payment_card_eur_hpp` (spec 2.2). */
export function cardPaymentService(currency: string): ServiceSpec {
  return {
    code: `payment_card_${currency.toLowerCase()}_hpp`,
    currency,
    direction: "payment",
    hostedPage: true,
  };
}

/** Payout to a card, e.g. `payment_card_uah` (spec 4.2). */
export function cardPayoutService(currency: string): ServiceSpec {
  return {
    code: `payment_card_${currency.toLowerCase()}`,
    currency,
    direction: "payout",
    hostedPage: false,
  };
}
