import type { Db } from "@/lib/db/client";
import { findConnectionRow } from "@/lib/connections/queries";
import type { ConnectionRow } from "@/lib/connections/store";
import type { Mode } from "@/lib/providers";
import { keyServes, notFoundForKey } from "./key-mode";

/**
 * The connection named in a path, if it is the merchant's and of the API key's mode; else 404. A
 * connection's mode never changes, so what is checked here still holds when the change is written.
 */
export async function findKeyConnection(db: Db, merchantId: string, id: string, keyMode: Mode | undefined): Promise<ConnectionRow> {
  const row = await findConnectionRow(db, merchantId, id);
  if (!row || !keyServes(keyMode, row.mode)) throw notFoundForKey(keyMode, `connection ${id}`);
  return row;
}
