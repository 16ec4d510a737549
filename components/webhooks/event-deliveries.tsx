import { formatDateTime } from "@/lib/format";
import { TARGET_STATE_LABELS, type WebhookEventView, type WebhookTryView } from "@/lib/webhooks/views";
import { ResendButton } from "./resend-button";

const TRIGGER_LABELS: Readonly<Record<WebhookTryView["trigger"], string>> = { automatic: "automatic", resend: "resend", test: "test" };

/** Tries as a table: time, trigger, HTTP status, duration, the error or the first 1 KiB of the answer. */
function TriesTable({ tries, label, timeZone }: { tries: WebhookTryView[]; label: string; timeZone: string }) {
  if (tries.length === 0) return <p className="mt-2 text-sm text-slate-600">No tries yet.</p>;
  return (
    // Below md: time, status and answer (trigger and duration from md up), scrolling inside if ever wider.
    <div className="mt-2 overflow-x-auto">
      <table className="w-full text-left text-sm" aria-label={label}>
        <thead className="text-xs text-slate-600">
          <tr>
            <th scope="col" className="py-1 pr-3 font-medium">
              Time
            </th>
            <th scope="col" className="hidden py-1 pr-3 font-medium md:table-cell">
              Trigger
            </th>
            <th scope="col" className="py-1 pr-3 font-medium">
              Status
            </th>
            <th scope="col" className="hidden py-1 pr-3 font-medium md:table-cell">
              Duration
            </th>
            <th scope="col" className="py-1 font-medium">
              Answer (first 1 KiB)
            </th>
          </tr>
        </thead>
        <tbody>
          {tries.map((entry) => (
            <tr key={entry.id} className="border-t border-slate-100 align-top">
              <td className="py-1 pr-3 whitespace-nowrap">{formatDateTime(entry.at, timeZone)}</td>
              <td className="hidden py-1 pr-3 md:table-cell">{TRIGGER_LABELS[entry.trigger]}</td>
              <td className={`py-1 pr-3 tabular-nums ${entry.succeeded ? "text-emerald-700" : "text-red-700"}`}>{entry.statusCode ?? "no answer"}</td>
              <td className="hidden py-1 pr-3 tabular-nums whitespace-nowrap md:table-cell">{entry.durationMs} ms</td>
              <td className="py-1">
                {entry.error ? <p className="text-red-800 break-words">{entry.error}</p> : null}
                {entry.responseExcerpt ? (
                  <pre className="max-h-32 overflow-auto bg-slate-50 p-1 font-mono text-xs break-all whitespace-pre-wrap">{entry.responseExcerpt}</pre>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * An event's deliveries, one block per endpoint it went to: state, tries, next try, every try,
 * and (owners) Resend to that endpoint. Tries to endpoints deleted since are listed last.
 */
export function EventDeliveries({ event, canResend, timeZone }: { event: WebhookEventView; canResend: boolean; timeZone: string }) {
  const known = new Set(event.targets.map((target) => target.endpointId));
  const orphans = event.deliveries.filter((entry) => !entry.endpointId || !known.has(entry.endpointId));
  if (event.targets.length === 0 && orphans.length === 0) {
    return <p className="text-sm text-slate-600">Not sent: no enabled endpoint took events of this type when it happened.</p>;
  }
  return (
    <div className="space-y-4">
      {event.targets.map((target) => {
        const name = target.description || target.url;
        return (
          <section key={target.endpointId} className="rounded-md border border-slate-200 p-3" aria-label={`Delivery to ${name}`} data-testid="event-delivery">
            <div className="flex flex-wrap items-start justify-between gap-3">
              <div className="min-w-0 text-sm">
                <p className="font-mono break-all">{target.url}</p>
                {target.description ? <p className="text-slate-700">{target.description}</p> : null}
                <p className="mt-1">
                  <span data-testid="delivery-state">{TARGET_STATE_LABELS[target.state]}</span>
                  {` — ${target.tries} automatic ${target.tries === 1 ? "try" : "tries"}`}
                  {target.nextTryAt ? `, next ${formatDateTime(target.nextTryAt, timeZone)}` : ""}
                </p>
              </div>
              {canResend ? <ResendButton eventId={event.id} endpointId={target.endpointId} endpointName={name} /> : null}
            </div>
            <TriesTable
              tries={event.deliveries.filter((entry) => entry.endpointId === target.endpointId)}
              label={`Tries of event ${event.id} to ${name}`}
              timeZone={timeZone}
            />
          </section>
        );
      })}
      {orphans.length > 0 ? (
        <section className="rounded-md border border-slate-200 p-3" aria-label="Tries to deleted endpoints">
          <p className="text-sm font-medium">Tries to endpoints deleted since</p>
          <TriesTable tries={orphans} label={`Tries of event ${event.id} to deleted endpoints`} timeZone={timeZone} />
        </section>
      ) : null}
    </div>
  );
}
