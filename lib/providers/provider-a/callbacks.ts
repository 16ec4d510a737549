import "server-only";
import { z } from "zod";
import { INVALID_SIGNATURE, isFresh, malformed, MISSING_SIGNATURE, parseJson, refusal, signEd25519, STALE_TIMESTAMP, unixSeconds, verifyEd25519 } from "@/lib/callbacks/scheme";
import { toMinorUnits } from "@/lib/money";
import type { HardDecline, ProviderOutcome } from "@/lib/providers/kit/adapter";
import type { ProviderCallbacks } from "@/lib/providers/kit/provider-server";
import { providerCallbackPublicKey, sandboxCallbackKeyPair } from "@/lib/sandbox/callback-keys";
import { answerFromRecord } from "./sandbox/answers";
import { SLUG } from "./sandbox/common";

/**
 * Provider A's transaction notifications: `{ event_id, type: "transaction.updated", created_at,
 * transaction }`, the transaction as A's status endpoint gives it (a split payout with its parts).
 * A signs them with its own key, not the merchant's: `X-A-Signature` is the base64 Ed25519
 * signature of `${X-A-Event-Id}.${X-A-Timestamp}.${raw body}`, verified with A's published public
 * key (`lib/sandbox/callback-keys.ts`).
 */

const transactionSchema = z.object({
  status: z.enum(["approved", "partially_approved", "declined", "failed", "3ds_required", "processing", "completed", "partially_completed"]),
  transaction_id: z.string().min(1),
  request_id: z.string().min(1),
  currency: z.string().length(3),
  amount_processed: z.string().optional(),
  decline_code: z.string().optional(),
  decline_reason: z.string().optional(),
  parts: z.array(z.object({ part_reference: z.string(), amount: z.string(), status: z.enum(["paid", "failed", "processing"]) })).optional(),
});

const eventSchema = z.object({ event_id: z.string().min(1), type: z.literal("transaction.updated"), created_at: z.string(), transaction: transactionSchema });

const DECLINES: Record<string, HardDecline> = { "05": "issuer_decline", "51": "insufficient_funds", N7: "invalid_cvv", "3D": "auth_3ds_failed" };

const signingText = (eventId: string, timestamp: number, rawBody: string) => `${eventId}.${timestamp}.${rawBody}`;

function outcomeOf(transaction: z.infer<typeof transactionSchema>): ProviderOutcome {
  const providerReference = transaction.transaction_id;
  const parts = transaction.parts?.map((part) => ({
    providerReference: part.part_reference,
    amountMinor: toMinorUnits(part.amount, transaction.currency),
    status: part.status === "paid" ? ("succeeded" as const) : part.status === "failed" ? ("failed" as const) : ("pending" as const),
  }));
  switch (transaction.status) {
    case "approved":
    case "partially_approved":
    case "completed":
    case "partially_completed": {
      const processedAmountMinor = transaction.amount_processed === undefined ? 0n : toMinorUnits(transaction.amount_processed, transaction.currency);
      return { kind: "succeeded", providerReference, processedAmountMinor, ...(parts ? { parts } : {}) };
    }
    case "3ds_required":
    case "processing":
      return { kind: "pending", providerReference, ...(parts ? { parts } : {}) };
    case "declined":
    case "failed":
      return {
        kind: "declined",
        resolution: DECLINES[transaction.decline_code ?? ""] ?? "general_error",
        providerReference,
        message: transaction.decline_reason ?? `Declined by Provider A (${transaction.decline_code ?? "no code"}).`,
      };
  }
}

export const providerACallbacks: ProviderCallbacks = {
  headers: ["x-a-event-id", "x-a-timestamp", "x-a-signature"],
  eventFromRecord(record) {
    const { redirect_url: _redirect, ...transaction } = answerFromRecord(record);
    return transaction;
  },
  sign({ event, notificationId, timestamp }) {
    const rawBody = JSON.stringify({ event_id: notificationId, type: "transaction.updated", created_at: new Date(timestamp * 1000).toISOString(), transaction: event });
    const signature = signEd25519(sandboxCallbackKeyPair(SLUG).privateKey, signingText(notificationId, timestamp, rawBody));
    return { headers: { "content-type": "application/json", "x-a-event-id": notificationId, "x-a-timestamp": String(timestamp), "x-a-signature": signature }, rawBody };
  },
  verify({ headers, rawBody }, _credentials, { mode, now }) {
    const eventId = headers.get("x-a-event-id") ?? "";
    const timestamp = unixSeconds(headers.get("x-a-timestamp"));
    const signature = headers.get("x-a-signature") ?? "";
    if (!eventId || timestamp === undefined || !signature) return MISSING_SIGNATURE;
    const key = providerCallbackPublicKey(SLUG, mode);
    if (!key.ok) return refusal(401, key.reason);
    if (!verifyEd25519(key.key, signingText(eventId, timestamp, rawBody), signature)) return INVALID_SIGNATURE;
    if (!isFresh(timestamp, now)) return STALE_TIMESTAMP;
    const parsed = eventSchema.safeParse(parseJson(rawBody));
    if (!parsed.success) return malformed("not a Provider A transaction notification");
    if (parsed.data.event_id !== eventId) return malformed("event_id differs from X-A-Event-Id");
    const { transaction } = parsed.data;
    return {
      ok: true,
      notification: { notificationId: eventId, occurredAt: new Date(timestamp * 1000), providerReference: transaction.transaction_id, merchantReference: transaction.request_id, outcome: outcomeOf(transaction) },
    };
  },
};
