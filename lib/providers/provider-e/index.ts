import { currencyField, keyFileField, textField, toggleField } from "../fields";
import { cardPaymentService } from "../service-builders";
import { problem, type Problem } from "../../problems";
import type { CredentialValues, ProviderSpec } from "../types";
import { providerEExamples } from "./examples";
import { providerESamples } from "./samples";

function isFilled(value: unknown): boolean {
  return typeof value === "string" && value.trim() !== "";
}

/**
 * Spec 5.1 note 5: the merchant makes the key pair itself, either by uploading its own private key
 * or by generating the pair in the dashboard, which then stores it under `generated_key_id`.
 */
function assertPrivateKeyAvailable(credentials: CredentialValues): Problem[] {
  if (isFilled(credentials.private_key) || isFilled(credentials.generated_key_id)) return [];
  return [problem("required", "Private key is required: upload your private key or generate a key pair in the dashboard", ["private_key"])];
}

export const providerE: ProviderSpec = {
  slug: "provider-e",
  name: "Provider E",
  summary: "Card payments in euro on a hosted payment page through an H2H merchant account, signed with a key " + "pair you create yourself.",
  credentialHelp:
    "Provider E's manager issues your merchant ID. You create an API key pair on your side, or generate " +
    "one here, and share only the public key with the manager; the private key stays with you and is " +
    "stored encrypted by this service.",
  services: [cardPaymentService("EUR")],
  examples: providerEExamples,
  samples: providerESamples,
  capabilities: {
    cardTokens: false,
    authorizeCapture: true,
    threeDSecure: true,
    partialCapture: false,
    void: true,
    authorizationHoldHours: 168,
    note: "Provider E authorizes and voids, captures only the whole authorization, and saves no cards (its example sends no tokenize); an authorization holds a week.",
  },
  kinds: [
    {
      kind: "h2h",
      label: "H2H merchant account",
      description: "Host-to-host merchant account for euro card payments, authenticated with your own key pair.",
      fields: [
        textField({
          id: "merchant_id",
          label: "Merchant ID",
          help: "Issued by the provider's manager when your account is opened.",
          maxLength: 64,
        }),
        keyFileField({
          id: "public_key",
          label: "Public key",
          help: "The public half of your key pair; it is the file you shared with the Provider E manager.",
          pem: "public",
        }),
        keyFileField({
          id: "private_key",
          label: "Private key",
          help: "The private half of your key pair, from your own key store. Leave empty if you generated the pair here.",
          pem: "private",
          required: false,
        }),
        textField({
          id: "generated_key_id",
          label: "Generated key pair",
          help: "Set by the dashboard when you generate the key pair here.",
          hidden: true,
          maxLength: 128,
        }),
        currencyField(["EUR"]),
        toggleField({
          id: "ignore_callback",
          label: "Ignore callbacks",
          help:
            "When on, the provider's asynchronous callbacks are stored but never change a transaction's status; " +
            "only the status request (reconciliation) finalises it, so cascading between providers stays correct.",
        }),
      ],
      refine: (credentials) => assertPrivateKeyAvailable(credentials),
      keyPair: { publicField: "public_key", privateField: "private_key" },
      // E refuses an unknown merchant ID and a signature it cannot verify alike, so neither can be blamed alone.
      refusedTogether: ["merchant_id", "private_key"],
      constants: [],
    },
  ],
};
