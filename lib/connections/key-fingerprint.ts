import "server-only";
import { createHash, createPrivateKey, createPublicKey, type KeyObject } from "node:crypto";

export type KeyDescription = {
  /** "RSA 2048 public key", "Ed25519 private key". */
  type: string;
  /** SHA-256 of the public key's DER (SPKI), shortened: "SHA256:ab12cd34ef567890…". */
  fingerprint: string;
};

function algorithmOf(key: KeyObject): string {
  const details = key.asymmetricKeyDetails ?? {};
  switch (key.asymmetricKeyType) {
    case "rsa":
    case "rsa-pss":
      return `RSA ${details.modulusLength ?? ""}`.trim();
    case "ec":
      return `EC ${details.namedCurve === "prime256v1" ? "P-256" : details.namedCurve === "secp384r1" ? "P-384" : (details.namedCurve ?? "")}`.trim();
    case "ed25519":
      return "Ed25519";
    case "ed448":
      return "Ed448";
    default:
      return (key.asymmetricKeyType ?? "Unknown").toUpperCase();
  }
}

/**
 * What a key file is, told without its material: its type and the fingerprint of its public half
 * (a private key's public half is derived, so a pair shows the same fingerprint). Null when
 * node:crypto cannot read the text. Never returns anything of a private key but its public half.
 */
export function describeKeyPem(pem: string): KeyDescription | null {
  try {
    const isPrivate = /-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(pem);
    const publicKey = isPrivate ? createPublicKey(createPrivateKey(pem)) : createPublicKey(pem);
    const der = publicKey.export({ type: "spki", format: "der" });
    const digest = createHash("sha256").update(der).digest("hex");
    return { type: `${algorithmOf(publicKey)} ${isPrivate ? "private" : "public"} key`, fingerprint: `SHA256:${digest.slice(0, 16)}…` };
  } catch {
    return null;
  }
}

/** One line for pages and API answers: "RSA 2048 public key · SHA256:ab12cd34ef567890…". */
export function keySummary(pem: string): string | null {
  const described = describeKeyPem(pem);
  return described ? `${described.type} · ${described.fingerprint}` : null;
}

export function looksLikePem(value: unknown): value is string {
  return typeof value === "string" && value.includes("-----BEGIN");
}
