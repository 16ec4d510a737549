import { randomBytes, randomUUID } from "node:crypto";
import type { ConnectionKind, CredentialValues, Mode } from "../types";
import { generateKeyPair, type GeneratedKeyPair } from "./generate-key-pair";

let cachedKeyPair: GeneratedKeyPair | undefined;

/** RSA generation is slow, and demo data does not need a distinct pair per connection. */
function sampleKeyPair(): GeneratedKeyPair {
  cachedKeyPair ??= generateKeyPair();
  return cachedKeyPair;
}

function randomToken(bytes: number): string {
  return randomBytes(bytes).toString("base64url");
}

type SampleBuilder = (mode: Mode) => CredentialValues;

const SAMPLES: Readonly<Record<string, Partial<Record<ConnectionKind, SampleBuilder>>>> = {
  "provider-a": {
    provider_account: () => ({
      merchant_id: "A-100200",
      payment_key: sampleKeyPair().publicKeyPem,
      private_key: sampleKeyPair().privateKeyPem,
      service_code: "SVC-01",
    }),
    h2h: () => ({
      merchant_id: "A-100300",
      payment_key: sampleKeyPair().publicKeyPem,
      private_key: sampleKeyPair().privateKeyPem,
      service_code: "SVC-02",
      api_type: "payment_page",
      currency: "UAH",
      features: ["payments", "payouts"],
    }),
  },
  "provider-b": {
    h2h: () => ({ terminal_id: "TERM-7781", secret_key: randomToken(24), currency: "EUR" }),
  },
  "provider-c": {
    provider_account: () => ({ shop_login: "demo-shop", shop_password: randomToken(16) }),
    h2h: () => ({ shop_login: "demo-shop-amd", shop_password: randomToken(16), currency: "AMD" }),
  },
  "provider-d": {
    h2h: () => ({
      api_key: randomToken(24),
      secret_key: randomToken(24),
      api_url: "https://api.provider-d.example/v1",
      merchant_id: "D-5501",
      service_id: "D-SVC-9",
      currency: "UZS",
      send_merchant_data: true,
      merchant_category_code: "5411",
      merchant_url: "https://shop.example.com",
      p2p: false,
      features: ["payments"],
    }),
  },
  "provider-e": {
    h2h: () => ({
      merchant_id: "E-4410",
      public_key: sampleKeyPair().publicKeyPem,
      private_key: sampleKeyPair().privateKeyPem,
      currency: "EUR",
      ignore_callback: false,
    }),
  },
  "provider-f": {
    h2h: (mode) => {
      const family = mode === "test" ? "dev" : "prod";
      return {
        public_key: `${family}_pub_${randomUUID()}`,
        secret_key: `${family}_sec_${randomToken(32)}`,
        test_mode: mode === "test",
        currency: "EUR",
      };
    },
  },
};

/** Valid credentials for seeding demo data and tests; throws for a provider or kind that does not exist. */
export function sampleCredentials(slug: string, kind: ConnectionKind, mode: Mode): CredentialValues {
  const build = SAMPLES[slug]?.[kind];
  if (build === undefined) throw new Error(`No sample credentials for ${slug} ${kind}`);
  return build(mode);
}
