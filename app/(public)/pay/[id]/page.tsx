import { notFound } from "next/navigation";
import { HostedPayment } from "@/components/pay/hosted-payment";
import { getDb } from "@/lib/db/client";
import { resumeHostedInvoice } from "@/lib/pay/resume";

export const dynamic = "force-dynamic";

/** The public hosted payment page of an `_hpp` invoice (issue 10): no sign-in, found by its id only. */
export default async function PayPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const invoice = await resumeHostedInvoice(await getDb(), id);
  if (!invoice) notFound();
  return (
    <div className="space-y-5">
      <header>
        <p className="text-sm text-slate-600">Pay {invoice.merchantName}</p>
        <h1 className="mt-1 text-3xl font-semibold tabular-nums" data-testid="pay-amount">
          {invoice.amount} <span className="text-xl text-slate-700">{invoice.currency}</span>
        </h1>
        {invoice.testMode ? (
          <p className="badge mt-2 bg-amber-100 text-amber-900" data-testid="test-mode">
            Test mode: no real money moves
          </p>
        ) : null}
      </header>
      <HostedPayment initial={invoice} />
    </div>
  );
}
