import { defineConstant } from "../constants";
import { currencyField, secretField, textField } from "../fields";
import { cardPaymentService } from "../service-builders";
import type { ProviderSpec } from "../types";
import { providerBExamples } from "./examples";
import { providerBSamples } from "./samples";

export const providerB: ProviderSpec = {
  slug: "provider-b",
  name: "Provider B",
  summary:
    "Card payments in euro on a hosted payment page through an H2H merchant account. " +
    "Customer details are optional: missing ones fall back to your constants, then to built-in defaults.",
  credentialHelp:
    "Provider B issues two credentials once your connection request is approved: a terminal ID and a " +
    "secret key. Both are in the terminal settings of your Provider B back office.",
  services: [cardPaymentService("EUR")],
  examples: providerBExamples,
  samples: providerBSamples,
  capabilities: {
    cardTokens: true,
    authorizeCapture: true,
    threeDSecure: true,
    partialCapture: true,
    void: true,
    authorizationHoldHours: 168,
    note: "Provider B saves cards, authorizes, captures all or part of an authorization and voids; an authorization holds a week.",
  },
  kinds: [
    {
      kind: "h2h",
      label: "H2H merchant account",
      description: "Host-to-host merchant account for euro card payments on Provider B's payment page.",
      fields: [
        textField({
          id: "terminal_id",
          label: "Terminal ID",
          help: "In your Provider B back office under terminal settings.",
          maxLength: 64,
        }),
        secretField({
          id: "secret_key",
          label: "Secret key",
          help: "In your Provider B back office under terminal settings, next to the terminal ID.",
        }),
        currencyField(["EUR"]),
      ],
      // B refuses an unknown terminal and a wrong signature alike, so neither can be blamed alone.
      refusedTogether: ["terminal_id", "secret_key"],
      constants: [
        defineConstant("FULL_ADDRESS", "customer.address.full_address", "Customer full address"),
        defineConstant("REGION", "customer.address.region", "Customer region"),
        defineConstant("COUNTRY", "customer.address.country", "Customer country"),
        defineConstant("CITY", "customer.address.city", "Customer city"),
        defineConstant("POST_CODE", "customer.address.post_code", "Customer post code"),
        defineConstant("EMAIL", "customer.email", "Customer e-mail"),
        defineConstant("NAME", "customer.name", "Customer name"),
        defineConstant("PHONE", "customer.phone", "Customer phone"),
        defineConstant("LANG", "language", "Payment page language"),
      ],
      // Spec 2.6: Provider B rejects requests without these, so the service always sends something.
      defaults: {
        "customer.address.country": "GB",
        "customer.address.city": "London",
        "customer.address.region": "Northeast",
        language: "en",
        "customer.address.full_address": "1 Canada Square, London E14 5AB",
        "customer.address.post_code": "E14 5AB",
        "customer.email": "customer@example.com",
        "customer.name": "Customer",
        "customer.phone": "+442079460000",
      },
    },
  ],
};
