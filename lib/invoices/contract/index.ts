/** Public entry of the invoice module. Pure and isomorphic: forms, server actions and API routes share it. */
export {
  formatMinor,
  InvalidAmountError,
  MAX_INTEGER_DIGITS,
  MINOR_DIGITS,
  minorDigitsOf,
  parseAmount,
  toMinorUnits,
  type AmountResult,
} from "@/lib/money";
export {
  CARD_NUMBER_MAX_DIGITS,
  CARD_NUMBER_MIN_DIGITS,
  isLuhnValid,
  isMaskedCardNumber,
  maskCardNumber,
  stripCardSeparators,
} from "../../cards/card-number";
export {
  DEFAULT_ATTEMPTS_LIMIT,
  INVOICE_LIFETIME_DEFAULT_SECONDS,
  INVOICE_LIFETIME_MAX_SECONDS,
  INVOICE_LIFETIME_MIN_SECONDS,
  MAX_ATTEMPTS_LIMIT,
  REFERENCE_ID_MAX,
  SERVICE_FIELDS_MAX,
} from "./field-schemas";
export * from "./schemas";
export {
  checkCustomerPlacement,
  checkInvoiceRules,
  checkJsonLimits,
  MAX_NESTING_DEPTH,
  type InvoiceRuleCode,
} from "./rules";
export { validateInvoice, type InvoiceProblemCode } from "./validate-invoice";
export * from "../state-machine";
export * from "./resource-schemas";
