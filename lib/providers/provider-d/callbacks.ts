import "server-only";
import { z } from "zod";
import { credentialText, hmac, INVALID_SIGNATURE, isFresh, malformed, MISSING_SIGNATURE, parseJson, sameText, STALE_TIMESTAMP, unixSeconds } from "@/lib/callbacks/scheme";
import type { HardDecline, ProviderOutcome } from "@/lib/providers/kit/adapter";
import type { ProviderCallbacks } from "@/lib/providers/kit/provider-server";
import { D_REJECT_CODES, D_STATES, type DTransaction } from "./wire";

/**
 * Provider D's notifications, JSON-RPC style like its API: `{ method: "transaction.notify",
 * params: { notify_id, transaction } }`, the transaction as D's status call gives it (amounts in
 * tiyin). Headers `Notify-Id`, `Notify-Time` (unix seconds) and `Sign`: the hex HMAC-SHA512 with
 * the merchant's secret key of `${Notify-Id}:${Notify-Time}:${raw body}`.
 */

const transactionSchema = z.object({
  transaction_id: z.string().min(1),
  payment_id: z.string().min(1),
  state: z.union([z.literal(D_STATES.performed), z.literal(D_STATES.performedPartly), z.literal(D_STATES.rejected), z.literal(D_STATES.failed)]),
  captured_amount: z.number().int().nonnegative(),
  reject_code: z.number().int().nullable(),
});

const eventSchema = z.object({ method: z.literal("transaction.notify"), params: z.object({ notify_id: z.string().min(1), transaction: transactionSchema }) });

const DECLINES: Readonly<Record<number, HardDecline>> = {
  [D_REJECT_CODES.issuer_decline]: "issuer_decline",
  [D_REJECT_CODES.insufficient_funds]: "insufficient_funds",
  [D_REJECT_CODES.invalid_cvv]: "invalid_cvv",
};

const signed = (secret: string, id: string, time: number, rawBody: string) => hmac("sha512", secret, `${id}:${time}:${rawBody}`);

function outcomeOf(transaction: z.infer<typeof transactionSchema>): ProviderOutcome {
  const providerReference = transaction.payment_id;
  if (transaction.state === D_STATES.performed || transaction.state === D_STATES.performedPartly) {
    return { kind: "succeeded", providerReference, processedAmountMinor: BigInt(transaction.captured_amount) };
  }
  if (transaction.state === D_STATES.failed) return { kind: "soft_failed", resolution: "provider_unavailable", providerReference, message: "Provider D could not process the sale" };
  const resolution = DECLINES[transaction.reject_code ?? 0] ?? "general_error";
  return { kind: "declined", resolution, providerReference, message: `Provider D rejected the sale (reject code ${transaction.reject_code ?? "none"})` };
}

export const providerDCallbacks: ProviderCallbacks = {
  headers: ["notify-id", "notify-time", "sign"],
  eventFromRecord(record) {
    return (record.details as { transaction?: DTransaction }).transaction;
  },
  sign({ event, credentials, notificationId, timestamp }) {
    const rawBody = JSON.stringify({ method: "transaction.notify", params: { notify_id: notificationId, transaction: event } });
    return {
      headers: { "content-type": "application/json", "notify-id": notificationId, "notify-time": String(timestamp), sign: signed(credentialText(credentials, "secret_key"), notificationId, timestamp, rawBody) },
      rawBody,
    };
  },
  verify({ headers, rawBody }, credentials, { now }) {
    const id = headers.get("notify-id") ?? "";
    const time = unixSeconds(headers.get("notify-time"));
    const sign = headers.get("sign") ?? "";
    if (!id || time === undefined || !sign) return MISSING_SIGNATURE;
    const secret = credentialText(credentials, "secret_key");
    if (!secret || !sameText(signed(secret, id, time, rawBody), sign.toLowerCase())) return INVALID_SIGNATURE;
    if (!isFresh(time, now)) return STALE_TIMESTAMP;
    const parsed = eventSchema.safeParse(parseJson(rawBody));
    if (!parsed.success) return malformed("not a Provider D transaction notification");
    if (parsed.data.params.notify_id !== id) return malformed("params.notify_id differs from Notify-Id");
    const { transaction } = parsed.data.params;
    return {
      ok: true,
      notification: { notificationId: id, occurredAt: new Date(time * 1000), providerReference: transaction.payment_id, merchantReference: transaction.transaction_id, outcome: outcomeOf(transaction) },
    };
  },
};
