import "server-only";
import { z } from "zod";
import { signEd25519, unixSeconds, verifyEd25519 } from "@/lib/providers/kit/callback-scheme";
import { refuseCallback, verifySignedCallback, type SignedCallbackScheme } from "@/lib/providers/kit/callbacks";
import type { ProviderCallbacks } from "@/lib/providers/kit/provider-server";
import { providerCallbackPublicKey, sandboxCallbackKeyPair } from "@/lib/sandbox/callback-keys";
import { outcomeOf } from "./mapping";
import { answerFromRecord } from "./sandbox/answers";
import { SLUG } from "./sandbox/common";
import { A_CALLBACK_HEADERS, aCallbackTransactionSchema, callbackSigningText } from "./wire";

/**
 * Provider A's transaction notifications: `{ event_id, type: "transaction.updated", created_at,
 * transaction }`, the transaction as A's status endpoint gives it (a split payout with its parts).
 * A signs them with its own key (./wire.ts), verified with A's published public key
 * (`lib/sandbox/callback-keys.ts`).
 */

const eventSchema = z.object({ event_id: z.string().min(1), type: z.literal("transaction.updated"), created_at: z.string(), transaction: aCallbackTransactionSchema });

const scheme: SignedCallbackScheme<z.infer<typeof eventSchema>> = {
  read: (headers) => ({
    id: headers.get(A_CALLBACK_HEADERS.eventId) ?? "",
    timestamp: unixSeconds(headers.get(A_CALLBACK_HEADERS.timestamp)),
    signature: headers.get(A_CALLBACK_HEADERS.signature) ?? "",
  }),
  verify({ id, timestamp, signature, rawBody }, _credentials, { mode }) {
    const key = providerCallbackPublicKey(SLUG, mode);
    if (!key.ok) return refuseCallback("no_verification_key", key.reason);
    return verifyEd25519(key.key, callbackSigningText(id, timestamp, rawBody), signature);
  },
  body: eventSchema,
  notItsShape: "not a Provider A transaction notification",
  idInBody: { of: (event) => event.event_id, differs: "event_id differs from X-A-Event-Id" },
  report: ({ transaction }) => ({ providerReference: transaction.transaction_id, merchantReference: transaction.request_id, outcome: outcomeOf(transaction) }),
};

export const providerACallbacks: ProviderCallbacks = {
  headers: Object.values(A_CALLBACK_HEADERS),
  eventFromRecord(record) {
    const { redirect_url: _redirect, ...transaction } = answerFromRecord(record);
    return transaction;
  },
  sign({ event, notificationId, timestamp }) {
    const rawBody = JSON.stringify({ event_id: notificationId, type: "transaction.updated", created_at: new Date(timestamp * 1000).toISOString(), transaction: event });
    const signature = signEd25519(sandboxCallbackKeyPair(SLUG).privateKey, callbackSigningText(notificationId, timestamp, rawBody));
    return {
      headers: { "content-type": "application/json", [A_CALLBACK_HEADERS.eventId]: notificationId, [A_CALLBACK_HEADERS.timestamp]: String(timestamp), [A_CALLBACK_HEADERS.signature]: signature },
      rawBody,
    };
  },
  verify: (request, credentials, options) => verifySignedCallback(scheme, request, credentials, options),
};
