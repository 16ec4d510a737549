"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { processPayoutAction } from "@/lib/actions/process-payout";

/** "Process payout" for a payout created without auto_process (spec 4.2); owners only. */
export function ProcessPayoutButton({ invoiceId }: { invoiceId: string }) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const [message, setMessage] = useState<{ text: string; failed: boolean } | null>(null);

  const run = () =>
    startTransition(async () => {
      const result = await processPayoutAction({ id: invoiceId });
      if (result.ok) setMessage({ text: `Payout sent: ${result.data.status.replaceAll("_", " ")}${result.data.resolution ? ` (${result.data.resolution})` : ""}.`, failed: false });
      else setMessage({ text: result.message ?? "The payout could not be sent.", failed: true });
      router.refresh();
    });

  return (
    <div className="flex flex-wrap items-center gap-3">
      <button type="button" className="btn-primary" onClick={run} disabled={pending} aria-busy={pending}>
        {pending ? "Processing…" : "Process payout"}
      </button>
      <p aria-live="polite" role={message?.failed ? "alert" : undefined} className={message?.failed ? "text-sm text-red-700" : "text-sm text-slate-700"}>
        {message?.text}
      </p>
    </div>
  );
}
