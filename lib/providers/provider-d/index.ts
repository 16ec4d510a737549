import { currencyField, FEATURE_OPTIONS, featuresField, secretField, textField, toggleField, urlField } from "../fields";
import { cardPaymentService } from "../service-builders";
import type { ProviderSpec } from "../types";
import { providerDExamples } from "./examples";
import { providerDSamples } from "./samples";

const WHEN_SENDING_MERCHANT_DATA = { field: "send_merchant_data", equals: true } as const;

export const providerD: ProviderSpec = {
  slug: "provider-d",
  name: "Provider D",
  summary: "Card payments in Uzbek som on a hosted payment page through an H2H merchant account, " + "optionally over the peer-to-peer payment network.",
  credentialHelp:
    "Provider D issues an API key, a secret key, an API URL, a merchant ID and a service ID. It sets up a " +
    "separate merchant ID and credential set for every currency, so ask Provider D for the set of the " +
    "currency you connect. All five values are in the integration letter Provider D sends after setup.",
  services: [cardPaymentService("UZS")],
  examples: providerDExamples,
  samples: providerDSamples,
  capabilities: {
    cardTokens: true,
    authorizeCapture: false,
    threeDSecure: false,
    partialCapture: false,
    void: false,
    authorizationHoldHours: null,
    note: "Provider D saves cards (its example sends tokenize) but only sells: its example is a sale without card verification code or 3-D Secure, so it neither authorizes nor voids.",
  },
  kinds: [
    {
      kind: "h2h",
      label: "H2H merchant account",
      // D's example is a sale without CVC and without 3-D Secure: its hosted page asks for none.
      takesCvc: false,
      description: "Host-to-host merchant account for som card payments; one connection per currency and mode.",
      liveUrlField: "api_url",
      onePerCurrencyAndMode: {
        reason:
          "Provider D issues a separate merchant ID and credential set per currency, so only one enabled " + "connection per currency and mode is allowed.",
      },
      fields: [
        secretField({
          id: "api_key",
          label: "API key",
          help: "In the integration letter from Provider D, issued for this currency.",
        }),
        secretField({
          id: "secret_key",
          label: "Secret key",
          help: "In the integration letter from Provider D, next to the API key.",
        }),
        urlField({
          id: "api_url",
          label: "API URL",
          help:
            "The https address of the Provider D API given in the integration letter; in live mode it must be on the public " +
            "internet. Changing it on a saved connection requires entering the API key and secret key again.",
          placeholder: "https://",
        }),
        textField({
          id: "merchant_id",
          label: "Merchant ID",
          help: "The merchant ID Provider D issued for this currency, in the integration letter.",
          maxLength: 64,
        }),
        textField({
          id: "service_id",
          label: "Service ID",
          help: "The service ID from the Provider D integration letter.",
          maxLength: 64,
        }),
        currencyField(["UZS"]),
        toggleField({
          id: "send_merchant_data",
          label: "Send merchant data",
          help: "Sends the merchant category code and merchant URL to the provider. Turn on if Provider D asks for them.",
        }),
        textField({
          id: "merchant_category_code",
          label: "Merchant category code",
          help: "The four-digit MCC Provider D assigned to your business, in the integration letter.",
          placeholder: "5411",
          maxLength: 4,
          pattern: { regex: /^\d{4}$/, message: "Merchant category code must be 4 digits" },
          showWhen: WHEN_SENDING_MERCHANT_DATA,
        }),
        urlField({
          id: "merchant_url",
          label: "Merchant URL",
          help: "The https address of your shop as registered with Provider D.",
          placeholder: "https://",
          showWhen: WHEN_SENDING_MERCHANT_DATA,
        }),
        toggleField({
          id: "p2p",
          label: "P2P mode",
          help: "Connects through the peer-to-peer payment network. Turn on only if Provider D enabled P2P for you.",
        }),
        featuresField(
          FEATURE_OPTIONS.filter((option) => option.value !== "payouts"),
          "The features Provider D enabled for this merchant ID, as agreed with the service's account manager.",
        ),
      ],
      // D refuses an unknown merchant ID, a wrong API key and a wrong signature alike, so none can be blamed alone.
      refusedTogether: ["merchant_id", "api_key", "secret_key"],
      constants: [],
    },
  ],
};
