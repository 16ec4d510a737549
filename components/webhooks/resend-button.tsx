"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { resendWebhookEventAction } from "@/lib/actions/webhooks";
import type { WebhookAnswer } from "@/lib/webhooks/views";
import { WebhookAnswerView } from "./webhook-answer";

/** Owners: the same event (same id, so the receiver can dedupe it) once more, now, to one endpoint. */
export function ResendButton({ eventId, endpointId, endpointName }: { eventId: string; endpointId: string; endpointName: string }) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const [answer, setAnswer] = useState<WebhookAnswer>();
  const [message, setMessage] = useState<string>();
  const run = () =>
    startTransition(async () => {
      setMessage(undefined);
      setAnswer(undefined);
      const result = await resendWebhookEventAction({ eventId, endpointId });
      if (!result.ok) setMessage(result.message ?? "The event could not be resent.");
      else setAnswer(result.data);
      router.refresh();
    });
  return (
    <div className="space-y-2">
      <button
        type="button"
        className="btn-secondary"
        onClick={run}
        disabled={pending}
        aria-busy={pending}
        aria-label={`Resend event ${eventId} to ${endpointName}`}
      >
        {pending ? "Resending…" : "Resend"}
      </button>
      {message ? (
        <p role="alert" className="text-sm text-red-700">
          {message}
        </p>
      ) : null}
      {answer ? <WebhookAnswerView answer={answer} label="Resend" /> : null}
    </div>
  );
}
