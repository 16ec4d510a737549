import type { HealthResult } from "@/lib/processing/adapter";
import { getKind } from "@/lib/providers";

/** What the Test connection button shows: the result in plain words, and the field to check. */
export type HealthReport = { kind: HealthResult["kind"]; message: string; field?: string };

/**
 * Plain words for a health check (issue 10): reachable and accepted, refused with the credential
 * most likely wrong (by its label in the form), or unreachable with the reason.
 */
export function describeHealth(result: HealthResult, provider: string, kind: string): HealthReport {
  switch (result.kind) {
    case "ok":
      return { kind: "ok", message: "Reachable — credentials accepted" };
    case "credentials_refused": {
      const label = getKind(provider, kind)?.fields.find((field) => field.id === result.field)?.label;
      return {
        kind: "credentials_refused",
        message: `Credentials refused — check ${label ?? "the credentials"}`,
        ...(result.field ? { field: result.field } : {}),
      };
    }
    case "unreachable":
      return { kind: "unreachable", message: `Unreachable — ${result.message}` };
  }
}
