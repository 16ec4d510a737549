import type { InvoiceSchedule } from "@/lib/processing/invoice-page-schedule";
import { CheckStatusButton } from "./check-status-button";
// To the second: status requests are 10 and 30 seconds apart at first.
import { formatMoment } from "./invoice-client";

const STATES: Record<string, string> = { created: "queued", retry: "retrying", active: "running" };

/**
 * The invoice page's "Scheduled" section: when the invoice expires, what the job queue
 * holds for it (status requests, expiry, payout cascade, webhook deliveries), and "Check status now".
 */
export function InvoiceScheduleView({ invoiceId, schedule, timeZone }: { invoiceId: string; schedule: InvoiceSchedule; timeZone: string }) {
  // Paid (or failed for good) before its lifetime ended: the lifetime no longer decides anything.
  const moot = !schedule.mayExpire && schedule.status !== "expired";
  return (
    <div className="space-y-4" data-testid="invoice-schedule">
      <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[max-content_1fr]">
        <dt className="font-medium text-slate-700">{moot ? "Lifetime" : schedule.pastLifetime ? "Expired at" : "Expires at"}</dt>
        <dd data-testid="schedule-expires">
          {moot ? <span className="mr-1">{schedule.pastLifetime ? "ended" : "ends"}</span> : null}
          <time dateTime={schedule.expiresAt}>{formatMoment(schedule.expiresAt, timeZone)}</time>
          {moot ? (
            <span className="ml-2 text-slate-600">(it no longer expires: the invoice is {schedule.status.replaceAll("_", " ")})</span>
          ) : schedule.pastLifetime && !schedule.final ? (
            <span className="ml-2 text-slate-600">(its lifetime is over: no new payment starts)</span>
          ) : null}
        </dd>
      </dl>
      {schedule.queueUnavailable ? (
        <p role="alert" className="text-sm text-red-700">
          The job queue could not be read just now; reload the page to try again.
        </p>
      ) : schedule.items.length === 0 ? (
        <p className="text-sm text-slate-600" data-testid="schedule-empty">
          Nothing is scheduled for this invoice.
        </p>
      ) : (
        <table className="w-full text-left text-sm" data-testid="schedule-jobs">
          <caption className="sr-only">Scheduled jobs for this invoice</caption>
          <thead className="text-slate-600">
            <tr>
              <th scope="col" className="py-1 pr-4 font-medium">
                What
              </th>
              <th scope="col" className="py-1 pr-4 font-medium">
                When
              </th>
              <th scope="col" className="py-1 font-medium">
                State
              </th>
            </tr>
          </thead>
          <tbody>
            {schedule.items.map((item) => (
              <tr key={item.id} className="border-t border-slate-100">
                <td className="py-1 pr-4">{item.label}</td>
                <td className="py-1 pr-4 tabular-nums">
                  <time dateTime={item.runAt}>{formatMoment(item.runAt, timeZone)}</time>
                </td>
                <td className="py-1">
                  {STATES[item.state] ?? item.state}
                  {item.retries > 0 ? `, ${item.retries} ${item.retries === 1 ? "retry" : "retries"} so far` : ""}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <CheckStatusButton invoiceId={invoiceId} disabledReason={schedule.check.possible ? undefined : schedule.check.reason} />
    </div>
  );
}
