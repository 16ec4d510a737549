import type { WebhookAnswer } from "@/lib/webhooks/views";

/** A receiver's answer to one try: status, time and the first 1 KiB it answered (or why none came). */
export function WebhookAnswerView({ answer, label }: { answer: WebhookAnswer; label: string }) {
  return (
    <div
      data-testid="webhook-answer"
      className={`rounded-md border p-3 text-sm ${answer.succeeded ? "border-emerald-300 bg-emerald-50" : "border-red-200 bg-red-50"}`}
    >
      <p className="font-medium">
        {label}: {answer.succeeded ? "delivered" : "not delivered"}
        {answer.statusCode !== null ? ` — HTTP ${answer.statusCode}` : ""} in {answer.durationMs} ms
      </p>
      <p className="mt-1 text-xs text-slate-600">
        Event <span className="font-mono">{answer.eventId}</span> to endpoint <span className="font-mono">{answer.endpointId}</span>
      </p>
      {answer.error ? <p className="mt-1 text-red-800">{answer.error}</p> : null}
      {answer.excerpt ? (
        <pre
          className="mt-2 max-h-40 overflow-auto rounded bg-white p-2 font-mono text-xs break-all whitespace-pre-wrap"
          aria-label="Answer body (first 1 KiB)"
        >
          {answer.excerpt}
        </pre>
      ) : null}
    </div>
  );
}
