"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { notify } from "@/components/feedback";
import { deleteConnectionAction, setConnectionEnabledAction } from "@/lib/actions/connections";
import { testConnectionAction } from "@/lib/actions/test-connection";
import { TestConnectionResult, useTestConnection } from "./test-connection-button";

/** Enable or disable, test and delete; delete asks first and says what stops working. */
export function ConnectionControls({
  id,
  label,
  enabled,
  services,
  refundablePayments = 0,
  savedCards = 0,
}: {
  id: string;
  label: string;
  enabled: boolean;
  services: string[];
  /** Payments it took that can still be refunded: refunds go back only through it. */
  refundablePayments?: number;
  /** Customers' saved cards it holds: they cannot be charged once it is deleted. */
  savedCards?: number;
}) {
  const [pending, startTransition] = useTransition();
  const [message, setMessage] = useState<{ kind: "error" | "info"; text: string }>();
  const [confirming, setConfirming] = useState(false);
  const router = useRouter();
  const test = useTestConnection();

  const run = (fn: () => Promise<{ ok: boolean; message?: string } & Record<string, unknown>>, after?: () => void) =>
    startTransition(async () => {
      const result = await fn();
      if (!result.ok) setMessage({ kind: "error", text: result.message ?? "The change was refused." });
      else after?.();
      router.refresh();
    });

  return (
    <div className="space-y-3">
      <div className="flex flex-wrap gap-2">
        <button
          type="button"
          className="btn-secondary"
          disabled={pending}
          onClick={() =>
            run(
              () => setConnectionEnabledAction({ id, enabled: !enabled }),
              () => {
                setMessage(undefined);
                notify({
                  message: enabled ? `"${label}" disabled: invoices are no longer routed to it.` : `"${label}" enabled: invoices may be routed to it.`,
                });
              },
            )
          }
        >
          {enabled ? "Disable" : "Enable"}
        </button>
        <button
          type="button"
          className="btn-secondary"
          disabled={pending || test.pending}
          onClick={() =>
            test.run(
              () => testConnectionAction({ id }),
              () => router.refresh(),
            )
          }
        >
          {test.pending ? "Testing…" : "Test connection"}
        </button>
        <button type="button" className="btn-secondary text-red-700" disabled={pending} onClick={() => setConfirming(true)}>
          Delete
        </button>
      </div>
      <TestConnectionResult state={test} />
      {pending ? (
        <p role="status" className="text-sm text-slate-600">
          Working…
        </p>
      ) : null}
      {message ? (
        <p role={message.kind === "error" ? "alert" : "status"} className={`text-sm ${message.kind === "error" ? "text-red-700" : "text-slate-700"}`}>
          {message.text}
        </p>
      ) : null}
      {confirming ? (
        <div
          role="alertdialog"
          aria-labelledby="delete-title"
          aria-describedby="delete-body"
          className="rounded-md border border-red-200 bg-red-50 p-4 text-sm"
        >
          <p id="delete-title" className="font-semibold text-red-900">
            Delete &quot;{label}&quot;?
          </p>
          <p id="delete-body" className="mt-1 text-red-900">
            Invoices can no longer be routed to it{services.length ? ` for ${services.join(", ")}` : ""}; new invoices in its mode fail unless another enabled
            connection offers the service. Its stored credentials are erased from use. This cannot be undone.
          </p>
          {refundablePayments > 0 ? (
            <p className="mt-2 font-medium text-red-900" data-testid="delete-refund-warning">
              {refundablePayments === 1 ? "1 payment" : `${refundablePayments} payments`} taken through it can still be refunded, and refunds go back only
              through the connection that took the payment: once it is deleted, {refundablePayments === 1 ? "it" : "they"} cannot be refunded here. Disable it
              instead to stop new invoices and keep refunds working.
            </p>
          ) : null}
          {savedCards > 0 ? (
            <p className="mt-2 font-medium text-red-900" data-testid="delete-saved-cards-warning">
              {savedCards === 1 ? "1 saved card" : `${savedCards} saved cards`} of your customers {savedCards === 1 ? "is" : "are"} held by this connection:
              once it is deleted, {savedCards === 1 ? "it becomes" : "they become"} unusable and can no longer be charged (customers must enter their card
              again).
            </p>
          ) : null}
          <div className="mt-3 flex gap-2">
            <button
              type="button"
              className="btn-danger"
              disabled={pending}
              autoFocus
              onClick={() =>
                run(
                  () => deleteConnectionAction({ id }),
                  () => {
                    notify({ message: `"${label}" deleted.` });
                    router.push("/connections");
                  },
                )
              }
            >
              Delete connection
            </button>
            <button type="button" className="btn-secondary" onClick={() => setConfirming(false)}>
              Keep it
            </button>
          </div>
        </div>
      ) : null}
    </div>
  );
}
