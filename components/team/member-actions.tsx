"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import type { ActionResult } from "@/lib/actions/result";
import { changeRoleAction, removeMemberAction } from "@/lib/actions/team";
import type { Role } from "@/lib/db/schema";
import { RoleOptions } from "./role-select";

/** A member's row: change their role (any of the permission table's) or remove them. */
export function MemberActions({ userId, name, role }: { userId: string; name: string; role: Role }) {
  const [pending, startTransition] = useTransition();
  const [message, setMessage] = useState<string>();
  const [chosen, setChosen] = useState<Role>(role);
  const router = useRouter();
  const run = (action: () => Promise<ActionResult>) =>
    startTransition(async () => {
      const result = await action();
      setMessage(result.ok ? undefined : (result.message ?? Object.values(result.fieldErrors)[0]));
      router.refresh();
    });
  const selectId = `member-role-${userId}`;
  return (
    <div className="flex flex-wrap items-center gap-2">
      <label htmlFor={selectId} className="sr-only">
        Role of {name}
      </label>
      <select id={selectId} className="input w-auto" value={chosen} disabled={pending} onChange={(event) => setChosen(event.target.value as Role)}>
        <RoleOptions />
      </select>
      <button
        type="button"
        className="btn-secondary"
        disabled={pending || chosen === role}
        aria-label={`Change role of ${name}`}
        onClick={() => run(() => changeRoleAction({ userId, role: chosen }))}
      >
        {pending ? "Saving…" : "Change role"}
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
      {message ? (
        <span role="alert" className="text-sm text-red-700">
          {message}
        </span>
      ) : null}
    </div>
  );
}
