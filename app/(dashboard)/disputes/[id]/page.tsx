import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { Link } from "@/components/link";
import { AcceptDisputeButton } from "@/components/disputes/accept-dispute-button";
import { DisputeStatusBadge } from "@/components/disputes/dispute-badges";
import { EvidenceFormOnUse } from "@/components/disputes/evidence-form-on-use";
import { InvoiceSection } from "@/components/invoices/invoice-sections";
import { PageHeader } from "@/components/shell/page-header";
import { requirePageViewer } from "@/lib/auth/viewer";
import { findConnectionIncludingDeleted } from "@/lib/connections/queries";
import { getDb } from "@/lib/db/client";
import { DISPUTE_REASON_WORDS, DISPUTE_STATUS_LABELS, EVIDENCE_FIELD_LABELS, EVIDENCE_TEXT_FIELDS } from "@/lib/disputes/contract";
import { describeFiles } from "@/lib/disputes/files";
import { findDispute } from "@/lib/disputes/store";
import { readDisputeSteps, type DisputeStep } from "@/lib/disputes/timeline";
import { formatDateTime, formatTimeLeft } from "@/lib/format";
import { DISPUTE_ID } from "@/lib/ids/patterns";
import { canInMode } from "@/lib/identity/permissions";
import { getDashboardInvoice } from "@/lib/invoices/read/dashboard-invoices";
import { formatMoney } from "@/lib/money";
import { timeZoneInForce } from "@/lib/time-zones";

type Params = { params: Promise<{ id: string }> };

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  return { title: `Dispute ${(await params).id}` };
}

const STEP_WORDS: Record<DisputeStep["step"], string> = {
  opened: "Dispute opened",
  evidence_submitted: "Evidence submitted",
  conceded: "Dispute accepted by you",
  under_review: "Provider reviewing the evidence",
  won: "Won: the money stays with you",
  lost: "Lost: the money goes back to the customer",
  accepted: "Closed as accepted",
};

const OUTCOME_WORDS: Record<string, string> = {
  won: "Won. The provider decided for you: the disputed amount stays with you.",
  lost: "Lost. The provider decided for the customer: the disputed amount went back to them.",
  accepted: "Accepted. You conceded the dispute: the disputed amount went back to the customer.",
};

const CUSTOMER_FIELDS = ["customer.name", "customer.email", "customer.phone", "customer.address.full_address"];

const kilobytes = (bytes: number) => (bytes < 1024 * 1024 ? `${Math.max(1, Math.round(bytes / 1024))} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`);

function Row({ term, children }: { term: string; children: React.ReactNode }) {
  return (
    <div className="grid gap-1 py-1.5 sm:grid-cols-[12rem_1fr]">
      <dt className="text-sm text-slate-600">{term}</dt>
      <dd className="min-w-0 text-sm wrap-anywhere">{children}</dd>
    </div>
  );
}

/** One dispute: what is disputed and why, the payment and its customer, the timeline, and the answer (evidence, Submit, Accept) or the outcome. */
export default async function DisputePage({ params }: Params) {
  const viewer = await requirePageViewer("invoices.read");
  const timeZone = timeZoneInForce(viewer);
  const { id } = await params;
  if (!DISPUTE_ID.test(id)) notFound();
  const db = await getDb();
  const dispute = await findDispute(db, viewer.merchant.id, id);
  if (!dispute) notFound();
  const mode = dispute.testMode ? "test" : "live";
  const [invoice, steps, files, connection] = await Promise.all([
    getDashboardInvoice(db, viewer.merchant.id, dispute.invoiceId),
    readDisputeSteps(db, viewer.merchant.id, dispute.invoiceId),
    describeFiles(db, viewer.merchant.id, dispute.evidence.file_ids ?? []),
    findConnectionIncludingDeleted(db, viewer.merchant.id, dispute.connectionId),
  ]);
  const amountText = formatMoney(dispute.amount, dispute.currency);
  const editable = dispute.status === "needs_response" && !dispute.submittedAt && !dispute.acceptedAt;
  const open = dispute.status === "needs_response" || dispute.status === "under_review";
  const timeLeft = formatTimeLeft(dispute.evidenceDueBy);
  const deadlineText = `${formatDateTime(dispute.evidenceDueBy, timeZone)} (${timeLeft === "passed" ? "passed" : timeLeft})`;
  const mayRespond = canInMode(viewer.user.role, "disputes.respond", mode);
  // Who the customer is, in the words a person reads: name, e-mail, phone, address (the invoice page has every field).
  const customer = CUSTOMER_FIELDS.flatMap((path) => {
    const value = invoice?.customer.find((field) => field.path === path)?.value;
    return typeof value === "string" && value.trim() !== "" ? [value] : [];
  });
  const sent = EVIDENCE_TEXT_FIELDS.filter((field) => (dispute.evidence[field] ?? "").trim() !== "");
  return (
    <div className="max-w-4xl space-y-6">
      <PageHeader
        title={`Dispute ${dispute.id}`}
        description={`A ${mode} chargeback of ${amountText}.`}
        actions={
          <Link href="/disputes" className="btn-secondary">
            All disputes
          </Link>
        }
      />
      <InvoiceSection id="dispute-facts" title="The dispute" testId="dispute-facts">
        <dl>
          <Row term="Amount">
            <span className="tabular-nums" data-testid="dispute-amount">
              {amountText}
            </span>
          </Row>
          <Row term="Status">
            <DisputeStatusBadge status={dispute.status} />
          </Row>
          <Row term="Evidence due">
            <span data-testid="dispute-deadline">{formatDateTime(dispute.evidenceDueBy, timeZone)}</span>
            {editable ? <span className="ml-2 font-medium text-amber-900">{timeLeft === "passed" ? "Deadline passed" : `Due ${timeLeft}`}</span> : null}
          </Row>
          <Row term="Reason">
            <span className="block" data-testid="dispute-reason">
              {DISPUTE_REASON_WORDS[dispute.reason]}
            </span>
            {dispute.providerReason ? <span className="block text-slate-600">The provider&apos;s words: “{dispute.providerReason}”</span> : null}
          </Row>
          <Row term="Connection">{connection ? `${connection.label} (${connection.provider})` : dispute.connectionId}</Row>
          <Row term="Provider reference">
            <span className="font-mono text-xs">{dispute.providerReference}</span>
          </Row>
        </dl>
      </InvoiceSection>
      <InvoiceSection id="dispute-payment" title="The payment" testId="dispute-payment">
        <dl>
          <Row term="Payment invoice">
            <Link href={`/invoices/${dispute.invoiceId}`} className="font-mono text-xs text-brand-700 underline">
              {dispute.invoiceId}
            </Link>
          </Row>
          {invoice ? (
            <>
              <Row term="Paid">{formatMoney(invoice.processedAmount ?? invoice.amount, invoice.currency)}</Row>
              <Row term="Created">{formatDateTime(invoice.createdAt, timeZone)}</Row>
              {invoice.payingCard ? <Row term="Card">{`${invoice.payingCard.brand ?? "Card"} ending ${invoice.payingCard.lastFour}`}</Row> : null}
            </>
          ) : null}
          <Row term="Customer">
            {invoice?.customerReference ? (
              <Link href={`/customers/${encodeURIComponent(invoice.customerReference)}`} className="font-mono text-xs text-brand-700 underline">
                {invoice.customerReference}
              </Link>
            ) : customer.length === 0 ? (
              "Not given"
            ) : null}
            {customer.length ? (
              <span className="block" data-testid="dispute-customer">
                {customer.join(" · ")}
              </span>
            ) : null}
          </Row>
        </dl>
      </InvoiceSection>
      <InvoiceSection id="dispute-timeline" title="Timeline" testId="dispute-timeline">
        <ol className="space-y-1 text-sm">
          {steps
            .filter((step) => step.disputeId === dispute.id)
            .map((step, index) => (
              <li key={`${step.step}-${index}`}>
                <span className="font-medium">{STEP_WORDS[step.step]}</span> <span className="text-slate-600">{formatDateTime(step.at, timeZone)}</span>
              </li>
            ))}
        </ol>
      </InvoiceSection>
      <InvoiceSection id="dispute-response" title={editable ? "Your response" : "What was sent"} testId="dispute-response">
        {!open ? (
          <p className="mb-4 rounded-md border border-slate-200 bg-slate-50 p-3 text-sm font-medium" data-testid="dispute-outcome">
            {OUTCOME_WORDS[dispute.status] ?? DISPUTE_STATUS_LABELS[dispute.status]}
            {dispute.closedAt ? ` Closed ${formatDateTime(dispute.closedAt, timeZone)}.` : ""}
          </p>
        ) : null}
        {editable && mayRespond ? (
          <div className="space-y-6">
            <EvidenceFormOnUse
              disputeId={dispute.id}
              draft={dispute.evidence}
              files={files.map((file) => ({ id: file.id, filename: file.filename, size: kilobytes(file.sizeBytes) }))}
              amountText={amountText}
              deadlineText={deadlineText}
            />
            <AcceptDisputeButton disputeId={dispute.id} amountText={amountText} deadlineText={deadlineText} />
          </div>
        ) : (
          <div className="space-y-3 text-sm" data-testid="evidence-read-only">
            {editable ? (
              <p className="rounded-md border border-slate-200 bg-slate-50 p-3" data-testid="read-only-note">
                Your role may read this {mode} dispute but not respond to it; an owner or a finance member can.
              </p>
            ) : dispute.acceptedAt ? (
              <p>You accepted this dispute {formatDateTime(dispute.acceptedAt, timeZone)}.</p>
            ) : dispute.submittedAt ? (
              <p>Evidence submitted {formatDateTime(dispute.submittedAt, timeZone)}.</p>
            ) : (
              <p>No evidence was submitted.</p>
            )}
            {sent.length || files.length ? (
              <dl>
                {sent.map((field) => (
                  <Row key={field} term={EVIDENCE_FIELD_LABELS[field]}>
                    <span className="whitespace-pre-wrap">{dispute.evidence[field]}</span>
                  </Row>
                ))}
                {files.length ? (
                  <Row term="Files">
                    <ul>
                      {files.map((file) => (
                        <li key={file.id}>
                          <a href={`/api/dashboard/files/${file.id}`} className="text-brand-700 underline" download>
                            {file.filename}
                          </a>{" "}
                          ({kilobytes(file.sizeBytes)})
                        </li>
                      ))}
                    </ul>
                  </Row>
                ) : null}
              </dl>
            ) : null}
            {dispute.status === "under_review" && !dispute.acceptedAt && mayRespond ? (
              <AcceptDisputeButton disputeId={dispute.id} amountText={amountText} deadlineText={deadlineText} />
            ) : null}
          </div>
        )}
      </InvoiceSection>
    </div>
  );
}
