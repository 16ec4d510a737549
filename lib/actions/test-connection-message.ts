import type { HealthResult } from "@/lib/providers/kit/adapter";
import { getKind } from "@/lib/providers";

/** What the Test connection button shows: the result in plain words, and the field to check. */
export type HealthReport = { kind: HealthResult["kind"]; message: string; field?: string };

/** "A", "A and B", "A, B and C". */
function inWords(labels: readonly string[]): string {
  return labels.length <= 1 ? labels.join("") : `${labels.slice(0, -1).join(", ")} and ${labels.at(-1)}`;
}

/**
 * Plain words for a health check: reachable and accepted, refused with the credential
 * most likely wrong (by its label in the form), or with the credentials a provider refuses
 * together when it does not say which, or unreachable with the reason.
 */
export function describeHealth(result: HealthResult, provider: string, kind: string): HealthReport {
  switch (result.kind) {
    case "ok":
      return { kind: "ok", message: "Reachable — credentials accepted" };
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
