function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key, entry]) => entry !== undefined && !(key === "order_by" && entry === "as_listed") && !(key === "require_three_ds" && entry === false))
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([key, entry]) => [key, canonical(entry)]),
  );
}

/**
 * Rules as one text that two equal lists share: keys in one order (a jsonb column gives them back
 * sorted, a parse gives them in the schema's order) and `order_by: "as_listed"` as absent (the
 * default), and `require_three_ds: false` as absent. A save, a rollback and a comparison call rules the same by it, and the editor its changes.
 */
export function rulesKey(rules: unknown): string {
  return JSON.stringify(canonical(rules));
}
