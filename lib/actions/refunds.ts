"use server";

import { revalidatePath } from "next/cache";
import { getDb } from "@/lib/db/client";
import { fail, ok, problem, refuse, testModeOnly, type Problem } from "@/lib/problems";
import { personActor } from "@/lib/audit/record";
import { createRefund } from "@/lib/refunds/create-refund";
import { refundFormSchema } from "@/lib/refunds/form-schema";
import { canInMode } from "@/lib/identity/permissions";
import { validatedAction } from "./validated-action";

/** The API's pointers (/data/attributes/amount) as the form's fields (amount). */
function formProblems(problems: readonly Problem[]): Problem[] {
  return problems.map((entry) => {
    const [data, attributes, field] = entry.path;
    if (data !== "data" || attributes !== "attributes" || typeof field !== "string") return { ...entry, path: [] };
    return problem(entry.code, entry.message, field === "amount" || field === "reason" ? [field] : []);
  });
}

/**
 * Refund on a payment's page: owners and finance refund live and test payments, support members test ones only (lib/identity/permissions.ts)
 * (checked here, by the service, whatever the page showed). Same rules and answers as the API.
 */
export const refundInvoiceAction = validatedAction("invoices.refund", { schema: refundFormSchema, can: "money.refund" }, async (input, viewer) => {
  const db = await getDb();
  const result = await createRefund(db, {
    merchantId: viewer.merchant.id,
    invoiceId: input.invoiceId,
    body: {
      data: { type: "refund", attributes: { amount: input.amount, reference_id: input.referenceId, ...(input.reason ? { reason: input.reason } : {}) } },
    },
    testOnly: !canInMode(viewer.user.role, "money.refund", "live"),
    createdBy: viewer.user.id,
    actor: personActor(viewer),
  });
  switch (result.kind) {
    case "created":
    case "replayed":
      revalidatePath(`/invoices/${input.invoiceId}`);
      return ok({
        id: result.refund.id,
        status: result.refund.status,
        amount: result.refund.amount,
        currency: result.refund.currency,
        message: result.refund.message,
      });
    case "invalid":
      return fail(formProblems(result.problems));
    case "not_found":
      return refuse("not_found", "This payment does not exist.");
    case "test_only":
      return fail([testModeOnly("refund", "payment")]);
    case "not_refundable":
      return refuse(result.code, result.detail);
    case "conflict":
      return refuse("reference_reused", "This refund form was already used for another amount; reload the page to start a new refund.");
  }
});
