import "server-only";
import { createSharedRateLimiter } from "@/lib/rate-limit/limiter";

/**
 * "Pay" on one hosted page: at most 10 submissions per invoice in 15 minutes, valid
 * cards or not. The page is public and its only key is the invoice id, so without this anyone
 * holding a link could try card after card against it (card testing) or keep the provider and the
 * database busy; the invoice's own attempts limit counts only what reached a provider. A customer
 * correcting a typo or trying a second card stays far below it. Shared by the processes on one
 * PostgreSQL (lib/rate-limit/store.ts), in memory on the embedded database.
 */
export const PAY_TRIES_PER_INVOICE = 10;
const PAY_TRIES_WINDOW_MS = 15 * 60_000;

const limiter = createSharedRateLimiter("hosted-pay", PAY_TRIES_PER_INVOICE, PAY_TRIES_WINDOW_MS);

export function payLimitMessage(waitSeconds: number): string {
  const minutes = Math.max(1, Math.ceil(waitSeconds / 60));
  return `Too many payment tries for this invoice. No payment was taken; wait ${minutes} minute${minutes === 1 ? "" : "s"} and try again.`;
}

/** Counts one Pay on the invoice, in one step: 0 when it may go on, else the seconds until the window ends. */
export async function takePayTry(invoiceId: string): Promise<number> {
  return (await limiter.attempt(invoiceId)).retryAfterSeconds;
}
