import { describe, expect, it } from "vitest";
import { checkCredentials, credentialsSchema, getKind, getProvider, MODES, PROVIDERS, type KindSpec, type Mode, type ProviderSpec } from "./index";
import { sampleCredentials } from "./server/sample-credentials";

type Case = { provider: ProviderSpec; kind: KindSpec; mode: Mode };

const CASES: Case[] = PROVIDERS.flatMap((provider) => provider.kinds.flatMap((kind) => MODES.map((mode) => ({ provider, kind, mode }))));

function name({ provider, kind, mode }: Case): string {
  return `${provider.slug} ${kind.kind} ${mode}`;
}

function schemaIssues(kind: KindSpec, values: Record<string, unknown>, forUpdate = false) {
  const result = credentialsSchema(kind, { forUpdate }).safeParse(values);
  return result.success ? [] : result.error.issues.map((issue) => ({ path: issue.path, message: issue.message }));
}

describe("spec 1 and 5.1: registry shape", () => {
  it("lists providers A to F with their connection kinds", () => {
    expect(PROVIDERS.map((provider) => [provider.slug, provider.name, provider.kinds.map((k) => k.kind)])).toEqual([
      ["provider-a", "Provider A", ["provider_account", "h2h"]],
      ["provider-b", "Provider B", ["h2h"]],
      ["provider-c", "Provider C", ["provider_account", "h2h"]],
      ["provider-d", "Provider D", ["h2h"]],
      ["provider-e", "Provider E", ["h2h"]],
      ["provider-f", "Provider F", ["h2h"]],
    ]);
  });

  it("keeps the field ids the API relies on", () => {
    const ids = (slug: string, kind: "h2h" | "provider_account") => getKind(slug, kind)?.fields.map((field) => field.id);
    expect(ids("provider-a", "provider_account")).toEqual(["merchant_id", "payment_key", "private_key", "service_code"]);
    expect(ids("provider-a", "h2h")).toEqual(["merchant_id", "payment_key", "private_key", "service_code", "api_type", "currency", "features"]);
    expect(ids("provider-b", "h2h")).toEqual(["terminal_id", "secret_key", "currency"]);
    expect(ids("provider-c", "provider_account")).toEqual(["shop_login", "shop_password"]);
    expect(ids("provider-c", "h2h")).toEqual(["shop_login", "shop_password", "currency"]);
    expect(ids("provider-d", "h2h")).toEqual([
      "api_key",
      "secret_key",
      "api_url",
      "merchant_id",
      "service_id",
      "currency",
      "send_merchant_data",
      "merchant_category_code",
      "merchant_url",
      "p2p",
      "features",
    ]);
    expect(ids("provider-e", "h2h")).toEqual(["merchant_id", "public_key", "private_key", "generated_key_id", "currency", "ignore_callback"]);
    expect(ids("provider-f", "h2h")).toEqual(["public_key", "secret_key", "test_mode", "currency"]);
  });

  it("gives every field a label and help, and marks secrets", () => {
    for (const { kind } of CASES) {
      for (const field of kind.fields) {
        expect(field.label.length, field.id).toBeGreaterThan(0);
        expect(field.help?.length ?? 0, field.id).toBeGreaterThan(10);
        if (field.input === "secret" || field.pem === "private") expect(field.secret, field.id).toBe(true);
      }
    }
    expect(getKind("provider-f", "h2h")?.fields.find((f) => f.id === "public_key")?.secret).toBe(false);
  });

  it("returns undefined for unknown slugs and kinds", () => {
    expect(getProvider("provider-z")).toBeUndefined();
    expect(getKind("provider-b", "provider_account")).toBeUndefined();
  });
});

describe("spec 2.5 and 2.6: constants and defaults", () => {
  it("gives Provider A's provider account its four constants and A's H2H none", () => {
    expect(getKind("provider-a", "provider_account")?.constants.map((c) => `${c.name}>${c.target}`)).toEqual([
      "STREET>customer.address.street",
      "COUNTRY>customer.address.country",
      "CITY>customer.address.city",
      "NAME>customer.name",
    ]);
    expect(getKind("provider-a", "h2h")?.constants).toEqual([]);
  });

  it("maps Provider F's constants exactly as listed, with formats", () => {
    const constants = getKind("provider-f", "h2h")?.constants ?? [];
    expect(constants.map((c) => [c.name, c.target, c.format])).toEqual([
      ["FIRST_NAME", "customer.address.first_name", "text"],
      ["LAST_NAME", "customer.address.last_name", "text"],
      ["EMAIL", "customer.address.email", "email"],
      ["DATE_OF_BIRTH", "customer.date_of_birth", "date_of_birth"],
      ["COUNTRY", "customer.address.country", "country"],
      ["CITY", "customer.address.city", "text"],
      ["REGION", "customer.address.region", "text"],
      ["FULL_ADDRESS", "customer.address.full_address", "text"],
      ["POST_CODE", "customer.address.post_code", "text"],
      ["COUNTRY_PHONE_CODE", "customer.constants.customer_country_phone_code", "phone_country_code"],
      ["PHONE", "customer.address.phone", "phone"],
    ]);
  });

  it("gives Provider B a default for every constant target", () => {
    const kind = getKind("provider-b", "h2h");
    expect(kind?.constants.find((c) => c.name === "LANG")).toMatchObject({ target: "language", format: "language" });
    expect(kind?.defaults).toMatchObject({
      "customer.address.country": "GB",
      "customer.address.city": "London",
      "customer.address.region": "Northeast",
      language: "en",
    });
    expect(Object.keys(kind?.defaults ?? {}).sort()).toEqual(kind?.constants.map((c) => c.target).sort());
  });

  it("labels every constant", () => {
    for (const { kind } of CASES) for (const constant of kind.constants) expect(constant.label).toMatch(/\w{3}/);
  });
});

describe.each(CASES)("spec 5.1: credentials of $provider.slug $kind.kind ($mode)", (testCase) => {
  const { provider, kind, mode } = testCase;
  const sample = sampleCredentials(provider.slug, kind.kind, mode);

  it("accepts the sample credentials", () => {
    const parsed = credentialsSchema(kind).safeParse(sample);
    expect(parsed.success, name(testCase)).toBe(true);
    expect(checkCredentials(kind, parsed.data ?? {}, mode)).toEqual([]);
  });

  it.each(kind.fields.filter((field) => field.required).map((field) => [field.id, field] as const))("reports %s when it is missing", (id, field) => {
    const { [id]: _removed, ...rest } = sample;
    expect(schemaIssues(kind, rest)).toContainEqual({ path: [id], message: `${field.label} is required` });
    expect(schemaIssues(kind, { ...rest, [id]: "" }).map((issue) => issue.path)).toContainEqual([id]);
  });

  it("rejects an unknown credential key", () => {
    expect(schemaIssues(kind, { ...sample, webhook_secret: "x" })).toEqual([{ path: [], message: "Unknown credential field: webhook_secret" }]);
  });

  it("accepts blank secrets on update and keeps validating the rest", () => {
    const blanked = Object.fromEntries(
      Object.entries(sample).map(([key, value]) => {
        const field = kind.fields.find((candidate) => candidate.id === key);
        return [key, field?.secret || field?.input === "key_file" ? "" : value];
      }),
    );
    const parsed = credentialsSchema(kind, { forUpdate: true }).safeParse(blanked);
    expect(parsed.success).toBe(true);
    expect(checkCredentials(kind, parsed.data ?? {}, mode, { forUpdate: true })).toEqual([]);
    expect(schemaIssues(kind, blanked).length).toBeGreaterThan(0);
  });
});
