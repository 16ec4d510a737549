import { z } from "zod";
import { WEBHOOK_EVENT_STATES } from "@/lib/db/enums";
import { instantFromMs } from "@/lib/dates";
import { ENDPOINT_ID, EVENT_ID, INVOICE_ID } from "@/lib/ids/patterns";
import { TEST_EVENT_TYPE, WEBHOOK_EVENT_TYPES } from "../invoices/event-types";

/**
 * The webhook endpoint form (isomorphic: the form and the actions parse with it). The server then
 * checks the URL's scheme for production and every address its host resolves to
 * (lib/http/url-check.ts), which the browser cannot.
 */
const endpointFields = {
  url: z
    .string({ error: "Endpoint URL must be text" })
    .trim()
    .min(1, { error: "Enter the endpoint URL" })
    .max(2048, { error: "Endpoint URL must be at most 2048 characters" })
    .refine((text) => /^https?:\/\/[^\s]+$/i.test(text), {
      error: "Endpoint URL must start with https:// or http:// (the field's help says which this server accepts)",
    }),
  description: z.string({ error: "Description must be text" }).trim().max(200, { error: "Description must be at most 200 characters" }),
  enabled: z.boolean({ error: "Enabled must be on or off" }),
  /** All event types, including types added later; otherwise the chosen `eventTypes`. */
  allEvents: z.boolean({ error: "All events must be on or off" }),
  eventTypes: z.array(z.enum(WEBHOOK_EVENT_TYPES, { error: "Unknown event type" }), { error: "Event types must be a list" }).max(WEBHOOK_EVENT_TYPES.length),
};

const atLeastOneType = (input: { allEvents: boolean; eventTypes: readonly string[] }) => input.allEvents || input.eventTypes.length > 0;
const chooseOne = { error: "Choose at least one event type, or All events", path: ["eventTypes"] };

export const webhookEndpointSchema = z.object(endpointFields).refine(atLeastOneType, chooseOne);

const endpointId = z.string({ error: "Unknown endpoint" }).regex(ENDPOINT_ID, { error: "Unknown endpoint" });

export const updateWebhookEndpointSchema = z.object({ endpointId, ...endpointFields }).refine(atLeastOneType, chooseOne);

/** Roll secret, send test event, delete: one endpoint of the signed-in merchant. */
export const endpointIdSchema = z.object({ endpointId });

/** Resend: one event of the signed-in merchant, to one endpoint it was sent to. */
export const resendEventSchema = z.object({
  eventId: z.string({ error: "Unknown event" }).regex(EVENT_ID, { error: "Unknown event" }),
  endpointId,
});

const EVENT_CURSOR = /^\d{1,15}\.evt_[A-Za-z0-9_-]{1,64}$/;

/** The time of an event log cursor (`<ms>.<event id>`), when it is one within the range of lib/dates. */
export const eventCursorTime = (cursor: string): Date | undefined => instantFromMs(Number(cursor.slice(0, cursor.indexOf("."))));

/** The event log's filters, from the page's query string; a value that is not one of these is dropped (and the page says so). */
export const EVENT_LOG_TYPES = [...WEBHOOK_EVENT_TYPES, TEST_EVENT_TYPE] as const;
export const eventLogFilterFields = {
  type: z.enum(EVENT_LOG_TYPES),
  state: z.enum(WEBHOOK_EVENT_STATES),
  endpoint: z.string().regex(ENDPOINT_ID),
  invoice: z.string().trim().regex(INVOICE_ID),
  /** Keyset cursor: the last event of the page before (its created time in ms, within the dates a query may name, and id). */
  after: z
    .string()
    .regex(EVENT_CURSOR)
    .refine((value) => eventCursorTime(value) !== undefined),
} as const;
export type EventLogFilters = { [K in keyof typeof eventLogFilterFields]?: z.output<(typeof eventLogFilterFields)[K]> };
