/** Public entry of the invoice module. Pure and isomorphic: forms, server actions and API routes share it. */
export { isLuhnValid } from "../../cards/card-number";
export * from "./schemas";
export { type InvoiceProblemCode } from "./validate-invoice";
export * from "../state-machine";
export * from "./resource-schemas";
