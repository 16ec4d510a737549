import type { IdPrefix } from "./index";

/**
 * The shape of an id as lookups accept it: its prefix, then base64url text. newId writes 22
 * characters; lookups take 1 to 64, the bound the invoice API has always taken, so no id a client
 * could name before is refused now (an id of another length is simply not found). Anything else
 * cannot exist, and refusing it early keeps odd bytes (NUL) from the database.
 */
function idPattern(...prefixes: readonly IdPrefix[]): RegExp {
  const prefix = prefixes.length === 1 ? prefixes[0] : `(?:${prefixes.join("|")})`;
  return new RegExp(`^${prefix}_[A-Za-z0-9_-]{1,64}$`);
}

/** A payment or payout invoice's id. */
export const INVOICE_ID = idPattern("cpi", "cpoi");
/** A payment invoice's id: the hosted page's. */
export const PAYMENT_INVOICE_ID = idPattern("cpi");
/** A payout invoice's id. */
export const PAYOUT_INVOICE_ID = idPattern("cpoi");
/** A refund's id. */
export const REFUND_ID = idPattern("rf");
/** A connection's id. */
export const CONNECTION_ID = idPattern("conn");
/** A webhook event's id. */
export const EVENT_ID = idPattern("evt");
/** A webhook endpoint's id. */
export const ENDPOINT_ID = idPattern("whe");
/** A dispute's id. */
export const DISPUTE_ID = idPattern("dp");
/** An uploaded file's id (newFileId: letters and digits). */
export const FILE_ID = /^file_[A-Za-z0-9]{1,64}$/;
/** An alert's id (the Alerts page's history position). */
export const ALERT_ID = idPattern("alr");
/** A blocklist entry's id. */
export const BLOCKLIST_ID = idPattern("bl");
