export {
  compactConstants,
  constantsSchema,
  constantValueSchema,
  type ConstantSchemaOptions,
  type ConstantValues,
  type ConstantValuesInput,
} from "./constant-formats";
export { CONSTANT_FORMAT_HINTS } from "./formats";
export { COUNTRY_CODES, LANGUAGE_CODES } from "./iso-codes";
export {
  resolveCustomer,
  type CustomerPlacement,
  type FieldSource,
  type ResolveCustomerInput,
  type ResolvedField,
  type ResolveResult,
} from "./resolve-customer";
