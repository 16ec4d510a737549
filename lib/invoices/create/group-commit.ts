/**
 * Group commit for invoice creates: requests that arrive while earlier ones are being written wait
 * for that write to finish and are then written together, in one statement (one transaction, one
 * flush). Nothing waits for a timer: a create that finds a free lane is written at once, alone, so
 * a single request pays no added latency; only creates that would have queued on the database
 * anyway are grouped.
 *
 * `lanes` is how many writes may be in flight at once: 1 on the embedded PGlite (one connection,
 * one writer: everything queues behind the write in flight), a few on PostgreSQL (each write takes
 * its own pool connection). `cap` bounds a batch (and so its statement's parameters).
 *
 * A batch that fails is retried one item at a time, so a row the database refuses fails its own
 * request only, and a request is answered only with what its own write returned: nothing is
 * reported stored unless the statement that stored it committed.
 */
export type Batcher<Item, Out> = { add: (item: Item) => Promise<Out> };

type Pending<Item, Out> = { item: Item; resolve: (out: Out) => void; reject: (error: unknown) => void };

export function groupCommit<Item, Out>(options: {
  lanes: number;
  cap: number;
  /** Writes the items in one statement; answers each item's outcome in order. */
  write: (items: Item[]) => Promise<Out[]>;
}): Batcher<Item, Out> {
  const queue: Pending<Item, Out>[] = [];
  let inFlight = 0;

  async function run(batch: Pending<Item, Out>[]): Promise<void> {
    try {
      const outs = await options.write(batch.map((entry) => entry.item));
      batch.forEach((entry, index) => entry.resolve(outs[index]!));
    } catch (error) {
      if (batch.length === 1) return batch[0]!.reject(error);
      // One refused row (or a deadlock between two batches) must not fail the others: one by one.
      for (const entry of batch) {
        try {
          entry.resolve((await options.write([entry.item]))[0]!);
        } catch (single) {
          entry.reject(single);
        }
      }
    }
  }

  function pump(): void {
    while (inFlight < options.lanes && queue.length > 0) {
      const batch = queue.splice(0, options.cap);
      inFlight++;
      void run(batch).finally(() => {
        inFlight--;
        pump();
      });
    }
  }

  return {
    add: (item) =>
      new Promise<Out>((resolve, reject) => {
        queue.push({ item, resolve, reject });
        pump();
      }),
  };
}
