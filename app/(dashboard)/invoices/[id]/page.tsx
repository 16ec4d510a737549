import type { Metadata } from "next";
import { Link } from "@/components/link";
import { notFound } from "next/navigation";
import { InvoiceStatusPanel } from "@/components/invoices/invoice-status-panel";
import { CustomerAsResolved, InvoiceFacts, PayerAndCard, InvoiceSection, RequestAsSent, RoutedConnection } from "@/components/invoices/invoice-sections";
import { InvoiceAttempts } from "@/components/invoices/invoice-attempts";
import { InvoiceTimeline } from "@/components/invoices/invoice-timeline";
import { BlockCardButton } from "@/components/risk/block-card-button";
import { readInvoiceRisk } from "@/lib/risk/invoice-panel";
import { InvoiceCallbacks } from "@/components/invoices/invoice-callbacks";
import { InvoiceScheduleView } from "@/components/invoices/invoice-schedule";
import { InvoiceWebhooks } from "@/components/invoices/invoice-webhooks";
import { ProcessPayoutButton } from "@/components/invoices/process-payout-button";
import { InvoiceRefunds } from "@/components/invoices/invoice-refunds";
import { CancelPayoutButton } from "@/components/invoices/cancel-payout-button";
import { InvoiceAuthorization } from "@/components/invoices/invoice-authorization";
import { readAuthorizationPanel } from "@/lib/processing/authorization-panel";
import { getInvoice } from "@/lib/invoices/read/get-invoice";
import { readRefundPanel } from "@/lib/refunds/read";
import { readDisputeSteps } from "@/lib/disputes/timeline";
import { listDisputes } from "@/lib/disputes/list";
import { DISPUTE_STATUS_LABELS } from "@/lib/disputes/contract";
import { formatMoney } from "@/lib/money";
import { formatDateTime } from "@/lib/format";
import { PageHeader } from "@/components/shell/page-header";
import { requirePageViewer } from "@/lib/auth/viewer";
import { timeZoneInForce } from "@/lib/time-zones";
import { listInvoiceCallbacks } from "@/lib/callbacks/read";
import { publicBaseUrl } from "@/lib/config";
import { getDb } from "@/lib/db/client";
import { getDashboardInvoice } from "@/lib/invoices/read/dashboard-invoices";
import { listDashboardAttempts } from "@/lib/invoices/read/invoice-attempts";
import { readInvoiceSchedule } from "@/lib/processing/invoice-page-schedule";
import { listInvoiceEvents } from "@/lib/webhooks/read";
import { QueryProvider } from "@/components/providers/query-provider";
import { can, canInMode } from "@/lib/identity/permissions";

type Params = { params: Promise<{ id: string }> };

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  return { title: `Invoice ${(await params).id}` };
}

export default async function InvoicePage({ params }: Params) {
  const viewer = await requirePageViewer();
  const timeZone = timeZoneInForce(viewer);
  const { id } = await params;
  const db = await getDb();
  const invoice = await getDashboardInvoice(db, viewer.merchant.id, id);
  if (!invoice) notFound();
  const attempts = await listDashboardAttempts(db, viewer.merchant.id, invoice);
  const [schedule, callbacks, events] = await Promise.all([
    readInvoiceSchedule(db, viewer.merchant.id, invoice.id),
    listInvoiceCallbacks(db, viewer.merchant.id, invoice.id),
    listInvoiceEvents(db, viewer.merchant.id, invoice.id),
  ]);
  const paymentRow = invoice.direction === "payment" ? await getInvoice(db, viewer.merchant.id, "payment", invoice.id) : undefined;
  const refunds = paymentRow ? await readRefundPanel(db, paymentRow, viewer.user.role) : null;
  const disputeSteps = paymentRow ? await readDisputeSteps(db, viewer.merchant.id, paymentRow.id) : [];
  const disputes = paymentRow ? (await listDisputes(db, viewer.merchant.id, { invoiceId: paymentRow.id, pageSize: 20 })).disputes : [];
  const authorization = paymentRow ? readAuthorizationPanel(paymentRow, viewer.user.role) : null;
  const mode = invoice.testMode ? "test" : "live";
  const risk = paymentRow ? await readInvoiceRisk(db, viewer.merchant.id, mode, paymentRow.id) : null;
  const canProcessPayout = invoice.direction === "payout" && invoice.status === "created" && canInMode(viewer.user.role, "payout.process", mode);
  const canCancelPayout =
    invoice.direction === "payout" &&
    (invoice.status === "created" || invoice.status === "process_pending") &&
    canInMode(viewer.user.role, "payout.cancel", mode);
  const hostedPageUrl = invoice.hostedPagePath ? `${publicBaseUrl()}${invoice.hostedPagePath}` : null;
  // The status panel and the timeline share one client cache of the invoice (components/invoices/use-dashboard-invoice).
  return (
    <QueryProvider>
      <div className="max-w-5xl">
        <PageHeader
          title={`Invoice ${invoice.id}`}
          description={
            <span className="flex min-w-0 items-baseline gap-1">
              <span className="shrink-0">{invoice.direction === "payment" ? "Payment" : "Payout"} invoice</span>
              {/* A reference_id may be 255 characters: cut here, whole (and copyable) in Status and details. */}
              <span className="min-w-0 truncate font-mono text-xs" title={invoice.referenceId}>
                {invoice.referenceId}
              </span>
            </span>
          }
          actions={
            <div className="flex flex-wrap gap-3">
              {canInMode(viewer.user.role, "logs.read", mode) ? (
                <Link href={`/logs?${new URLSearchParams({ invoice: invoice.id, mode })}`} className="btn-secondary" data-testid="invoice-requests">
                  Requests
                </Link>
              ) : null}
              <Link href="/invoices" className="btn-secondary">
                All invoices
              </Link>
            </div>
          }
        />
        {/* Sections stack in one column; the attempts (with their provider logs) follow the timeline. */}
        <div className="space-y-6">
          <InvoiceSection id="overview" title="Status and details">
            <div className="grid gap-6 lg:grid-cols-2">
              <InvoiceStatusPanel initial={invoice} timeZone={timeZone} />
              <InvoiceFacts invoice={invoice} hostedPageUrl={hostedPageUrl} timeZone={timeZone} />
            </div>
          </InvoiceSection>
          {invoice.direction === "payment" ? (
            <InvoiceSection id="payer" title="Card and customer" testId="invoice-payer-section">
              <PayerAndCard invoice={invoice} />
              {risk?.card && canInMode(viewer.user.role, "risk.block", mode) ? (
                <div className="mt-4 border-t border-slate-100 pt-4">
                  <BlockCardButton invoiceId={invoice.id} blocked={risk.card.blocked} />
                </div>
              ) : null}
            </InvoiceSection>
          ) : null}
          {canProcessPayout ? (
            <InvoiceSection id="process" title="Send to the provider">
              <ProcessPayoutButton
                payout={{
                  id: invoice.id,
                  amount: invoice.amount,
                  currency: invoice.currency,
                  cardNumberMasked: invoice.cardNumberMasked,
                  connection: invoice.connection,
                  pinned: invoice.routingReason === "pinned",
                }}
              />
            </InvoiceSection>
          ) : null}
          {canCancelPayout ? (
            <InvoiceSection id="cancel" title="Cancel" testId="invoice-cancel">
              <CancelPayoutButton
                invoiceId={invoice.id}
                amount={invoice.amount}
                currency={invoice.currency}
                inProgress={invoice.status === "process_pending"}
              />
            </InvoiceSection>
          ) : null}
          {authorization ? (
            <InvoiceSection id="authorization" title="Authorization" testId="invoice-authorization">
              <InvoiceAuthorization invoiceId={invoice.id} panel={authorization} timeZone={timeZone} />
            </InvoiceSection>
          ) : null}
          {refunds ? (
            <InvoiceSection id="refunds" title="Refunds" testId="invoice-refunds">
              <InvoiceRefunds invoiceId={invoice.id} currency={invoice.currency} panel={refunds} timeZone={timeZone} />
            </InvoiceSection>
          ) : null}
          {disputes.length ? (
            <InvoiceSection id="disputes" title="Disputes" testId="invoice-disputes">
              <ul className="space-y-1 text-sm">
                {disputes.map((dispute) => (
                  <li key={dispute.id}>
                    <Link href={`/disputes/${dispute.id}`} className="font-mono text-xs text-brand-700 underline">
                      {dispute.id}
                    </Link>{" "}
                    {formatMoney(dispute.amount, dispute.currency)}, {DISPUTE_STATUS_LABELS[dispute.status]}, evidence due{" "}
                    {formatDateTime(dispute.evidenceDueBy, timeZone)}
                  </li>
                ))}
              </ul>
            </InvoiceSection>
          ) : null}
          {schedule ? (
            <InvoiceSection id="scheduled" title="Scheduled" testId="invoice-scheduled">
              <InvoiceScheduleView invoiceId={invoice.id} schedule={schedule} timeZone={timeZone} />
            </InvoiceSection>
          ) : null}
          <InvoiceSection id="connection" title="Connection">
            <RoutedConnection invoice={invoice} linkToConnection={can(viewer.user.role, "connections.write")} />
          </InvoiceSection>
          <InvoiceSection id="request" title="Request as sent">
            <RequestAsSent invoice={invoice} />
          </InvoiceSection>
          <InvoiceSection id="customer" title="Customer as resolved">
            <CustomerAsResolved fields={invoice.customer} />
          </InvoiceSection>
          <InvoiceSection id="timeline" title="Timeline">
            <InvoiceTimeline initial={invoice} refunds={refunds?.refunds} disputes={disputeSteps} blocked={risk?.blocked} timeZone={timeZone} />
          </InvoiceSection>
          <InvoiceSection id="attempts" title="Attempts" testId="invoice-attempts">
            <InvoiceAttempts attempts={attempts} timeZone={timeZone} />
          </InvoiceSection>
          <InvoiceSection id="callbacks" title="Provider callbacks" testId="invoice-callbacks-section">
            <InvoiceCallbacks callbacks={callbacks} timeZone={timeZone} />
          </InvoiceSection>
          <InvoiceSection id="webhooks" title="Webhooks" testId="invoice-webhooks-section">
            <InvoiceWebhooks events={events} canResend={can(viewer.user.role, "webhooks.manage")} timeZone={timeZone} />
          </InvoiceSection>
        </div>
      </div>
    </QueryProvider>
  );
}
