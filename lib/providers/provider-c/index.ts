import { currencyField, secretField, textField } from "../fields";
import { cardPaymentService } from "../service-builders";
import type { ProviderSpec } from "../types";
import { providerCExamples } from "./examples";
import { providerCSamples } from "./samples";

const shopLoginField = textField({
  id: "shop_login",
  label: "Shop login",
  help: "The shop login Provider C sends you when it opens your shop.",
  maxLength: 128,
});

const shopPasswordField = secretField({
  id: "shop_password",
  label: "Shop password",
  help: "The shop password Provider C sends with the shop login; reset it in the Provider C shop settings if lost.",
});

/** C refuses an unknown login and a wrong password alike, so neither can be blamed alone. */
const SIGN_IN = [shopLoginField.id, shopPasswordField.id];

export const providerC: ProviderSpec = {
  slug: "provider-c",
  name: "Provider C",
  summary:
    "Card payments in Armenian dram or euro on a hosted payment page. " + "Connect either your Provider C account or an H2H merchant account in one currency.",
  credentialHelp:
    "Provider C issues a shop login and a shop password when it opens your shop. Both arrive together " +
    "from Provider C; the same pair works for the provider account and the H2H merchant account.",
  services: [cardPaymentService("AMD"), cardPaymentService("EUR")],
  examples: providerCExamples,
  samples: providerCSamples,
  capabilities: {
    cardTokens: true,
    authorizeCapture: true,
    threeDSecure: true,
    partialCapture: false,
    void: true,
    authorizationHoldHours: 168,
    note: "Provider C saves cards (its example sends tokenize), authorizes and voids, but captures only the whole authorization; an authorization holds a week.",
  },
  kinds: [
    {
      kind: "provider_account",
      label: "Provider account",
      description: "Connect your Provider C shop; payments in both dram and euro are available.",
      fields: [shopLoginField, shopPasswordField],
      refusedTogether: SIGN_IN,
      constants: [],
    },
    {
      kind: "h2h",
      label: "H2H merchant account",
      description: "Host-to-host merchant account processing card payments in one currency.",
      fields: [shopLoginField, shopPasswordField, currencyField(["AMD", "EUR"])],
      refusedTogether: SIGN_IN,
      constants: [],
    },
  ],
};
