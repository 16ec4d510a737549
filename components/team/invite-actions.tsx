"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import type { ActionResult } from "@/lib/actions/result";
import { resendInviteAction, revokeInviteAction } from "@/lib/actions/team";

/** Resend issues a new link (the old one stops working) for another 7 days; Revoke ends the invitation. */
export function InviteActions({ inviteId, email }: { inviteId: string; email: string }) {
  const [pending, startTransition] = useTransition();
  const [message, setMessage] = useState<{ text: string; ok: boolean }>();
  const router = useRouter();
  const run = (action: () => Promise<ActionResult>, done: string) =>
    startTransition(async () => {
      const result = await action();
      setMessage(result.ok ? { text: done, ok: true } : { text: result.message ?? Object.values(result.fieldErrors)[0] ?? "Not done.", ok: false });
      router.refresh();
    });
  return (
    <div className="flex flex-wrap items-center gap-2">
      <button
        type="button"
        className="btn-secondary"
        disabled={pending}
        aria-busy={pending}
        aria-label={`Resend invitation to ${email}`}
        onClick={() => run(() => resendInviteAction({ inviteId }), `A new link was sent to ${email}.`)}
      >
        Resend
      </button>
      <button
        type="button"
        className="btn-secondary text-red-700"
        disabled={pending}
        aria-busy={pending}
        aria-label={`Revoke invitation to ${email}`}
        onClick={() => {
          if (window.confirm(`Revoke the invitation to ${email}? Its link stops working.`)) run(() => revokeInviteAction({ inviteId }), "Invitation revoked.");
        }}
      >
        Revoke
      </button>
      <span role={message && !message.ok ? "alert" : "status"} className={`text-sm ${message?.ok ? "text-green-800" : "text-red-700"}`}>
        {message?.text}
      </span>
    </div>
  );
}
