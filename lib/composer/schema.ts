import { toJsonPointer } from "@/lib/problems";
import { validateInvoice } from "../invoices/contract/validate-invoice";
import { buildEnvelope } from "./envelope";
import { composerValuesShape } from "./values-schema";
import { ENVELOPE_FIELD, pathToField } from "./pointers";

/**
 * The composer form's schema: the inputs' own shape, then the request body they make, checked by
 * `validateInvoice`, the very function the invoice API runs. Each problem lands on the input its
 * path names, so the browser shows the API's own messages before anything is sent.
 */
export const composerFormSchema = composerValuesShape.superRefine((values, ctx) => {
  if (values.routing === "pin" && values.connection_id === "") {
    ctx.addIssue({ code: "custom", path: ["connection_id"], message: "Choose a connection" });
  }
  if (values.routing === "auto" && values.service === "") {
    ctx.addIssue({ code: "custom", path: ["service"], message: "Choose a service" });
  }
  if (values.direction === "payment" && values.payment_source === "saved_card") {
    if (values.routing === "pin")
      ctx.addIssue({
        code: "custom",
        path: ["payment_source"],
        message: "A saved card is charged through the connections of the provider that holds it: choose Route automatically, not a pin",
      });
    if (values.saved_card_customer.trim() === "") ctx.addIssue({ code: "custom", path: ["saved_card_customer"], message: "Enter the customer's reference_id" });
    else if (values.payment_method_id === "")
      ctx.addIssue({ code: "custom", path: ["payment_method_id"], message: "Choose one of the customer's saved cards" });
  }
  const { envelope, problems } = buildEnvelope(values);
  for (const problem of problems) ctx.addIssue({ code: "custom", path: problem.field.split("."), message: problem.message });
  const validation = validateInvoice(values.direction, envelope);
  if (validation.ok) return;
  for (const problem of validation.problems) {
    const field = pathToField(problem.path) ?? ENVELOPE_FIELD;
    const message = field === ENVELOPE_FIELD ? `${toJsonPointer(problem.path)}: ${problem.message}` : problem.message;
    ctx.addIssue({ code: "custom", path: field.split("."), message });
  }
});
