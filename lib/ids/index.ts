import { randomBytes } from "node:crypto";

/** Id prefixes of ../shared/REFERENCE.md "Resources"; the rest is 128 random bits, URL-safe. */
export type IdPrefix =
  | "mer"
  | "usr"
  | "key"
  | "conn"
  | "aud"
  | "gk"
  | "cpi"
  | "cpoi"
  | "po"
  | "evt"
  | "att"
  | "cb"
  | "whs"
  | "whd"
  | "whe"
  | "rf"
  | "rc"
  | "sim"
  | "pm"
  | "dp"
  | "alr"
  | "rql"
  | "ra"
  | "bl";

export function newId(prefix: IdPrefix): string {
  return `${prefix}_${randomBytes(16).toString("base64url")}`;
}

/** An uploaded file's id: letters and digits only after `file_` (lib/disputes/contract.ts checks evidence file ids so). */
export function newFileId(): string {
  return `file_${randomBytes(16).toString("hex")}`;
}
