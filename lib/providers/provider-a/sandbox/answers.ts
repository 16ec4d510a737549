import "server-only";
import { formatMinor } from "@/lib/money";
import type { CodedDecline } from "@/lib/providers/server/provider-answers";
import { decideAmount } from "@/lib/sandbox/cards";
import type { SandboxRecord } from "@/lib/sandbox/records";
import { savedCardOfRecord } from "@/lib/sandbox/card-tokens";
import { A_DECLINES } from "../mapping";
import type { AAnswer } from "../wire";

/** A test card's decline in A's words, from the table the adapter reads A's declines with. */
export function declineAnswer(
  base: Pick<AAnswer, "transaction_id" | "request_id" | "currency">,
  reason: CodedDecline,
  status: "declined" | "failed" = "declined",
): AAnswer {
  const { code, reason: text } = A_DECLINES[reason];
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
    if ((decision.kind === "approve" || decision.kind === "partial") && typeof details.authorizedUntil === "string") {
      return authorizedAnswer(base, decision.capturedMinor, details.authorizedUntil);
    }
    if (decision.kind === "approve" || decision.kind === "partial") {
      const status = decision.kind === "approve" ? "approved" : "partially_approved";
      return withSavedCard({ ...base, status, amount_processed: formatMinor(decision.capturedMinor, base.currency) }, record);
    }
    return declineAnswer(base, decision.kind === "decline" ? decision.reason : "issuer_decline");
  }
  return withSavedCard(record.response as AAnswer, record);
}

/** An authorization (a payment sent with `capture: false`, ../wire.ts): the amount reserved until `until`, nothing processed. */
export function authorizedAnswer(base: Pick<AAnswer, "transaction_id" | "request_id" | "currency">, authorizedMinor: bigint, until: string): AAnswer {
  return {
    ...base,
    status: "authorized",
    amount_authorized: formatMinor(authorizedMinor, base.currency),
    amount_processed: formatMinor(0n, base.currency),
    authorization_expires_at: until,
  };
}

/** The answer with its `card_token` object once the payment is approved and kept the card (../wire.ts). */
export function withSavedCard(answer: AAnswer, record: SandboxRecord): AAnswer {
  const saved = savedCardOfRecord(record);
  if (!saved || (answer.status !== "approved" && answer.status !== "partially_approved")) return answer;
  const card_token = {
    token_id: saved.token,
    brand: saved.brand,
    last4: saved.lastFour,
    exp_month: String(saved.expiryMonth).padStart(2, "0"),
    exp_year: String(saved.expiryYear),
  };
  return { ...answer, card_token };
}
