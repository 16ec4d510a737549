"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { removeBlocklistEntryAction } from "@/lib/actions/risk";

/** Remove one blocklist entry; the list is read again after. */
export function RemoveEntryButton({ id, mode, label }: { id: string; mode: "test" | "live"; label: string }) {
  const router = useRouter();
  const [pending, start] = useTransition();
  const [error, setError] = useState<string>();
  return (
    <span className="inline-flex items-center gap-2">
      <button
        type="button"
        className="btn-secondary"
        disabled={pending}
        aria-label={`Remove ${label} from the blocklist`}
        onClick={() =>
          start(async () => {
            const result = await removeBlocklistEntryAction({ id, mode });
            if (!result.ok) setError(result.message ?? "Could not remove it.");
            else router.refresh();
          })
        }
      >
        Remove
      </button>
      {error ? (
        <span role="alert" className="text-sm text-red-800">
          {error}
        </span>
      ) : null}
    </span>
  );
}
