import "server-only";
import type { Db } from "@/lib/db/client";
import { logger } from "@/lib/logger";
import { resumeAfterRedirect } from "@/lib/processing/engine";
import { findHostedInvoice, type HostedInvoice } from "./hosted-invoice";

/**
 * The customer is back from 3-D Secure (or reloads the page while it is pending): one status
 * request settles the waiting attempt, then the page shows where the invoice stands. A provider
 * that cannot answer yet leaves it waiting; the page says so and offers to check again.
 */
export async function resumeHostedInvoice(db: Db, invoiceId: string): Promise<HostedInvoice | undefined> {
  const invoice = await findHostedInvoice(db, invoiceId);
  if (!invoice || invoice.outcome.kind !== "in_progress") return invoice;
  try {
    await resumeAfterRedirect(db, invoiceId);
  } catch (error) {
    logger.warn("hosted page could not resume the payment", { invoiceId, error });
  }
  return findHostedInvoice(db, invoiceId);
}
