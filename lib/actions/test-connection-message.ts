import type { HealthResult } from "@/lib/providers/kit/adapter";
import { getKind, getProvider, type Mode } from "@/lib/providers";

/** What the Test connection button shows: the result in plain words, what was checked, and the field to check. */
/** `receipt`: only on a passed test of unsaved values; Save sends it back (lib/connections/test-receipt.ts). */
export type HealthReport = { kind: HealthResult["kind"]; message: string; detail?: string; field?: string; receipt?: string };

/** Values typed into the New connection form and not saved yet, tested in this mode. */
export type UnsavedSubject = { unsaved: true; mode: Mode };

/** What an accepted test of unsaved values checked, in each mode. */
export const UNSAVED_CHECKED: Record<Mode, string> = {
  test:
    "The sandbox checked a request made with the values typed here: the ID it names, and the signature or password made with the secret. " +
    "No sandbox account exists for them until you save; after saving, Test connection checks the saved connection.",
  live: "The provider's live API checked a request made with the values typed here.",
};

/** "A", "A and B", "A, B and C". */
function inWords(labels: readonly string[]): string {
  return labels.length <= 1 ? labels.join("") : `${labels.slice(0, -1).join(", ")} and ${labels.at(-1)}`;
}

/**
 * Plain words for a health check: reachable and accepted (for unsaved values, by whom and what was
 * checked), refused with the credential
 * most likely wrong (by its label in the form), or with the credentials a provider refuses
 * together when it does not say which, or unreachable with the reason.
 */
export function describeHealth(result: HealthResult, provider: string, kind: string, subject?: UnsavedSubject): HealthReport {
  switch (result.kind) {
    case "ok": {
      if (!subject) return { kind: "ok", message: "Reachable — credentials accepted" };
      const who = subject.mode === "test" ? "the sandbox" : (getProvider(provider)?.name ?? provider);
      return { kind: "ok", message: `Reachable — ${who} accepted these credentials (not saved yet)`, detail: UNSAVED_CHECKED[subject.mode] };
    }
    case "credentials_refused": {
      const spec = getKind(provider, kind);
      const labelOf = (id: string | undefined) => spec?.fields.find((field) => field.id === id)?.label;
      const together = (result.field ? [] : (spec?.refusedTogether ?? [])).map(labelOf).filter((label) => label !== undefined);
      const named = labelOf(result.field) ?? (together.length > 0 ? inWords(together) : undefined);
      return {
        kind: "credentials_refused",
        message: result.found ? `Credentials refused — ${result.found}` : `Credentials refused — check ${named ?? "the credentials"}`,
        ...(result.field ? { field: result.field } : {}),
      };
    }
    case "unreachable":
      return { kind: "unreachable", message: `Unreachable — ${result.message}` };
  }
}
