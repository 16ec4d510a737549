"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { notify } from "@/components/feedback";
import { revokeApiKeyAction } from "@/lib/actions/api-keys";

export function RevokeApiKeyButton({ id, name }: { id: string; name: string }) {
  const [pending, startTransition] = useTransition();
  const [message, setMessage] = useState<string>();
  const router = useRouter();
  return (
    <>
      <button
        type="button"
        className="btn-secondary text-red-700"
        disabled={pending}
        aria-busy={pending}
        onClick={() => {
          if (!window.confirm(`Revoke "${name}"? Every system using this key will get 401 from the API at once.`)) return;
          startTransition(async () => {
            const result = await revokeApiKeyAction({ id });
            if (!result.ok) setMessage(result.message);
            else notify({ message: `API key "${name}" revoked. Systems still using it now get 401.` });
            router.refresh();
          });
        }}
      >
        {pending ? "Revoking…" : "Revoke"}
      </button>
      {message ? (
        <span role="alert" className="text-sm text-red-700">
          {message}
        </span>
      ) : null}
    </>
  );
}
