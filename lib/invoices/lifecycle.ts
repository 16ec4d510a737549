import { and, eq, inArray, lte, or, sql, type SQL } from "drizzle-orm";
import { EXPIRABLE_STATUSES, type InvoiceStatus, type Resolution } from "@/lib/db/enums";
import { invoiceAttempts, invoices } from "@/lib/db/schema";
import { DEFAULT_ATTEMPTS_LIMIT } from "./contract/field-schemas";
import type { InvoiceRow } from "./store";

/**
 * The invoice lifecycle rules that are asked both of a row in memory and of the table in a query
 * (the sweeps). Each rule is written once here, its TypeScript form and its SQL fragment side by
 * side, so a change to one cannot miss the other. The SQL fragments name the `invoices` and
 * `invoice_attempts` tables unaliased: use them in queries over those tables.
 */

type AttemptStatus = (typeof invoiceAttempts.$inferSelect)["status"];

// ---- Attempts limit -------------------------------------------------------------------------

/** The default most attempts one invoice may make across its connections (REFERENCE "Statuses": 5). */
const ATTEMPTS_LIMIT = DEFAULT_ATTEMPTS_LIMIT;

/**
 * The most attempts one invoice may make across all its connections: payouts read their
 * `attempts_limit` option (spec 4.2), payments use ATTEMPTS_LIMIT.
 */
export function attemptsLimitOf(invoice: Pick<InvoiceRow, "direction" | "options">): number {
  const asked = invoice.options.attempts_limit;
  if (invoice.direction === "payout" && typeof asked === "number" && Number.isInteger(asked) && asked > 0) return asked;
  return ATTEMPTS_LIMIT;
}

const askedLimit = sql`(${invoices.options}->>'attempts_limit')::numeric`;
const defaultLimit = sql.raw(String(ATTEMPTS_LIMIT));

/** attemptsLimitOf as SQL over `invoices` (nested cases: the cast runs only on a JSON number). */
const attemptsLimitSql: SQL = sql`case
  when ${invoices.direction} = 'payout' and jsonb_typeof(${invoices.options}->'attempts_limit') = 'number'
  then case when ${askedLimit} > 0 and ${askedLimit} = trunc(${askedLimit}) then ${askedLimit} else ${defaultLimit} end
  else ${defaultLimit} end`;

export function attemptsExhausted(invoice: Pick<InvoiceRow, "direction" | "options" | "attemptsCount">): boolean {
  return invoice.attemptsCount >= attemptsLimitOf(invoice);
}

/** Not attemptsExhausted, as SQL over `invoices`. */
const attemptsLeftSql: SQL = sql`${invoices.attemptsCount} < ${attemptsLimitSql}`;

// ---- Open attempts --------------------------------------------------------------------------

/**
 * Attempt statuses whose outcome is not final yet: the request is still running (in_flight), or it
 * ended without a final answer (pending, unknown) and a status request or a callback may settle it.
 */
const OPEN_ATTEMPT_STATUSES = ["in_flight", "pending", "unknown"] as const satisfies readonly AttemptStatus[];

export function attemptIsOpen(status: AttemptStatus): boolean {
  return (OPEN_ATTEMPT_STATUSES as readonly AttemptStatus[]).includes(status);
}

/** attemptIsOpen as SQL over `invoice_attempts`. */
export const attemptIsOpenSql: SQL = inArray(invoiceAttempts.status, [...OPEN_ATTEMPT_STATUSES]);

/** Open attempts whose request has ended (not in flight): the ones a status request may ask about. */
const ANSWER_AWAITED_ATTEMPT_STATUSES = ["pending", "unknown"] as const satisfies readonly (typeof OPEN_ATTEMPT_STATUSES)[number][];

export function attemptAwaitsAnswer(status: AttemptStatus): boolean {
  return (ANSWER_AWAITED_ATTEMPT_STATUSES as readonly AttemptStatus[]).includes(status);
}

/** attemptAwaitsAnswer as SQL over `invoice_attempts`. */
export const attemptAwaitsAnswerSql: SQL = inArray(invoiceAttempts.status, [...ANSWER_AWAITED_ATTEMPT_STATUSES]);

// ---- Waiting for a status request -----------------------------------------------------------

/** Invoice statuses that wait for a later answer (status request, callback) about their latest attempt. */
const WAITING_FOR_STATUS_STATUSES = ["process_pending", "process_error"] as const satisfies readonly InvoiceStatus[];

export function waitsForStatus(status: InvoiceStatus): boolean {
  return (WAITING_FOR_STATUS_STATUSES as readonly InvoiceStatus[]).includes(status);
}

/** waitsForStatus as SQL over `invoices`. */
export const waitsForStatusSql: SQL = inArray(invoices.status, [...WAITING_FOR_STATUS_STATUSES]);

/** The resolution with which reconciliation gave up on an invoice (its lifetime ended without a final answer). */
export const GAVE_UP_RESOLUTION = "unable_to_reconcile" as const satisfies Resolution;

export function reconciliationGaveUp(invoice: Pick<InvoiceRow, "resolution">): boolean {
  return invoice.resolution === GAVE_UP_RESOLUTION;
}

/** Not reconciliationGaveUp, as SQL over `invoices`. */
export const reconciliationGoesOnSql: SQL = sql`${invoices.resolution} is distinct from ${GAVE_UP_RESOLUTION}`;

// ---- Lifetime and expiry --------------------------------------------------------------------

/** Its lifetime is over: from expires_at on, no new attempt starts, even before the expiry sweep has come by. */
export function isPastLifetime(invoice: Pick<InvoiceRow, "expiresAt">, now: Date = new Date()): boolean {
  return invoice.expiresAt.getTime() <= now.getTime();
}

/** isPastLifetime (now) as SQL over `invoices`. */
export const pastLifetimeSql: SQL = lte(invoices.expiresAt, sql`now()`);

export { EXPIRABLE_STATUSES };

export function isExpirableStatus(status: InvoiceStatus): boolean {
  return (EXPIRABLE_STATUSES as readonly InvoiceStatus[]).includes(status);
}

/**
 * Whether the invoice is unpaid and may still expire: nothing moved and nothing is still being
 * asked. `hasOpenAttempt` is asked only for a process_pending invoice.
 */
export async function mayStillExpire(
  invoice: Pick<InvoiceRow, "status" | "direction" | "options" | "attemptsCount">,
  hasOpenAttempt: () => Promise<boolean>,
): Promise<boolean> {
  switch (invoice.status) {
    case "created":
      return true;
    case "process_failed":
      return !attemptsExhausted(invoice);
    case "process_pending":
      return !(await hasOpenAttempt());
    default:
      return false;
  }
}

/** mayStillExpire as SQL over `invoices` (the open attempt looked up in `invoice_attempts`). */
export const mayStillExpireSql: SQL = or(
  eq(invoices.status, "created"),
  and(eq(invoices.status, "process_failed"), attemptsLeftSql),
  and(
    eq(invoices.status, "process_pending"),
    sql`not exists (select 1 from ${invoiceAttempts} where ${invoiceAttempts.invoiceId} = ${invoices.id} and ${attemptIsOpenSql})`,
  ),
)!;
