"use client";

import { useRouter } from "next/navigation";
import { useRef, useState, useTransition } from "react";
import { notify } from "@/components/feedback";
import { rollApiKeyAction } from "@/lib/actions/api-keys";
import { ROLL_GRACE_LABELS, ROLL_GRACES, type RollGrace } from "@/lib/api-keys/choices";
import { NewKeyPanel } from "./new-key-panel";

/**
 * Roll key: asks how long the old key keeps working (a modal dialog, so nothing is rolled by a
 * slip), then shows the new key once. The old key's end is shown in the list.
 */
export function RollApiKeyButton({ id, name, mode, canRoll }: { id: string; name: string; mode: "test" | "live"; canRoll: boolean }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [grace, setGrace] = useState<RollGrace>("24h");
  const [secret, setSecret] = useState<string>();
  const [message, setMessage] = useState<string>();
  const [pending, startTransition] = useTransition();
  const router = useRouter();
  const headingId = `roll-${id}-heading`;
  /** Closing after a roll refreshes the list again (the action's own refresh may still be on its way). */
  const closed = () => {
    if (secret) router.refresh();
    setSecret(undefined);
    setMessage(undefined);
  };
  const close = () => dialog.current?.close();

  return (
    <>
      {canRoll ? (
        <button type="button" className="btn-secondary" onClick={() => dialog.current?.showModal()}>
          Roll
        </button>
      ) : null}
      <dialog
        ref={dialog}
        aria-labelledby={headingId}
        onClose={closed}
        className="m-auto w-[min(32rem,calc(100vw-2rem))] rounded-lg border border-slate-200 p-0 shadow-xl backdrop:bg-slate-900/40"
      >
        <div className="space-y-4 p-5 text-sm">
          <h2 id={headingId} className="text-base font-semibold break-words">
            Roll “{name}”
          </h2>
          {secret ? (
            <NewKeyPanel secret={secret} heading="Copy the new key now. It is shown only this once." onDone={close} />
          ) : (
            <form
              method="dialog"
              className="space-y-4"
              onSubmit={(event) => {
                event.preventDefault();
                setMessage(undefined);
                startTransition(async () => {
                  const result = await rollApiKeyAction({ id, grace });
                  if (!result.ok) {
                    setMessage(result.message);
                    return;
                  }
                  setSecret(result.data.key);
                  notify({ message: `API key "${name}" rolled. Copy the new key now: it is shown only this once.` });
                });
              }}
            >
              <p>
                A new {mode} key with the same name and access is made and shown once. The old key keeps working for the time you choose, then the API refuses
                it with 401. Put the new key in place within that time.
              </p>
              <div>
                <label htmlFor={`roll-${id}-grace`} className="label">
                  Old key keeps working for
                </label>
                <select id={`roll-${id}-grace`} className="input mt-1" value={grace} onChange={(event) => setGrace(event.target.value as RollGrace)}>
                  {ROLL_GRACES.map((choice) => (
                    <option key={choice} value={choice}>
                      {ROLL_GRACE_LABELS[choice]}
                    </option>
                  ))}
                </select>
              </div>
              {message ? (
                <p role="alert" className="rounded-md border border-red-200 bg-red-50 p-3 text-red-800">
                  {message}
                </p>
              ) : null}
              <div className="flex flex-wrap gap-3">
                <button type="submit" className="btn-primary" disabled={pending} aria-busy={pending}>
                  {pending ? "Rolling…" : "Roll key"}
                </button>
                <button type="button" className="btn-secondary" onClick={close}>
                  Cancel
                </button>
              </div>
            </form>
          )}
        </div>
      </dialog>
    </>
  );
}
