import { useEffect } from "react";

/** Sent on window with the list's `service:mode` when a rollback replaced its saved rules and order. */
export const ROUTING_REPLACED_EVENT = "routing-replaced";

/**
 * An editor's status line ("Saved. …", "Rules saved as version 3.") speaks of what it saved; once a
 * rollback replaced the routing of this `service:mode`, it is cleared (`setStatus` is a state setter).
 */
export function useClearedOnRollback(id: string, setStatus: (status: string) => void) {
  useEffect(() => {
    const listener = (event: Event) => {
      if ((event as CustomEvent<string>).detail === id) setStatus("");
    };
    window.addEventListener(ROUTING_REPLACED_EVENT, listener);
    return () => window.removeEventListener(ROUTING_REPLACED_EVENT, listener);
  }, [id, setStatus]);
}
