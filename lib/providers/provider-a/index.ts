import { defineConstant } from "../constants";
import { currencyField, featuresField, selectField } from "../fields";
import { cardPaymentService, cardPayoutService } from "../service-builders";
import type { ProviderSpec } from "../types";
import { merchantIdField, paymentKeyField, privateKeyField, serviceCodeField } from "./fields";
import { providerAExamples } from "./examples";
import { providerASamples } from "./samples";

/** Provider A signs with the private key and checks with the payment key: one pair (spec 5.1). */
const A_KEY_PAIR = { publicField: paymentKeyField.id, privateField: privateKeyField.id };

/** A refuses an unknown merchant ID and a signature it cannot verify alike, so neither can be blamed alone. */
const SIGN_IN = [merchantIdField.id, privateKeyField.id];

export const providerA: ProviderSpec = {
  slug: "provider-a",
  name: "Provider A",
  summary:
    "Card payments in Ukrainian hryvnia on a hosted payment page, and payouts to cards in hryvnia. " +
    "Connect either your Provider A account or an H2H merchant account.",
  credentialHelp:
    "Provider A issues four credentials after you send it a connection request and your verification " +
    "documents: a merchant ID, a service code, a payment key file and a private key file. You find all " +
    "four in your Provider A merchant portal; upload both key files as the .pem text files you received.",
  services: [cardPaymentService("UAH"), cardPayoutService("UAH")],
  examples: providerAExamples,
  samples: providerASamples,
  capabilities: {
    cardTokens: true,
    authorizeCapture: true,
    threeDSecure: true,
    partialCapture: true,
    void: true,
    authorizationHoldHours: 168,
    note: "Provider A takes cards on a hosted page or host to host: it saves cards, authorizes, captures all or part of an authorization and voids; an authorization holds a week.",
  },
  kinds: [
    {
      kind: "provider_account",
      label: "Provider account",
      description: "Connect your existing Provider A account; every Provider A service is available.",
      fields: [merchantIdField, paymentKeyField, privateKeyField, serviceCodeField],
      keyPair: A_KEY_PAIR,
      refusedTogether: SIGN_IN,
      constants: [
        defineConstant("STREET", "customer.address.street", "Customer street"),
        defineConstant("COUNTRY", "customer.address.country", "Customer country"),
        defineConstant("CITY", "customer.address.city", "Customer city"),
        defineConstant("NAME", "customer.name", "Customer name"),
      ],
    },
    {
      kind: "h2h",
      label: "H2H merchant account",
      description: "Host-to-host merchant account in hryvnia; payouts are offered once the Payouts feature is enabled.",
      fields: [
        merchantIdField,
        paymentKeyField,
        privateKeyField,
        serviceCodeField,
        selectField({
          id: "api_type",
          label: "API type",
          help: "How this account takes payments: on Provider A's hosted page or directly from your server. Provider A's merchant portal shows which.",
          options: [
            { value: "payment_page", label: "Hosted payment page" },
            { value: "direct", label: "Direct (host-to-host)" },
          ],
        }),
        currencyField(["UAH"]),
        featuresField(),
      ],
      keyPair: A_KEY_PAIR,
      refusedTogether: SIGN_IN,
      constants: [],
    },
  ],
};
