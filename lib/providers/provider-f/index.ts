import { defineConstant } from "../constants";
import { currencyField, secretField, textField, toggleField } from "../fields";
import { cardPaymentService } from "../service-builders";
import type { ProviderSpec } from "../types";
import { assertKeyPrefixMatchesMode, PUBLIC_KEY_PATTERN, SECRET_KEY_PATTERN } from "./key-rules";
import { providerFExamples } from "./examples";
import { providerFSamples } from "./samples";

export const providerF: ProviderSpec = {
  slug: "provider-f",
  name: "Provider F",
  summary: "Card payments in euro on a hosted payment page through an H2H merchant account, authenticated " + "with a public and a secret API key.",
  credentialHelp:
    "Provider F authenticates every request with a pair of API keys from its dashboard. The public key " +
    "(dev_pub_… or prod_pub_…) is always visible there. The secret key (dev_sec_… or prod_sec_…) is shown " +
    "only once when created; if you lost it, regenerate it in the Provider F dashboard. Use dev_ keys " +
    "for a Test connection and prod_ keys for a Live one.",
  services: [cardPaymentService("EUR")],
  examples: providerFExamples,
  samples: providerFSamples,
  capabilities: {
    cardTokens: true,
    authorizeCapture: false,
    threeDSecure: true,
    partialCapture: false,
    void: false,
    authorizationHoldHours: null,
    note: "Provider F saves cards (its example sends tokenize) but its example is a sale: it neither authorizes nor voids.",
  },
  kinds: [
    {
      kind: "h2h",
      label: "H2H merchant account",
      description:
        "Host-to-host merchant account for euro card payments. Choose Test or Live like any connection; " + "Test takes dev_ keys, Live takes prod_ keys.",
      // Connections saved before the Test/Live choice carried a `test_mode` credential; an API client
      // that still sends one without a mode gets the mode from it, and it must agree with the mode.
      modeField: "test_mode",
      fields: [
        textField({
          id: "public_key",
          label: "Public key",
          help: "Always visible in the API keys section of your Provider F dashboard; starts with dev_pub_ or prod_pub_.",
          placeholder: "dev_pub_00000000-0000-0000-0000-000000000000",
          maxLength: 64,
          pattern: {
            regex: PUBLIC_KEY_PATTERN,
            message: "Public key must be dev_pub_ or prod_pub_ followed by a UUID",
          },
        }),
        secretField({
          id: "secret_key",
          label: "Secret key",
          help:
            "Starts with dev_sec_ or prod_sec_. The provider shows the secret key only once; if you lost it, " + "regenerate it in the Provider F dashboard.",
          pattern: {
            regex: SECRET_KEY_PATTERN,
            message: "Secret key must be dev_sec_ or prod_sec_ followed by at least 24 letters, digits, _ or -",
          },
        }),
        toggleField({
          id: "test_mode",
          label: "Test mode (legacy)",
          help: "Superseded by the connection's Test/Live choice; kept so older connections and API clients still work.",
          hidden: true,
        }),
        currencyField(["EUR"]),
      ],
      refine: assertKeyPrefixMatchesMode,
      // F refuses an unknown public key and a signature made with another secret key alike, so neither can be blamed alone.
      refusedTogether: ["public_key", "secret_key"],
      constants: [
        defineConstant("FIRST_NAME", "customer.address.first_name", "Customer first name"),
        defineConstant("LAST_NAME", "customer.address.last_name", "Customer last name"),
        defineConstant("EMAIL", "customer.address.email", "Customer e-mail"),
        defineConstant("DATE_OF_BIRTH", "customer.date_of_birth", "Customer date of birth"),
        defineConstant("COUNTRY", "customer.address.country", "Customer country"),
        defineConstant("CITY", "customer.address.city", "Customer city"),
        defineConstant("REGION", "customer.address.region", "Customer region"),
        defineConstant("FULL_ADDRESS", "customer.address.full_address", "Customer full address"),
        defineConstant("POST_CODE", "customer.address.post_code", "Customer post code"),
        defineConstant("COUNTRY_PHONE_CODE", "customer.constants.customer_country_phone_code", "Customer country phone code"),
        defineConstant("PHONE", "customer.address.phone", "Customer phone"),
      ],
    },
  ],
};
