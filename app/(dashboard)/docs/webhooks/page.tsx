import { CONNECTION_HEALTH_CHANGED, HEALTH_RULE_TEXT } from "@/lib/analytics/connection-health";
import type { Metadata } from "next";
import { Link } from "@/components/link";
import { PageHeader } from "@/components/shell/page-header";
import { requirePageViewer } from "@/lib/auth/viewer";
import { renderEventBody, sampleInvoiceSnapshot, sampleRefundSnapshot } from "@/lib/webhooks/body";
import { RETRY_DELAYS_SECONDS, RETRY_EVERY_SECONDS, RETRY_WINDOW_HOURS } from "@/lib/retry-schedules";
import { verifyExampleSource } from "@/lib/webhooks/docs";
import { webhookUrlRules } from "@/lib/http/url-check";
import { WEBHOOK_EVENT_TYPES } from "@/lib/invoices/event-types";
import { SECRET_OVERLAP_HOURS } from "@/lib/webhooks/secrets";
import { DELIVERY_TIMEOUT_MS, USER_AGENT } from "@/lib/webhooks/send";

export const metadata: Metadata = { title: "Webhooks" };

const duration = (seconds: number) => (seconds < 60 ? `${seconds} s` : seconds < 3600 ? `${seconds / 60} min` : `${seconds / 3600} h`);

function Code({ children, label }: { children: string; label: string }) {
  return (
    <pre
      aria-label={label}
      tabIndex={0}
      className="overflow-x-auto rounded-md bg-slate-900 p-4 font-mono text-xs leading-relaxed text-slate-100 focus-visible:outline-2 focus-visible:outline-brand-600"
    >
      {children}
    </pre>
  );
}

/**
 * How merchant webhooks look, are signed and retried, with the verification function.
 * The function is the source text of lib/webhooks/verify-example.ts, the very file the test suite
 * verifies real deliveries with; the payload is rendered by the code that renders deliveries.
 */
export default async function WebhooksDocsPage() {
  await requirePageViewer();
  const at = new Date("2026-01-15T10:30:00.000Z");
  const payload = JSON.stringify(
    JSON.parse(
      renderEventBody({ id: "evt_3kTq9v2ZxQ7bWmYc1aR5sg", type: "invoice.status_changed", sequence: 2, invoice: sampleInvoiceSnapshot("mer_example", at) }),
    ),
    null,
    2,
  );
  const healthPayload = JSON.stringify(
    JSON.parse(
      renderEventBody({
        id: "evt_5hZp8QeR1vXcT4mB2nK6sw",
        type: CONNECTION_HEALTH_CHANGED,
        invoice: null,
        connection: {
          id: "conn_sample_connection",
          provider: "provider-b",
          kind: "h2h",
          label: "Provider B EUR",
          mode: "live",
          enabled: true,
          currency: null,
          health: "failing",
          previousHealth: "degraded",
          healthChangedAt: at.toISOString(),
          recentOutcomes: "SSSSSSSSSFFF",
          lastErrorAt: at.toISOString(),
          lastErrorResolution: "provider_unavailable",
          lastErrorMessage: "The provider did not answer within 10 s.",
        },
      }),
    ),
    null,
    2,
  );
  const alertPayload = JSON.stringify(
    JSON.parse(
      renderEventBody({
        id: "evt_7mWq3TzK9cRb2XvN5pL8ya",
        type: "alert.resolved",
        invoice: null,
        alert: {
          id: "alr_sample_alert",
          rule: "webhook_failures",
          subject: "whe_sample_endpoint",
          mode: null,
          title: "Webhook endpoint https://shop.example/hooks is failing",
          detail: "Its last 5 deliveries failed. Events wait and are retried; check the event log.",
          openedAt: at.toISOString(),
          resolvedAt: new Date(at.getTime() + 20 * 60_000).toISOString(),
          resolvedDetail: "The endpoint took a delivery again (or was disabled or deleted).",
        },
      }),
    ),
    null,
    2,
  );
  const refundPayload = JSON.stringify(
    JSON.parse(
      renderEventBody({
        id: "evt_9aLr2WcQmT5xYbN0pK7vDe",
        type: "refund.succeeded",
        sequence: 5,
        invoice: { ...sampleInvoiceSnapshot("mer_example", at), status: "partially_refunded", refundedAmountMinor: "3000" },
        refund: sampleRefundSnapshot(at),
      }),
    ),
    null,
    2,
  );
  const retries = [...RETRY_DELAYS_SECONDS.map(duration), `then every ${duration(RETRY_EVERY_SECONDS)}`].join(", ");
  return (
    <>
      <PageHeader
        title="Webhooks"
        description={
          <>
            Events about your invoices are sent as signed POSTs to each of your endpoints that takes their type (add them on the{" "}
            <Link href="/webhooks" className="text-brand-700 underline">
              Webhooks
            </Link>{" "}
            page).
          </>
        }
      />
      <div className="max-w-4xl space-y-6 text-sm text-slate-800">
        <section className="card space-y-3" aria-labelledby="docs-urls">
          <h2 id="docs-urls" className="text-base font-semibold">
            Which endpoint URLs are accepted
          </h2>
          <p data-testid="webhook-url-rules" className="wrap-anywhere">
            {webhookUrlRules()}
          </p>
          {/* Long setting names break anywhere, so the table fits a 390 px phone. */}
          <table className="w-full text-left text-sm wrap-anywhere">
            <caption className="sr-only">Endpoint URLs each environment accepts</caption>
            <thead className="text-slate-600">
              <tr>
                <th scope="col" className="py-1 pr-4 font-medium">
                  Where the server runs
                </th>
                <th scope="col" className="py-1 font-medium">
                  Accepted
                </th>
              </tr>
            </thead>
            <tbody>
              <tr className="border-t border-slate-100">
                <td className="py-1 pr-4 align-top">
                  Production (<code className="font-mono">NODE_ENV=production</code>)
                </td>
                <td className="py-1">
                  https:// on the public internet. With <code className="font-mono">WEBHOOKS_ALLOW_PRIVATE_URLS=1</code> also private and loopback addresses,
                  and http:// to a loopback address written as such (127.0.0.1, [::1]).
                </td>
              </tr>
              <tr className="border-t border-slate-100">
                <td className="py-1 pr-4 align-top">Anywhere else (a developer&apos;s machine, tests)</td>
                <td className="py-1">
                  http:// and https://, private and loopback addresses included (http://localhost:4000/webhooks). With{" "}
                  <code className="font-mono">WEBHOOKS_ALLOW_PRIVATE_URLS=0</code> only addresses on the public internet.
                </td>
              </tr>
            </tbody>
          </table>
          <p>The URL is checked when you save it and again before each delivery, against the address its name resolves to then.</p>
        </section>

        <section className="card space-y-3" aria-labelledby="docs-endpoints">
          <h2 id="docs-endpoints" className="text-base font-semibold">
            Endpoints and event types
          </h2>
          <p>
            You may have several endpoints, each with its own URL, signing secret and event types (or all events, including types added later), and each enabled
            or not. An event goes to every enabled endpoint that takes its type when it happens; an endpoint added later is not sent the events made before it.
            Each endpoint&apos;s delivery has its own retries, so one that fails never holds another back. The types:{" "}
            {WEBHOOK_EVENT_TYPES.map((type, i) => (
              <span key={type}>
                {i > 0 ? ", " : ""}
                <code className="font-mono">{type}</code>
              </span>
            ))}
            ; <code className="font-mono">webhook.test</code> is sent only by &quot;Send test event&quot;, to the endpoint you chose.
          </p>
        </section>

        <section className="card space-y-3" aria-labelledby="docs-payload">
          <h2 id="docs-payload" className="text-base font-semibold">
            Payload
          </h2>
          <p>
            The body is the invoice resource exactly as <code className="font-mono">GET /api/commerce/payment-invoices/&#123;id&#125;</code> (or{" "}
            <code className="font-mono">payout-invoices</code>) answers it, as it was at the change, plus <code className="font-mono">meta.event_id</code> and{" "}
            <code className="font-mono">meta.event_type</code> (<code className="font-mono">invoice.status_changed</code>; the test event is{" "}
            <code className="font-mono">webhook.test</code> with <code className="font-mono">meta.sample: true</code>), and{" "}
            <code className="font-mono">meta.sequence</code>: the event&apos;s number among the events of its invoice (1, 2, 3 …, without gaps, across all
            types; see Ordering). New fields may appear at any time: ignore the ones you do not know.
          </p>
          <Code label="Example payload">{payload}</Code>
        </section>

        <section className="card space-y-3" aria-labelledby="docs-refunds">
          <h2 id="docs-refunds" className="text-base font-semibold">
            Refund and cancel events
          </h2>
          <p>
            A refund sends <code className="font-mono">refund.created</code> when it is asked for, then <code className="font-mono">refund.succeeded</code> or{" "}
            <code className="font-mono">refund.failed</code> when the provider settles it (at once, or later for a refund it answers pending). The body is the
            refund resource as <code className="font-mono">GET /api/commerce/refunds/&#123;id&#125;</code> answers it, with its payment invoice in{" "}
            <code className="font-mono">included</code>, both as they were at the event. The invoice&apos;s own moves (refunding, partially_refunded, refunded)
            arrive as <code className="font-mono">invoice.status_changed</code> as well. A payout you cancel sends{" "}
            <code className="font-mono">payout.canceled</code> with the payout invoice as <code className="font-mono">data</code> (status{" "}
            <code className="font-mono">canceled</code>, or <code className="font-mono">partially_canceled</code> with what was paid in{" "}
            <code className="font-mono">processed_amount</code>).
          </p>
          <Code label="Example refund payload">{refundPayload}</Code>
        </section>

        <section className="card space-y-3" aria-labelledby="docs-health">
          <h2 id="docs-health" className="text-base font-semibold">
            Connection health events
          </h2>
          <p>
            When a connection&apos;s health changes (healthy, degraded, failing) you get <code className="font-mono">{CONNECTION_HEALTH_CHANGED}</code> with the
            connection as <code className="font-mono">data</code> (type <code className="font-mono">connection</code>, never its credentials),{" "}
            <code className="font-mono">health</code>, <code className="font-mono">previous_health</code> and the latest error. {HEALTH_RULE_TEXT}
          </p>
          <Code label="Example connection health payload">{healthPayload}</Code>
        </section>

        <section className="card space-y-3" aria-labelledby="docs-alerts">
          <h2 id="docs-alerts" className="text-base font-semibold">
            Alert events
          </h2>
          <p>
            When one of your{" "}
            <Link href="/alerts" className="text-brand-700 underline">
              alert rules
            </Link>{" "}
            fires you get <code className="font-mono">alert.triggered</code>, and <code className="font-mono">alert.resolved</code> once its condition clears:
            each once per alert, with the alert as <code className="font-mono">data</code> (type <code className="font-mono">alert</code>: its rule, subject,
            title and detail, <code className="font-mono">state</code> open or resolved, and when and why it resolved). Alerts are about no invoice, so they
            carry no <code className="font-mono">meta.sequence</code>.
          </p>
          <Code label="Example alert payload">{alertPayload}</Code>
        </section>

        <section className="card space-y-3" aria-labelledby="docs-headers">
          <h2 id="docs-headers" className="text-base font-semibold">
            Headers
          </h2>
          <dl className="grid grid-cols-[10rem_1fr] gap-y-2">
            <dt className="font-mono">Content-Type</dt>
            <dd className="font-mono">application/json</dd>
            <dt className="font-mono">X-Signature</dt>
            <dd>
              <code className="font-mono">t=&lt;unix seconds&gt;,v1=&lt;hex&gt;</code>: HMAC-SHA256 with the endpoint&apos;s signing secret over{" "}
              <code className="font-mono">&#123;t&#125;.&#123;raw body&#125;</code>. After a roll there are two <code className="font-mono">v1</code> values.
            </dd>
            <dt className="font-mono">X-Event-Id</dt>
            <dd>
              The event id (<code className="font-mono">evt_…</code>), the same as <code className="font-mono">meta.event_id</code>.
            </dd>
            <dt className="font-mono">User-Agent</dt>
            <dd className="font-mono">{USER_AGENT}</dd>
          </dl>
        </section>

        <section className="card space-y-3" aria-labelledby="docs-verify">
          <h2 id="docs-verify" className="text-base font-semibold">
            Verifying a delivery
          </h2>
          <p>
            Verify the raw body as received, before parsing it: reformatted JSON does not verify. Reject deliveries whose timestamp is more than 5 minutes away
            from your clock. This function (TypeScript, Node&apos;s <code className="font-mono">node:crypto</code> only) is the one our own tests verify real
            deliveries with:
          </p>
          <Code label="verifyWebhook in TypeScript">{verifyExampleSource()}</Code>
          <p>
            For example: <code className="font-mono">verifyWebhook(rawBody, request.headers[&quot;x-signature&quot;], process.env.WEBHOOK_SECRET)</code>; answer
            2xx only after you have stored the event.
          </p>
        </section>

        <section className="card space-y-3" aria-labelledby="docs-delivery">
          <h2 id="docs-delivery" className="text-base font-semibold">
            Delivery and retries
          </h2>
          <ul className="list-disc space-y-1 pl-5">
            <li>Any 2xx answer within {DELIVERY_TIMEOUT_MS / 1000} s is success. Redirects are not followed.</li>
            <li>
              Anything else is retried after {retries}, for up to {RETRY_WINDOW_HOURS} hours after the change; then that endpoint&apos;s delivery is marked
              failed. Each endpoint has its own retries. A disabled endpoint is sent nothing, and its deliveries still waiting fail.
            </li>
            <li>
              Events may arrive twice (retries, Resend): dedupe by <code className="font-mono">meta.event_id</code>.
            </li>
            <li>
              Each try (time, status code, duration, first 1 KiB of your answer) is in the event log on the{" "}
              <Link href="/webhooks" className="text-brand-700 underline">
                Webhooks
              </Link>{" "}
              page and on the invoice page, where an owner can Resend an event to an endpoint.
            </li>
            <li>The endpoint URL must use https and a public address; it is checked when saved and again before each delivery.</li>
          </ul>
        </section>

        <section className="card space-y-3" aria-labelledby="docs-ordering">
          <h2 id="docs-ordering" className="text-base font-semibold">
            Ordering
          </h2>
          <p data-testid="docs-ordering-promise">
            Every event about an invoice carries <code className="font-mono">meta.sequence</code>, numbered in the order the changes happened (1, 2, 3 …). Each
            endpoint gets one invoice&apos;s events in that order: an event is not sent to an endpoint until the one before it (of the same invoice, to the same
            endpoint) was delivered or given up after 24 hours of retries. So while one event is being retried, the later events of its invoice wait for it;
            other invoices, and your other endpoints, do not wait.
          </p>
          <p>
            What is not ordered: events of different invoices (and <code className="font-mono">connection.health_changed</code>, which is about no invoice)
            arrive in any order; a <strong>Resend</strong> or a <strong>Send test event</strong> goes at once, whatever is waiting; and an event may arrive
            twice. So still remember, per invoice, the sequence of the last event you applied and <strong>ignore an event whose sequence is not higher</strong>.
            A gap (you applied 2 and receive 4) means event 3 was given up or goes to an endpoint that does not take its type; the newer event&apos;s body holds
            the whole invoice as it is now, so applying it is safe.
          </p>
        </section>

        <section className="card space-y-3" aria-labelledby="docs-rotation">
          <h2 id="docs-rotation" className="text-base font-semibold">
            Rolling the secret
          </h2>
          <p>
            Each endpoint has its own secret (<code className="font-mono">whsec_…</code>), shown once, when the endpoint is added or the secret rolled.
            &quot;Roll secret&quot; on the Webhooks page makes a new one for that endpoint; the old one keeps signing for {SECRET_OVERLAP_HOURS} hours, so each
            delivery carries one <code className="font-mono">v1</code> per secret and a receiver that knows either verifies it. Switch your receiver to the new
            secret within that time.
          </p>
        </section>
      </div>
    </>
  );
}
