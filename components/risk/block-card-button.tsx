"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { blockInvoiceCardAction } from "@/lib/actions/risk";

/** The invoice page's "Block this card": the card last tried on the invoice goes on the blocklist of the invoice's mode. */
export function BlockCardButton({ invoiceId, blocked }: { invoiceId: string; blocked: boolean }) {
  const router = useRouter();
  const [pending, start] = useTransition();
  const [said, setSaid] = useState<{ ok: boolean; text: string }>();
  if (blocked && !said) return <p className="text-sm text-slate-700">This card is on the blocklist.</p>;
  return (
    <div className="flex flex-wrap items-center gap-3">
      <button
        type="button"
        className="btn-secondary"
        disabled={pending}
        onClick={() =>
          start(async () => {
            const result = await blockInvoiceCardAction({ invoiceId });
            setSaid(
              result.ok
                ? { ok: true, text: `${result.data.label} is on the blocklist: its next Pay is refused.` }
                : { ok: false, text: result.message ?? "Could not block it." },
            );
            if (result.ok) router.refresh();
          })
        }
      >
        Block this card
      </button>
      <p role={said?.ok === false ? "alert" : "status"} aria-live="polite" className={said?.ok === false ? "text-sm text-red-800" : "text-sm text-slate-700"}>
        {said?.text}
      </p>
    </div>
  );
}
