import type { ReactNode } from "react";
import type { HostedOutcome } from "@/lib/pay/outcome";

type Props = { outcome: HostedOutcome; amount: string; currency: string; merchantName: string; canPay: boolean; invoiceId: string };

function message({ outcome, amount, currency, merchantName, canPay, invoiceId }: Props): { title: string; body: ReactNode; tone: "good" | "bad" | "wait" } | undefined {
  const again = canPay ? " You can try again with another card." : "";
  switch (outcome.kind) {
    case "open":
      return undefined;
    case "paid":
      return { tone: "good", title: "Payment received", body: `${amount} ${currency} was paid to ${merchantName}. Thank you.` };
    case "partly_paid":
      return {
        tone: "good",
        title: "Partly paid",
        body: `${outcome.processedAmount} ${currency} of ${amount} ${currency} was paid to ${merchantName}.`,
      };
    case "declined":
      return { tone: "bad", title: "Payment declined", body: `${outcome.reason}${again}` };
    case "try_later":
      // A provider that failed softly took no money: with attempts left the form stays, and says so.
      return { tone: "bad", title: "Please try again later", body: canPay ? `${outcome.reason} No payment was taken; you can try again.` : outcome.reason };
    case "in_progress":
      return {
        tone: "wait",
        title: "We are confirming your payment",
        body: (
          <>
            This can take a few minutes; this page updates by itself. Please do not pay again.{" "}
            <a className="font-medium underline" href={`/pay/${invoiceId}/return`}>
              Check the result now
            </a>
          </>
        ),
      };
    case "closed":
      return outcome.expired
        ? { tone: "bad", title: "This payment link has expired", body: `It can no longer be paid. Ask ${merchantName} for a new link.` }
        : { tone: "bad", title: "This invoice cannot be paid", body: outcome.reason };
  }
}

const TONES = {
  good: "border-green-200 bg-green-50 text-green-900",
  bad: "border-red-200 bg-red-50 text-red-900",
  wait: "border-slate-200 bg-slate-50 text-slate-800",
} as const;

/** The outcome in plain words; rendered inside the page's live region so it is announced. */
export function PayResult(props: Props) {
  const shown = message(props);
  if (!shown) return null;
  return (
    <div className={`rounded-md border p-3 ${TONES[shown.tone]}`} data-testid="pay-result" data-outcome={props.outcome.kind}>
      <p className="font-semibold">{shown.title}</p>
      <p className="mt-1 text-sm">{shown.body}</p>
    </div>
  );
}
