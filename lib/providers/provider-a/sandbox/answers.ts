import "server-only";
import { formatMinor } from "@/lib/money";
import { decideAmount, type DeclineReason } from "@/lib/sandbox/cards";
import type { SandboxRecord } from "@/lib/sandbox/records";

/** Provider A's answer to a payment, a payout or a status request (the same shape for all three). */
export type AAnswer = {
  status: "approved" | "partially_approved" | "declined" | "3ds_required" | "completed" | "partially_completed" | "failed";
  transaction_id: string;
  request_id: string;
  currency: string;
  amount_processed?: string;
  decline_code?: string;
  decline_reason?: string;
  redirect_url?: string;
  parts?: { part_reference: string; amount: string; status: "paid" | "failed" }[];
};

/** Provider A words declines as ISO 8583 response codes. */
export const A_DECLINE_CODES: Record<DeclineReason | "auth_3ds_failed", { code: string; reason: string }> = {
  issuer_decline: { code: "05", reason: "Do not honour" },
  insufficient_funds: { code: "51", reason: "Insufficient funds" },
  invalid_cvv: { code: "N7", reason: "CVV2 mismatch" },
  auth_3ds_failed: { code: "3D", reason: "3-D Secure authentication failed" },
};

export function declineAnswer(base: Pick<AAnswer, "transaction_id" | "request_id" | "currency">, reason: keyof typeof A_DECLINE_CODES, status: "declined" | "failed" = "declined"): AAnswer {
  const { code, reason: text } = A_DECLINE_CODES[reason];
  return { ...base, status, decline_code: code, decline_reason: text };
}

/**
 * The status endpoint's answer: the answer given when the request arrived, unless the customer
 * has since answered the 3-D Secure step (lib/sandbox/three-ds.ts marks the record succeeded or
 * failed); a pass is then captured by the amount rule, as an approval without the step would be.
 */
export function answerFromRecord(record: SandboxRecord): AAnswer {
  const base = { transaction_id: record.reference, request_id: record.idempotencyKey ?? "", currency: record.currency ?? "" };
  const { details } = record;
  if (details.threeDs === "failed") return declineAnswer(base, "auth_3ds_failed");
  if (details.threeDs === "passed") {
    const decision = decideAmount({
      amountText: String(details.amountText ?? ""),
      amountMinor: record.amountMinor ?? 0n,
      allowPartially: details.allowPartially === true,
    });
    if (decision.kind === "approve" || decision.kind === "partial") {
      const status = decision.kind === "approve" ? "approved" : "partially_approved";
      return { ...base, status, amount_processed: formatMinor(decision.capturedMinor, base.currency) };
    }
    return declineAnswer(base, decision.kind === "decline" ? decision.reason : "issuer_decline");
  }
  return record.response as AAnswer;
}
