import "server-only";
import { generateKeyPairSync } from "node:crypto";

export type GeneratedKeyPair = { publicKeyPem: string; privateKeyPem: string };

/** RSA 2048 in spki/pkcs8 PEM: the formats the providers' key-file fields accept (spec 5.1 note 5). */
export function generateKeyPair(): GeneratedKeyPair {
  const { publicKey, privateKey } = generateKeyPairSync("rsa", {
    modulusLength: 2048,
    publicKeyEncoding: { type: "spki", format: "pem" },
    privateKeyEncoding: { type: "pkcs8", format: "pem" },
  });
  return { publicKeyPem: publicKey, privateKeyPem: privateKey };
}
