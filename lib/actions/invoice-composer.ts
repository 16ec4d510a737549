"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { mintSessionCredential } from "@/lib/api-keys/session-credential";
import { invoiceApiBaseUrl } from "@/lib/composer/base-url";
import { requestsLiveInvoice } from "@/lib/composer/test-mode";
import { invoiceCollectionPath } from "@/lib/api/invoice-resource";
import { logger } from "@/lib/logger";
import { fail, ok, problem, refuse } from "@/lib/problems";
import { canInMode, ROLE_NAMES } from "@/lib/identity/permissions";
import { validatedAction } from "./validated-action";

/** Generous: the API itself answers 413 above 64 KiB, and the composer shows that answer. */
const MAX_BODY_CHARS = 256 * 1024;
const TIMEOUT_MS = 15_000;

const sendSchema = z.object({
  direction: z.enum(["payment", "payout"]),
  body: z.string().min(1, "The request body is empty").max(MAX_BODY_CHARS, "The request body is too large"),
});

/** The API's answer as the composer shows it. Never the credential; the card number only as the API masks it. */
export type ComposerSendResult = { url: string; status: number; body: unknown; invoiceId?: string; requestId?: string };

function parseBody(text: string): unknown {
  if (text === "") return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text.slice(0, 2_000);
  }
}

function createdId(status: number, body: unknown): string | undefined {
  if (status !== 200 && status !== 201) return undefined;
  const id = (body as { data?: { id?: unknown } } | null)?.data?.id;
  return typeof id === "string" ? id : undefined;
}

/**
 * The composer posts the envelope to the invoice API over HTTP, as an outside client
 * would, with a short-lived credential minted for the signed-in person (stored API keys stay
 * hashed). The API validates again and decides; this only relays its answer.
 */
export const sendComposedInvoiceAction = validatedAction(
  "invoices.compose",
  { schema: sendSchema, can: "invoices.compose" },
  async ({ direction, body }, viewer) => {
    if (!canInMode(viewer.user.role, "invoices.compose", "live") && requestsLiveInvoice(body)) {
      const message = `${ROLE_NAMES[viewer.user.role]} members may compose test-mode invoices only. Turn Test mode on.`;
      // On the Test mode field and in the alert both.
      return fail([problem("test_mode_only", message, ["test_mode"]), problem("test_mode_only", message)]);
    }
    const base = invoiceApiBaseUrl(process.env.INVOICE_API_BASE_URL, process.env.PORT);
    if (!base.ok) return refuse("no_api_base_url", base.message);
    const url = `${base.baseUrl}${invoiceCollectionPath(direction)}`;
    const credential = mintSessionCredential({ merchantId: viewer.merchant.id, userId: viewer.user.id, role: viewer.user.role });

    let response: Response;
    try {
      response = await fetch(url, {
        method: "POST",
        headers: { Authorization: `Bearer ${credential}`, "Content-Type": "application/vnd.api+json", Accept: "application/vnd.api+json" },
        body,
        cache: "no-store",
        redirect: "manual",
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (error) {
      logger.warn("composer could not reach the invoice API", { url, error: error instanceof Error ? error.name : "unknown" });
      return refuse("api_unreachable", `Could not reach the invoice API at ${base.baseUrl}. Nothing was created; try again.`);
    }
    const answer = parseBody(await response.text());
    const invoiceId = createdId(response.status, answer);
    if (invoiceId) revalidatePath("/invoices");
    const result: ComposerSendResult = { url, status: response.status, body: answer };
    if (invoiceId) result.invoiceId = invoiceId;
    const requestId = response.headers.get("x-request-id");
    if (requestId) result.requestId = requestId;
    return ok(result);
  },
);
