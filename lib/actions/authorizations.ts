"use server";

import { revalidatePath } from "next/cache";
import { personActor, recordAudit } from "@/lib/audit/record";
import { getDb } from "@/lib/db/client";
import { captureFormSchema, voidFormSchema } from "@/lib/invoices/contract/capture-form-schema";
import { canInMode } from "@/lib/identity/permissions";
import type { Viewer } from "@/lib/identity/membership";
import { formatMinor } from "@/lib/money";
import { captureInvoice, voidInvoice, type AuthorizationResult } from "@/lib/processing/authorization";
import { fail, ok, problem, refuse, testModeOnly, type Problem, type Result } from "@/lib/problems";
import { validatedAction } from "./validated-action";

/** What the page needs after a capture or void: the invoice's new status and, while the provider has not answered, that it is pending. */
export type AuthorizationActionResult = { status: string; amount: string | null; currency: string; pending: boolean };

/** The service's pointers (/data/attributes/amount) as the form's field (amount). */
function formProblems(problems: readonly Problem[]): Problem[] {
  return problems.map((entry) => (entry.path.at(-1) === "amount" ? problem(entry.code, entry.message, ["amount"]) : { ...entry, path: [] }));
}

async function answer(result: AuthorizationResult, viewer: Viewer, invoiceId: string, verb: "capture" | "void"): Promise<Result<AuthorizationActionResult>> {
  switch (result.kind) {
    case "done": {
      const invoice = result.invoice;
      const captured = invoice.processedAmountMinor ?? invoice.captureAmountMinor;
      const amount = verb === "capture" && captured !== null ? formatMinor(captured, invoice.currency) : null;
      await recordAudit(await getDb(), {
        merchantId: viewer.merchant.id,
        actor: personActor(viewer),
        action: verb === "capture" ? "authorization.captured" : "authorization.voided",
        target: { type: "invoice", id: invoiceId },
        summary: `${amount ?? invoice.amount} ${invoice.currency}${invoice.testMode ? " (test)" : ""}: ${invoice.status}`,
      });
      revalidatePath(`/invoices/${invoiceId}`);
      return ok({ status: invoice.status, amount, currency: invoice.currency, pending: result.pending });
    }
    case "not_found":
      return refuse("not_found", "This payment does not exist.");
    case "test_only":
      return fail([testModeOnly(verb, "payment")]);
    case "invalid":
      return fail(formProblems(result.problems));
    case "refused":
      // The page shows an old status (another capture, the sweep): read it again.
      revalidatePath(`/invoices/${invoiceId}`);
      return refuse(result.code, result.detail);
  }
}

/**
 * Capture on an authorized payment's page: roles with money.capture.live capture live and test
 * payments, support members test ones only (lib/identity/permissions.ts; checked by the service).
 * Same rules and answers as POST …/payment-invoices/{id}/capture; the form's key is the
 * Idempotency-Key, so a double submit is one capture.
 */
export const captureInvoiceAction = validatedAction("invoices.capture", { schema: captureFormSchema, can: "money.capture" }, async (input, viewer) => {
  const db = await getDb();
  const result = await captureInvoice(
    db,
    viewer.merchant.id,
    input.invoiceId,
    { amount: input.amount },
    { testOnly: !canInMode(viewer.user.role, "money.capture", "live"), idempotencyKey: `dashboard-${input.requestKey}` },
  );
  return answer(result, viewer, input.invoiceId, "capture");
});

/** Void on an authorized payment's page: the same roles and rules as Capture, and POST …/{id}/void. */
export const voidInvoiceAction = validatedAction("invoices.void", { schema: voidFormSchema, can: "money.capture" }, async (input, viewer) => {
  const db = await getDb();
  const result = await voidInvoice(db, viewer.merchant.id, input.invoiceId, {
    testOnly: !canInMode(viewer.user.role, "money.capture", "live"),
    idempotencyKey: `dashboard-${input.requestKey}`,
  });
  return answer(result, viewer, input.invoiceId, "void");
});
