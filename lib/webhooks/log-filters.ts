import { eventLogFilterFields, type EventLogFilters } from "./schemas";

/**
 * The event log's filters from the page's query string, each read alone: a value that is not
 * one the log knows is dropped and named (`dropped`), so a mistyped link still shows the log.
 */
export function readEventLogFilters(params: Record<string, string | string[] | undefined>): { filters: EventLogFilters; dropped: string[] } {
  const filters: Record<string, unknown> = {};
  const dropped: string[] = [];
  for (const [key, schema] of Object.entries(eventLogFilterFields)) {
    const raw = params[key];
    const value = Array.isArray(raw) ? raw[0] : raw;
    if (value === undefined || value.trim() === "") continue;
    const parsed = schema.safeParse(value);
    if (parsed.success) filters[key] = parsed.data;
    else dropped.push(key);
  }
  return { filters: filters as EventLogFilters, dropped };
}

/** The log's address with these filters (empty ones left out). */
export function eventLogHref(filters: EventLogFilters): string {
  const query = new URLSearchParams(Object.entries(filters).filter((entry): entry is [string, string] => typeof entry[1] === "string" && entry[1] !== ""));
  const text = query.toString();
  return text ? `/webhooks?${text}` : "/webhooks";
}
