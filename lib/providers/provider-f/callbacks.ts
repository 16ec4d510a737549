import "server-only";
import { z } from "zod";
import { credentialText, sameText, unixSeconds } from "@/lib/providers/kit/callback-scheme";
import { verifySignedCallback, type SignedCallbackScheme } from "@/lib/providers/kit/callbacks";
import type { ProviderCallbacks } from "@/lib/providers/kit/provider-server";
import { outcomeOfCharge } from "./mapping";
import { presentCharge } from "./sandbox/charges";
import { callbackSignature, callbackSignatureHeader, F_CALLBACK_HEADERS, F_CHARGE_STATUSES, F_FAILURE_CODES, readCallbackSignature } from "./wire";

/**
 * Provider F's events: `{ id, object: "event", type: "charge.updated", created, data: { object } }`,
 * the charge as F's API gives it plus the `reference` it was created with, signed with the secret
 * key (./wire.ts).
 */

const chargeSchema = z.object({
  id: z.string().min(1),
  object: z.literal("charge"),
  status: z.enum(F_CHARGE_STATUSES),
  amount_captured: z.number().int().nonnegative(),
  failure_code: z.enum(F_FAILURE_CODES).optional(),
  reference: z.string().optional(),
});

const eventSchema = z.object({ id: z.string().min(1), object: z.literal("event"), type: z.literal("charge.updated"), created: z.number().int(), data: z.object({ object: chargeSchema }) });

const scheme: SignedCallbackScheme<z.infer<typeof eventSchema>> = {
  read: (headers) => ({
    id: headers.get(F_CALLBACK_HEADERS.id) ?? "",
    timestamp: unixSeconds(headers.get(F_CALLBACK_HEADERS.timestamp)),
    signature: readCallbackSignature(headers.get(F_CALLBACK_HEADERS.signature)),
  }),
  verify({ id, timestamp, signature, rawBody }, credentials) {
    const secret = credentialText(credentials, "secret_key");
    return secret !== "" && sameText(callbackSignature(secret, id, timestamp, rawBody), signature.toLowerCase());
  },
  body: eventSchema,
  notItsShape: "not a Provider F charge event",
  idInBody: { of: (event) => event.id, differs: "id differs from x-event-id" },
  report: ({ data: { object: charge } }) => ({
    providerReference: charge.id,
    ...(charge.reference ? { merchantReference: charge.reference } : {}),
    outcome: outcomeOfCharge(charge),
  }),
};

export const providerFCallbacks: ProviderCallbacks = {
  headers: Object.values(F_CALLBACK_HEADERS),
  eventFromRecord(record) {
    const { next_action: _next, ...charge } = presentCharge(record).body as Record<string, unknown>;
    return { ...charge, reference: record.idempotencyKey ?? undefined };
  },
  sign({ event, credentials, notificationId, timestamp }) {
    const rawBody = JSON.stringify({ id: notificationId, object: "event", type: "charge.updated", created: timestamp, data: { object: event } });
    const signature = callbackSignature(credentialText(credentials, "secret_key"), notificationId, timestamp, rawBody);
    return {
      headers: {
        "content-type": "application/json",
        [F_CALLBACK_HEADERS.id]: notificationId,
        [F_CALLBACK_HEADERS.timestamp]: String(timestamp),
        [F_CALLBACK_HEADERS.signature]: callbackSignatureHeader(signature),
      },
      rawBody,
    };
  },
  verify: (request, credentials, options) => verifySignedCallback(scheme, request, credentials, options),
};
