import { generateKeyPairSync } from "node:crypto";

export type PemPair = { publicKey: string; privateKey: string };

export function pemPair(): PemPair {
  const { publicKey, privateKey } = generateKeyPairSync("rsa", {
    modulusLength: 2048,
    publicKeyEncoding: { type: "spki", format: "pem" },
    privateKeyEncoding: { type: "pkcs8", format: "pem" },
  });
  return { publicKey, privateKey };
}

export function pemFile(name: string, text: string) {
  return { name, mimeType: "application/x-pem-file", buffer: Buffer.from(text) };
}
