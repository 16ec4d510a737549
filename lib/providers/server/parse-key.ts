import "server-only";
import { createPrivateKey, createPublicKey } from "node:crypto";
import { checkPem, type PemKind } from "../pem";

const FIELD_LABEL: Readonly<Record<PemKind, string>> = { public: "Public key", private: "Private key" };

/**
 * Returns why `text` is not a usable key of the expected kind, or null when node:crypto reads it.
 * The structural check runs first because createPublicKey would happily derive a public key from
 * a private one, which must instead be reported as the wrong file.
 */
export function parseKeyFile(text: string, expected: PemKind): string | null {
  const structural = checkPem(text, expected, FIELD_LABEL[expected]);
  if (structural !== null) return structural;
  try {
    if (expected === "public") createPublicKey({ key: text, format: "pem" });
    else createPrivateKey({ key: text, format: "pem" });
    return null;
  } catch {
    return `${FIELD_LABEL[expected]} could not be read: the file is not a valid ${expected} key`;
  }
}
