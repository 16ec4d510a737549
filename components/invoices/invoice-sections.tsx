import { Link } from "@/components/link";
import type { ReactNode } from "react";
import { ModeBadge } from "@/components/connections/badges";
import { CopyButton } from "@/components/copy-button";
import { LongValue } from "@/components/long-value";
import type { FieldSource } from "@/lib/customers";
import type { DashboardCustomerField, DashboardInvoice } from "@/lib/invoices/read/invoice-view";
import { ROUTING_REASON_HELP } from "@/lib/routing/reason";
import { formatMoment } from "./invoice-client";
import { formatMoney } from "@/lib/money";

/** One card of the detail page, titled with an h2 the card is labelled by. */
export function InvoiceSection({ id, title, children, testId }: { id: string; title: string; children: ReactNode; testId?: string }) {
  return (
    <section className="card" aria-labelledby={id} data-testid={testId}>
      <h2 id={id} className="mb-3 text-base font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}

function Row({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="contents">
      <dt className="text-slate-600">{term}</dt>
      <dd className="min-w-0 break-words">{children}</dd>
    </div>
  );
}

const dl = "grid grid-cols-[8rem_1fr] gap-x-4 gap-y-2 text-sm";

export function InvoiceFacts({ invoice, hostedPageUrl, timeZone }: { invoice: DashboardInvoice; hostedPageUrl: string | null; timeZone: string }) {
  return (
    <dl className={dl} data-testid="invoice-facts">
      <Row term="Invoice id">
        <LongValue value={invoice.id} copyLabel="Copy invoice id" testId="invoice-id" />
      </Row>
      <Row term="Type">{invoice.direction === "payment" ? "Payment" : "Payout"}</Row>
      <Row term="Reference">
        <LongValue value={invoice.referenceId} copyLabel="Copy reference" testId="invoice-reference" />
      </Row>
      {invoice.description ? (
        <Row term="Description">
          <span data-testid="invoice-description">{invoice.description}</span>
        </Row>
      ) : null}
      <Row term="Amount">
        <span className="tabular-nums" data-testid="invoice-amount">
          {formatMoney(invoice.amount, invoice.currency)}
        </span>
      </Row>
      {invoice.processedAmount !== null ? (
        <Row term="Processed">
          <span className="tabular-nums" data-testid="processed-amount">
            {formatMoney(invoice.processedAmount, invoice.currency)}
          </span>
        </Row>
      ) : null}
      <Row term="Attempts">{invoice.attemptsCount}</Row>
      <Row term="Service">
        <span className="font-mono text-xs">{invoice.service}</span>
      </Row>
      <Row term="Mode">
        <ModeBadge mode={invoice.testMode ? "test" : "live"} />
      </Row>
      {invoice.cardNumberMasked ? (
        <Row term="Card">
          <span className="font-mono text-xs">{invoice.cardNumberMasked}</span>
        </Row>
      ) : null}
      <Row term="Created">{formatMoment(invoice.createdAt, timeZone)}</Row>
      {invoice.requestId ? (
        <Row term="Request id">
          <LongValue value={invoice.requestId} copyLabel="Copy request id" />
        </Row>
      ) : null}
      {invoice.returnUrl ? (
        <Row term="Return URL">
          <span className="font-mono text-xs break-all">{invoice.returnUrl}</span>
        </Row>
      ) : null}
      <Row term="Hosted page">
        {hostedPageUrl ? (
          <>
            <span className="flex items-start gap-1">
              <a href={hostedPageUrl} className="min-w-0 font-mono text-xs break-all text-brand-700 underline" data-testid="hosted-page-link">
                {hostedPageUrl}
              </a>
              <CopyButton value={hostedPageUrl} label="Copy hosted page link" className="-mt-1" />
            </span>
            <span className="help block">Where the customer pays (hpp_url).</span>
          </>
        ) : (
          <span className="text-slate-600">None: {invoice.service} has no hosted payment page</span>
        )}
      </Row>
    </dl>
  );
}

export function RoutedConnection({ invoice, linkToConnection }: { invoice: DashboardInvoice; linkToConnection: boolean }) {
  const connection = invoice.connection;
  if (!connection) return <p className="text-sm text-slate-600">Not routed to a connection.</p>;
  const label =
    linkToConnection && !connection.deleted ? (
      <Link href={`/connections/${connection.id}`} className="font-medium text-brand-700 underline">
        {connection.label}
      </Link>
    ) : (
      <span className="font-medium">{connection.label}</span>
    );
  return (
    <dl className={dl} data-testid="invoice-connection">
      <Row term="Label">
        {label}
        {connection.deleted ? <span className="badge ml-2 bg-slate-200 text-slate-700">Deleted</span> : null}
      </Row>
      <Row term="Provider">{connection.providerName}</Row>
      <Row term="Kind">{connection.kindLabel}</Row>
      <Row term="Mode">
        <ModeBadge mode={connection.mode} />
      </Row>
      <Row term="Routed because">
        {invoice.routingReason ? (
          <span data-testid="invoice-routing-reason">
            <span className="font-medium">
              {invoice.routingReasonText}
              {invoice.routing?.branch ? ` (split branch ${invoice.routing.branch.position}, ${invoice.routing.branch.weight}%)` : ""}
            </span>
            <span className="help block" data-testid="invoice-routing-explanation">
              {invoice.routing?.explanation ?? ROUTING_REASON_HELP[invoice.routingReason]}
            </span>
          </span>
        ) : (
          <span className="text-slate-600">Not recorded</span>
        )}
      </Row>
    </dl>
  );
}

export function RequestAsSent({ invoice }: { invoice: DashboardInvoice }) {
  return (
    <>
      <p className="mb-2 text-xs text-slate-600">
        As stored from the request: a card number only masked, <code>commerce_account</code> left out (it is always yours), and the customer under{" "}
        <code>attributes</code> whichever of its three places it was sent in.
      </p>
      <pre
        tabIndex={0}
        aria-label="Request as sent, JSON"
        className="max-h-96 overflow-auto rounded-md bg-slate-900 p-3 font-mono text-xs text-slate-100"
        data-testid="invoice-request"
      >
        {JSON.stringify(invoice.request, null, 2)}
      </pre>
    </>
  );
}

const SOURCE_STYLE: Readonly<Record<FieldSource, string>> = {
  request: "bg-sky-100 text-sky-900",
  constant: "bg-brand-100 text-brand-700",
  default: "bg-amber-100 text-amber-900",
};

const valueText = (value: unknown) => (typeof value === "string" ? value : JSON.stringify(value));

/** A provider's built-in value is never the customer's: it says so wherever it shows. */
const SOURCE_LABEL: Readonly<Record<FieldSource, string>> = { request: "request", constant: "constant", default: "provider default" };

const PAYER_FIELDS = [
  { path: "customer.name", term: "Name" },
  { path: "customer.email", term: "E-mail" },
  { path: "customer.phone", term: "Phone" },
  { path: "customer.address.country", term: "Country" },
] as const;

/**
 * The payment's card (brand, last four, issuing country, 3-D Secure and its liability shift) and
 * the customer as given in the invoice: a value the provider's defaults filled in is marked so,
 * never shown as the customer's.
 */
export function PayerAndCard({ invoice }: { invoice: DashboardInvoice }) {
  const card = invoice.payingCard;
  const given = (path: string) => invoice.customer.find((field) => field.path === path);
  return (
    <dl className={dl} data-testid="invoice-payer">
      {card ? (
        <>
          <Row term="Card">
            <span data-testid="payer-card">
              {card.brand ?? "Unknown brand"} <span className="font-mono">•••• {card.lastFour}</span>
            </span>
          </Row>
          <Row term="Issuing country">
            <span data-testid="payer-card-country">{card.country ? `${card.country.name} (${card.country.code})` : "Not known"}</span>
          </Row>
          <Row term="3-D Secure">
            <span data-testid="payer-three-ds">{card.threeDs.label}</span>
          </Row>
          <Row term="Liability shift">
            <span data-testid="payer-liability-shift">{card.threeDs.liabilityLabel}</span>
          </Row>
        </>
      ) : (
        <Row term="Card">
          <span className="text-slate-600">Not paid by card yet</span>
        </Row>
      )}
      <Row term="Customer">
        {invoice.customerReference ? (
          <Link
            href={`/customers/${encodeURIComponent(invoice.customerReference)}`}
            className="font-mono text-xs text-brand-700 underline wrap-anywhere"
            data-testid="payer-customer-reference"
          >
            {invoice.customerReference}
          </Link>
        ) : (
          <span className="text-slate-600">No customer reference</span>
        )}
      </Row>
      {PAYER_FIELDS.map(({ path, term }) => {
        const field = given(path);
        return (
          <Row key={path} term={term}>
            {field ? (
              <span data-testid={`payer-${path}`}>
                <span className="wrap-anywhere">{valueText(field.value)}</span>
                {field.source === "default" ? (
                  <>
                    {" "}
                    <span className={`badge ml-2 ${SOURCE_STYLE.default}`}>provider default, not given</span>
                  </>
                ) : null}
              </span>
            ) : (
              <span className="text-slate-600">Not given</span>
            )}
          </Row>
        );
      })}
    </dl>
  );
}

export function CustomerAsResolved({ fields }: { fields: readonly DashboardCustomerField[] }) {
  if (fields.length === 0) {
    return <p className="text-sm text-slate-600">The provider receives no customer details for this invoice.</p>;
  }
  const recorded = fields.some((field) => field.source !== null);
  return (
    <>
      <p className="mb-2 text-xs text-slate-600">
        What the provider receives. Source: <strong>request</strong> sent in the invoice, <strong>constant</strong> from the connection&apos;s constants,{" "}
        <strong>provider default</strong> the provider&apos;s built-in value (not the customer&apos;s), as recorded when the invoice was created.
        {recorded ? null : " This invoice was created before sources were recorded, so none is shown."}
      </p>
      <div className="overflow-x-auto">
        <table className="w-full text-left text-sm" data-testid="invoice-customer">
          <caption className="sr-only">Customer fields as resolved, with where each value comes from</caption>
          <thead className="text-xs text-slate-600">
            <tr>
              <th scope="col" className="py-1 pr-4 font-medium">
                Path
              </th>
              <th scope="col" className="py-1 pr-4 font-medium">
                Value
              </th>
              <th scope="col" className="py-1 font-medium">
                Source
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {fields.map((field) => (
              <tr key={field.path} data-testid={`customer-${field.path}`}>
                <th scope="row" className="py-1.5 pr-4 align-top font-mono text-xs font-normal wrap-anywhere text-slate-800">
                  {field.path}
                </th>
                <td className="py-1.5 pr-4 align-top wrap-anywhere">{valueText(field.value)}</td>
                <td className="py-1.5 align-top">
                  {field.source ? <span className={`badge ${SOURCE_STYLE[field.source]}`}>{SOURCE_LABEL[field.source]}</span> : null}
                  {field.constant ? <span className="ml-2 font-mono text-xs text-slate-600">{field.constant}</span> : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
