import type { ConstantFormat, ConstantSpec } from "./types";

/** Formats follow the constant's name so every provider validates e.g. COUNTRY the same way. */
const FORMAT_BY_NAME: Readonly<Record<string, ConstantFormat>> = {
  COUNTRY: "country",
  EMAIL: "email",
  PHONE: "phone",
  DATE_OF_BIRTH: "date_of_birth",
  LANG: "language",
  COUNTRY_PHONE_CODE: "phone_country_code",
};

export function defineConstant(name: string, target: string, label: string): ConstantSpec {
  return { name, target, label, format: FORMAT_BY_NAME[name] ?? "text" };
}
