"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import type { ActionResult } from "@/lib/actions/result";
import { changeRoleAction, removeMemberAction } from "@/lib/actions/team";
import type { Role } from "@/lib/db/schema";

export function MemberActions({ userId, name, role }: { userId: string; name: string; role: Role }) {
  const [pending, startTransition] = useTransition();
  const [message, setMessage] = useState<string>();
  const router = useRouter();
  const run = (action: () => Promise<ActionResult>) =>
    startTransition(async () => {
      const result = await action();
      setMessage(result.ok ? undefined : (result.message ?? Object.values(result.fieldErrors)[0]));
      router.refresh();
    });
  const other: Role = role === "owner" ? "support" : "owner";
  return (
    <div className="flex flex-wrap items-center gap-2">
      <button type="button" className="btn-secondary" disabled={pending} onClick={() => run(() => changeRoleAction({ userId, role: other }))}>
        Make {other}
      </button>
      <button
        type="button"
        className="btn-secondary text-red-700"
        disabled={pending}
        onClick={() => {
          if (window.confirm(`Remove ${name}? They can no longer sign in.`)) run(() => removeMemberAction({ userId }));
        }}
      >
        Remove
      </button>
      {message ? <span role="alert" className="text-sm text-red-700">{message}</span> : null}
    </div>
  );
}
