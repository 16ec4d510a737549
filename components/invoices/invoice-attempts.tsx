import { ModeBadge } from "@/components/connections/badges";
import type { DashboardAttempt, DashboardExchange, DashboardSandboxRecord } from "@/lib/invoices/read/invoice-attempts";
import { formatMoment } from "./invoice-client";
import { formatMoney } from "@/lib/money";

/**
 * The invoice's attempts as a timeline: which connection each try went to and why,
 * what the provider answered, and the request/answer log as stored (already redacted).
 */
const STATUS_LABELS: Readonly<Record<DashboardAttempt["status"], string>> = {
  in_flight: "In flight",
  succeeded: "Succeeded",
  pending: "Pending (waiting for the customer or the provider)",
  declined: "Declined",
  soft_failed: "Failed, may go elsewhere",
  unknown: "Outcome unknown",
};

const pretty = (value: unknown) => (typeof value === "string" ? value : JSON.stringify(value, null, 2));

function ExchangeLog({ exchanges }: { exchanges: DashboardExchange[] }) {
  if (exchanges.length === 0) return <p className="text-sm text-slate-600">No request reached the provider.</p>;
  return (
    <ol className="space-y-3">
      {exchanges.map((exchange, index) => (
        <li key={index} className="rounded border border-slate-200 p-2 text-xs">
          <p className="font-mono break-all">
            {exchange.method} {exchange.url} → {exchange.status ?? exchange.error ?? "no answer"} ({exchange.durationMs} ms)
          </p>
          <p className="mt-1 font-semibold">Request</p>
          <pre className="overflow-x-auto whitespace-pre-wrap break-all bg-slate-50 p-2">
            {pretty({ headers: exchange.requestHeaders, body: exchange.requestBody })}
          </pre>
          <p className="mt-1 font-semibold">Answer</p>
          <pre className="overflow-x-auto whitespace-pre-wrap break-all bg-slate-50 p-2">{pretty(exchange.responseBody)}</pre>
        </li>
      ))}
    </ol>
  );
}

/** The sandbox's own record of the request: what the simulated provider saw, masked. */
function SandboxReceived({ record, providerName }: { record: DashboardSandboxRecord; providerName: string }) {
  return (
    <details className="mt-2" data-testid="sandbox-record">
      <summary className="cursor-pointer text-sm">What the {providerName} sandbox received</summary>
      <dl className="mt-2 grid grid-cols-[9rem_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="text-slate-600">Operation</dt>
        <dd>{record.operation}</dd>
        <dt className="text-slate-600">Sandbox status</dt>
        <dd>{record.status}</dd>
        <dt className="text-slate-600">Amount</dt>
        <dd className="tabular-nums">{record.amount === null ? "—" : record.currency ? formatMoney(record.amount, record.currency) : record.amount}</dd>
        <dt className="text-slate-600">Sandbox reference</dt>
        <dd className="font-mono text-xs break-all">{record.reference}</dd>
      </dl>
      <p className="mt-1 text-sm font-semibold">Recorded request</p>
      <pre className="overflow-x-auto whitespace-pre-wrap break-all bg-slate-50 p-2 text-xs">{pretty(record.request)}</pre>
    </details>
  );
}

function Attempt({ attempt, zone }: { attempt: DashboardAttempt; zone: string }) {
  return (
    <li className="rounded-md border border-slate-200 p-3" data-testid="invoice-attempt">
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <span className="font-semibold">Attempt {attempt.seq}</span>
        <span>{attempt.connection ? attempt.connection.label : "Unknown connection"}</span>
        {attempt.connection ? <span className="text-slate-600">{attempt.connection.providerName}</span> : null}
        {attempt.connection ? <ModeBadge mode={attempt.connection.mode} /> : null}
        <span className="badge">{attempt.reasonText}</span>
      </div>
      <dl className="mt-2 grid grid-cols-[9rem_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="text-slate-600">Status</dt>
        <dd>{STATUS_LABELS[attempt.status]}</dd>
        <dt className="text-slate-600">Resolution</dt>
        <dd>{attempt.resolution ?? "—"}</dd>
        <dt className="text-slate-600">Provider reference</dt>
        <dd className="font-mono text-xs break-all">{attempt.providerReference ?? "—"}</dd>
        <dt className="text-slate-600">Processed amount</dt>
        <dd className="tabular-nums">{attempt.processedAmount ?? "—"}</dd>
        <dt className="text-slate-600">Started</dt>
        <dd>{formatMoment(attempt.startedAt, zone)}</dd>
        <dt className="text-slate-600">Finished</dt>
        <dd>{attempt.finishedAt ? `${formatMoment(attempt.finishedAt, zone)} (${attempt.durationMs} ms)` : "—"}</dd>
        {attempt.message ? (
          <>
            <dt className="text-slate-600">Provider said</dt>
            <dd>{attempt.message}</dd>
          </>
        ) : null}
      </dl>
      {attempt.parts.length > 0 ? (
        <table className="mt-2 w-full text-sm" aria-label={`Payout parts of attempt ${attempt.seq}`}>
          <thead>
            <tr className="text-left text-slate-600">
              <th className="font-normal">Part</th>
              <th className="font-normal">Amount</th>
              <th className="font-normal">Status</th>
              <th className="font-normal">Provider reference</th>
            </tr>
          </thead>
          <tbody>
            {attempt.parts.map((part) => (
              <tr key={part.id}>
                <td className="font-mono text-xs">{part.id}</td>
                <td className="tabular-nums">{part.amount}</td>
                <td>{part.status}</td>
                <td className="font-mono text-xs">{part.providerReference ?? "—"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      <details className="mt-2">
        <summary className="cursor-pointer text-sm">Provider log ({attempt.exchanges.length})</summary>
        <div className="mt-2">
          <ExchangeLog exchanges={attempt.exchanges} />
        </div>
      </details>
      {attempt.sandboxRecord ? <SandboxReceived record={attempt.sandboxRecord} providerName={attempt.connection?.providerName ?? "provider"} /> : null}
    </li>
  );
}

export function InvoiceAttempts({ attempts, timeZone }: { attempts: DashboardAttempt[]; timeZone: string }) {
  if (attempts.length === 0) return <p className="text-sm text-slate-600">No attempts yet: the invoice has not been sent to a provider.</p>;
  return (
    <ol className="space-y-3" aria-label="Attempts">
      {attempts.map((attempt) => (
        <Attempt key={attempt.id} attempt={attempt} zone={timeZone} />
      ))}
    </ol>
  );
}
