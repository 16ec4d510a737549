import { describe, expect, it } from "vitest";
import type { ConstantFormat } from "@/lib/providers/types";
import { COUNTRY_CODES, LANGUAGE_CODES } from "./iso-codes";
import { compactConstants, constantsSchema, constantValueSchema } from "./constant-formats";
import { PROVIDER_B_CONSTANTS, PROVIDER_F_CONSTANTS, SAMPLE_VALUES } from "@/tests/fixtures/customers";

const now = () => new Date("2024-06-15T12:00:00Z");

function parse(format: ConstantFormat, value: unknown) {
  return constantValueSchema(format, { now }).safeParse(value);
}

const VALID: readonly [ConstantFormat, string, string][] = [
  ["country", "GB", "GB"],
  ["country", " de ", "DE"],
  ["country", "ua", "UA"],
  ["email", "ada@example.com", "ada@example.com"],
  ["email", "  ada@example.co.uk ", "ada@example.co.uk"],
  ["phone", "+44 20 7946 0958", "+442079460958"],
  ["phone", "+12345678", "+12345678"],
  ["phone", "+123456789012345", "+123456789012345"],
  ["date_of_birth", "1990-04-21", "1990-04-21"],
  ["date_of_birth", "1900-01-01", "1900-01-01"],
  ["date_of_birth", "2000-02-29", "2000-02-29"],
  ["date_of_birth", "2024-06-14", "2024-06-14"],
  ["language", "en", "en"],
  ["language", "UK", "uk"],
  ["phone_country_code", "+4", "+4"],
  ["phone_country_code", "+380", "+380"],
  ["text", "  Kyiv  ", "Kyiv"],
  ["text", "x".repeat(200), "x".repeat(200)],
];

const INVALID: readonly [ConstantFormat, unknown, RegExp][] = [
  ["country", "XX", /country code/],
  ["country", "ZZ", /country code/],
  ["country", "GBR", /country code/],
  ["country", "", /country code/],
  ["email", "not-an-email", /e-mail/],
  ["email", "a@", /e-mail/],
  ["phone", "+", /international number/],
  ["phone", "+1234567", /8 to 15 digits/],
  ["phone", "+1234567890123456", /8 to 15 digits/],
  ["phone", "442079460958", /\+ then/],
  ["phone", "+44-20-7946-0958", /international number/],
  ["phone", "+0123456789", /international number/],
  ["date_of_birth", "2023-02-30", /real date/],
  ["date_of_birth", "2023-13-01", /real date/],
  ["date_of_birth", "1990-4-21", /real date/],
  ["date_of_birth", "21.04.1990", /real date/],
  ["date_of_birth", "2024-06-15", /in the past/],
  ["date_of_birth", "2999-01-01", /in the past/],
  ["date_of_birth", "1899-12-31", /1900-01-01/],
  ["language", "xx", /language code/],
  ["language", "eng", /language code/],
  ["phone_country_code", "+", /1 to 3 digits/],
  ["phone_country_code", "+1234", /1 to 3 digits/],
  ["phone_country_code", "44", /1 to 3 digits/],
  ["text", "   ", /Enter a value/],
  ["text", "x".repeat(201), /at most 200/],
  ["text", 42, /Enter a text value/],
];

describe("constantValueSchema", () => {
  it.each(VALID)("accepts %s %j as %j", (format, input, output) => {
    expect(parse(format, input)).toMatchObject({ success: true, data: output });
  });

  it.each(INVALID)("rejects %s %j", (format, input, message) => {
    const result = parse(format, input);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toMatch(message);
  });

  it("uses the current date when no clock is injected", () => {
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    expect(constantValueSchema("date_of_birth").safeParse(tomorrow).success).toBe(false);
    expect(constantValueSchema("date_of_birth").safeParse("1990-01-01").success).toBe(true);
  });

  it("ships full ISO lists", () => {
    expect(COUNTRY_CODES.size).toBe(249);
    expect(LANGUAGE_CODES.size).toBe(183);
    for (const code of ["AX", "BQ", "CW", "SS", "SX", "PS", "VA"]) expect(COUNTRY_CODES.has(code)).toBe(true);
    for (const code of ["XK", "EU", "UK", "AN"]) expect(COUNTRY_CODES.has(code)).toBe(false);
  });
});

describe("constantsSchema", () => {
  const schema = constantsSchema(PROVIDER_F_CONSTANTS, { now });

  it("accepts every F constant and normalises values", () => {
    const values = Object.fromEntries(PROVIDER_F_CONSTANTS.map(({ name }) => [name, SAMPLE_VALUES[name]]));
    const result = schema.safeParse({ ...values, COUNTRY: "de", PHONE: "+49 30 123456" });
    expect(result.success).toBe(true);
    expect(result.data).toMatchObject({ COUNTRY: "DE", PHONE: "+4930123456", DATE_OF_BIRTH: "1990-04-21" });
  });

  it("treats every key as optional", () => {
    expect(schema.safeParse({})).toEqual({ success: true, data: {} });
  });

  it("maps empty, blank and null values to null (cleared)", () => {
    const result = schema.safeParse({ CITY: "", REGION: "  ", EMAIL: null });
    expect(result).toEqual({ success: true, data: { CITY: null, REGION: null, EMAIL: null } });
  });

  it("rejects unknown names and names them", () => {
    const result = schema.safeParse({ CITY: "Berlin", STREET: "x", LANG: "en" });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe("Unknown constants: STREET, LANG");
    const single = constantsSchema(PROVIDER_B_CONSTANTS).safeParse({ DATE_OF_BIRTH: "1990-01-01" });
    expect(single.error?.issues[0]?.message).toBe("Unknown constant: DATE_OF_BIRTH");
  });

  it("reports invalid values under the constant's name", () => {
    const result = schema.safeParse({ COUNTRY: "XX", DATE_OF_BIRTH: "2023-02-30", COUNTRY_PHONE_CODE: "+" });
    const paths = result.error?.issues.map((issue) => issue.path.join("."));
    expect(paths?.sort()).toEqual(["COUNTRY", "COUNTRY_PHONE_CODE", "DATE_OF_BIRTH"]);
  });

  it("rejects a non-object", () => {
    expect(schema.safeParse("CITY=Berlin").success).toBe(false);
  });

  it("compacts to stored constants without cleared entries", () => {
    expect(compactConstants({ CITY: "Berlin", REGION: null, EMAIL: undefined })).toEqual({ CITY: "Berlin" });
  });
});
