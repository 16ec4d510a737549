import { z } from "zod";
import { EVENT_ID } from "@/lib/ids/patterns";

/**
 * The Settings form's callback URL (isomorphic: the form and the action parse with it). Empty
 * clears the URL (no deliveries). The server then checks the scheme for production and every
 * address the host resolves to (lib/http/url-check.ts), which the browser cannot.
 */
export const webhookUrlSchema = z.object({
  url: z
    .string({ error: "Callback URL must be text" })
    .trim()
    .max(2048, { error: "Callback URL must be at most 2048 characters" })
    .refine((text) => text === "" || /^https?:\/\/[^\s]+$/i.test(text), { error: "Callback URL must start with https:// (or be empty to stop deliveries)" }),
});

export type WebhookUrlInput = z.input<typeof webhookUrlSchema>;

/** The invoice page's Resend: one event of the signed-in merchant. */
export const resendEventSchema = z.object({
  eventId: z.string().regex(EVENT_ID, { error: "Unknown event" }),
});

/** Buttons without input (rotate, send test event). */
export const noInputSchema = z.object({}).strict();
