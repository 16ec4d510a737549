import "server-only";
import { z } from "zod";
import { credentialText, hmac, INVALID_SIGNATURE, isFresh, malformed, MISSING_SIGNATURE, parseJson, sameText, STALE_TIMESTAMP } from "@/lib/callbacks/scheme";
import { toMinorUnits } from "@/lib/money";
import type { HardDecline, ProviderOutcome } from "@/lib/providers/kit/adapter";
import type { ProviderCallbacks } from "@/lib/providers/kit/provider-server";
import { answerFromRecord } from "./sandbox/charges";

/**
 * Provider B's charge notifications: a POST of the charge as its status endpoint would give it,
 * flat and string-valued like the rest of B's API, with `X-Notification-Id` and
 * `X-Notification-Signature: t=<unix seconds>,v1=<hex>`, the HMAC-SHA256 with the terminal's
 * secret key of `${t}.${notification id}.${raw body}`.
 */

const eventSchema = z.object({
  event: z.literal("charge.updated"),
  txn: z.string().min(1),
  order_ref: z.string().min(1),
  result: z.enum(["ok", "partial", "fail", "3ds", "wait"]),
  cur: z.string().length(3),
  captured_sum: z.string().optional(),
  error_code: z.string().optional(),
  error_text: z.string().optional(),
});

const DECLINES: Record<string, HardDecline> = { do_not_honor: "issuer_decline", nsf: "insufficient_funds", cvc_mismatch: "invalid_cvv", "3ds_failed": "auth_3ds_failed" };

const signed = (secret: string, timestamp: number, notificationId: string, rawBody: string) => hmac("sha256", secret, `${timestamp}.${notificationId}.${rawBody}`);

function outcomeOf(event: z.infer<typeof eventSchema>): ProviderOutcome {
  const providerReference = event.txn;
  switch (event.result) {
    case "ok":
    case "partial":
      return { kind: "succeeded", providerReference, processedAmountMinor: toMinorUnits(event.captured_sum ?? "0", event.cur) };
    case "3ds":
    case "wait":
      return { kind: "pending", providerReference };
    case "fail":
      return { kind: "declined", resolution: DECLINES[event.error_code ?? ""] ?? "general_error", providerReference, message: event.error_text ?? `Declined by Provider B (${event.error_code ?? "no code"}).` };
  }
}

export const providerBCallbacks: ProviderCallbacks = {
  headers: ["x-notification-id", "x-notification-signature"],
  eventFromRecord(record) {
    const answer = answerFromRecord(record);
    return { event: "charge.updated", txn: answer.txn, order_ref: answer.order_ref, result: answer.result, sum: answer.sum, cur: answer.cur, captured_sum: answer.captured_sum, error_code: answer.error_code, error_text: answer.error_text };
  },
  sign({ event, credentials, notificationId, timestamp }) {
    const rawBody = JSON.stringify(event);
    const digest = signed(credentialText(credentials, "secret_key"), timestamp, notificationId, rawBody);
    return { headers: { "content-type": "application/json", "x-notification-id": notificationId, "x-notification-signature": `t=${timestamp},v1=${digest}` }, rawBody };
  },
  verify({ headers, rawBody }, credentials, { now }) {
    const notificationId = headers.get("x-notification-id") ?? "";
    const parts = new Map((headers.get("x-notification-signature") ?? "").split(",").map((part) => part.trim().split("=", 2) as [string, string]));
    const timestamp = Number(parts.get("t"));
    const digest = parts.get("v1");
    if (!notificationId || !digest || !Number.isInteger(timestamp)) return MISSING_SIGNATURE;
    const secret = credentialText(credentials, "secret_key");
    if (!secret || !sameText(signed(secret, timestamp, notificationId, rawBody), digest)) return INVALID_SIGNATURE;
    if (!isFresh(timestamp, now)) return STALE_TIMESTAMP;
    const parsed = eventSchema.safeParse(parseJson(rawBody));
    if (!parsed.success) return malformed("not a Provider B charge notification");
    const event = parsed.data;
    return { ok: true, notification: { notificationId, occurredAt: new Date(timestamp * 1000), providerReference: event.txn, merchantReference: event.order_ref, outcome: outcomeOf(event) } };
  },
};
