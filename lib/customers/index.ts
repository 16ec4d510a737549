export { compactConstants, constantsSchema, type ConstantValues } from "./constant-formats";
export { COUNTRY_CODES } from "./iso-codes";
export { resolveCustomer, type CustomerPlacement, type FieldSource, type ResolvedField } from "./resolve-customer";
