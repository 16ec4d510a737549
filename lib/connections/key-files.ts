import "server-only";
import { createPrivateKey, createPublicKey } from "node:crypto";
import { and, eq, gt, isNull } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { generatedKeys } from "@/lib/db/schema";
import { fail, ok, problem, type Problem, type Result } from "@/lib/problems";
import { newId } from "@/lib/ids";
import type { CredentialValues, KindSpec } from "@/lib/providers";
import { generateKeyPair } from "@/lib/providers/server/generate-key-pair";
import { parseKeyFile } from "@/lib/providers/server/parse-key";
import { decryptSecret, encryptSecret } from "@/lib/vault";

/** A generated pair waits this long for the connection form to be saved. */
const GENERATED_KEY_TTL_MS = 24 * 60 * 60_000;

/** Server-side key checks the browser cannot do: node:crypto must be able to read every key file. */
export function checkKeyFiles(kind: KindSpec, credentials: CredentialValues): Problem[] {
  const problems: Problem[] = [];
  for (const field of kind.fields) {
    const value = credentials[field.id];
    if (field.input !== "key_file" || !field.pem || typeof value !== "string" || !value) continue;
    const refusal = parseKeyFile(value, field.pem);
    if (refusal) problems.push(problem("invalid_key_file", refusal, ["credentials", field.id]));
  }
  const mismatch = problems.length ? undefined : keyPairMismatch(kind, credentials);
  return mismatch ? [...problems, mismatch] : problems;
}

/**
 * The kind's two key files are one pair, or the provider refuses every request signed with them:
 * the problem names the public half, whose field the person most likely filled from the wrong file.
 */
export function keyPairMismatch(kind: KindSpec, credentials: CredentialValues): Problem | undefined {
  if (!kind.keyPair) return undefined;
  const publicPem = credentials[kind.keyPair.publicField];
  const privatePem = credentials[kind.keyPair.privateField];
  if (typeof publicPem !== "string" || typeof privatePem !== "string" || !publicPem || !privatePem) return undefined;
  if (keysMatch(publicPem, privatePem)) return undefined;
  const labelOf = (id: string) => kind.fields.find((field) => field.id === id)?.label ?? id;
  const publicLabel = labelOf(kind.keyPair.publicField);
  const privateLabel = labelOf(kind.keyPair.privateField);
  return problem(
    "key_pair_mismatch",
    `${publicLabel} and ${privateLabel} are not a pair: the ${publicLabel.toLowerCase()} was not made from this ${privateLabel.toLowerCase()}`,
    ["credentials", kind.keyPair.publicField],
  );
}

function keysMatch(publicPem: string, privatePem: string): boolean {
  const derived = createPublicKey(createPrivateKey(privatePem)).export({ type: "spki", format: "der" });
  const given = createPublicKey(publicPem).export({ type: "spki", format: "der" });
  return derived.equals(given);
}

/** Provider E: the merchant generates its pair here; the private key goes straight into the vault. */
export async function createGeneratedKeyPair(db: Db, merchantId: string, vaultKey: Buffer) {
  const pair = generateKeyPair();
  const id = newId("gk");
  await db.insert(generatedKeys).values({
    id,
    merchantId,
    privateKey: encryptSecret(pair.privateKeyPem, vaultKey),
    publicKey: pair.publicKeyPem,
  });
  return { id, publicKeyPem: pair.publicKeyPem };
}

/**
 * Swaps `generated_key_id` for the generated private key, once. Runs inside the caller's
 * transaction so the key is consumed only if the connection is saved.
 */
export async function takeGeneratedKey(db: Db, merchantId: string, credentials: CredentialValues, vaultKey: Buffer): Promise<Result<CredentialValues>> {
  const { generated_key_id: id, ...rest } = credentials;
  if (typeof id !== "string" || !id) return ok(rest);
  if (typeof rest.private_key === "string" && rest.private_key) return ok(rest);
  const [row] = await db
    .update(generatedKeys)
    .set({ consumedAt: new Date() })
    .where(
      and(
        eq(generatedKeys.id, id),
        eq(generatedKeys.merchantId, merchantId),
        isNull(generatedKeys.consumedAt),
        gt(generatedKeys.createdAt, new Date(Date.now() - GENERATED_KEY_TTL_MS)),
      ),
    )
    .returning();
  if (!row) {
    return fail([
      problem("generated_key_unavailable", "The generated key pair has expired or was already used. Generate a new pair, or upload your private key.", [
        "credentials",
        "private_key",
      ]),
    ]);
  }
  return ok({ ...rest, private_key: decryptSecret(row.privateKey, vaultKey) });
}
