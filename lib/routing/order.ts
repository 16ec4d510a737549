/**
 * The one rule that turns a saved routing order and the connections that exist into the order
 * routing uses ("Routing you can see and set"): the saved ids first, in their saved order;
 * then every connection the saved order does not name, oldest first, so a new connection is
 * routable at once without anyone saving the order again. Ids of connections that no longer
 * exist are dropped. Routing applies this to the enabled connections only, so a disabled one
 * keeps its place in the saved order and takes it again once enabled.
 */
export type Orderable = { id: string; createdAt: Date };

function oldestFirst(a: Orderable, b: Orderable): number {
  return a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

export function mergeOrder<T extends Orderable>(saved: readonly string[], rows: readonly T[]): T[] {
  const byId = new Map(rows.map((row) => [row.id, row]));
  const listed: T[] = [];
  for (const id of saved) {
    const row = byId.get(id);
    if (row === undefined) continue;
    listed.push(row);
    byId.delete(id);
  }
  return [...listed, ...[...byId.values()].sort(oldestFirst)];
}

export type PositionChange = { id: string; from: number | null; to: number | null };

/**
 * Which connections a new order moves, with their 1-based positions before and after (null where
 * one is absent from a list): what the audit trail records for each of them.
 */
export function positionChanges(before: readonly string[], after: readonly string[]): PositionChange[] {
  const position = (list: readonly string[], id: string) => {
    const index = list.indexOf(id);
    return index === -1 ? null : index + 1;
  };
  const ids = [...new Set([...after, ...before])];
  return ids.map((id) => ({ id, from: position(before, id), to: position(after, id) })).filter((change) => change.from !== change.to);
}
