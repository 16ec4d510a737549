import { createCipheriv, randomBytes } from "node:crypto";
import { parseArgs } from "node:util";
import { eq, inArray } from "drizzle-orm";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { runAdmin } from "@/lib/admin/commands";
import { rotateCredentialsKeyCommand } from "@/lib/admin/rotate-credentials-key";
import { createGeneratedKeyPair } from "@/lib/connections/key-files";
import { createConnection, editConnection } from "@/lib/connections/service";
import { revealCredentials, toConnectionView } from "@/lib/connections/store";
import { connections, generatedKeys, webhookSecrets } from "@/lib/db/schema";
import { runDueJobs } from "@/lib/jobs/queue";
import { JOB_TASKS } from "@/lib/server-jobs";
import { checkConnectionHealth, UNREADABLE_CREDENTIALS } from "@/lib/processing/connection-test";
import { sampleCredentials } from "@/lib/providers/server/sample-credentials";
import { decryptSecret, isVaultError, keyId, loadCredentialsKey, sealedKeyId } from "@/lib/vault";
import { queueCredentialsReseal } from "@/lib/vault/reseal-job";
import { resealAll, rotationStatus } from "@/lib/vault/rotation";
import { createEndpoint } from "@/lib/webhooks/endpoints";
import { signingSecrets } from "@/lib/webhooks/secrets";
import { createAttributes, editAttributes, newMerchant, parseCreate, scopeFor } from "./helpers/connection-fixtures";
import { setUpTestDb } from "./helpers/db";

/**
 * The process's key as `lib/vault/vault-key` hands it out, swapped between steps to stand for
 * a restart with other settings; each is loaded by the real loader from CREDENTIALS_KEY and
 * CREDENTIALS_KEY_PREVIOUS.
 */
const processKey = vi.hoisted(() => ({ current: undefined as Buffer | undefined }));
vi.mock("@/lib/vault/vault-key", () => ({
  credentialsKey: () => {
    if (!processKey.current) throw new Error("test: no process key loaded");
    return processKey.current;
  },
}));

const test = setUpTestDb();
const keyA = randomBytes(32);
const keyB = randomBytes(32);
const keyC = randomBytes(32);

function restartWith(env: { CREDENTIALS_KEY: Buffer; CREDENTIALS_KEY_PREVIOUS?: Buffer[] }): Buffer {
  processKey.current = loadCredentialsKey({
    env: {
      CREDENTIALS_KEY: env.CREDENTIALS_KEY.toString("base64"),
      CREDENTIALS_KEY_PREVIOUS: env.CREDENTIALS_KEY_PREVIOUS?.map((k) => k.toString("base64")).join(","),
    },
    dataDir: "/nonexistent",
    embedded: false,
  });
  return processKey.current;
}

/** A value as the vault sealed it before tokens named their key (v1). */
function legacyToken(plaintext: string, key: Buffer): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv, { authTagLength: 16 });
  cipher.setAAD(Buffer.from("v1", "utf8"));
  const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return ["v1", iv.toString("base64url"), cipher.getAuthTag().toString("base64url"), ciphertext.toString("base64url")].join(".");
}

type World = {
  merchantId: string;
  connectionIds: string[];
  legacyId: string;
  generatedKeyId: string;
  secrets: Map<string, Record<string, unknown>>;
  webhookSecret: string;
  endpointId: string;
};
let world: World;

async function sealedIds(): Promise<(string | null)[]> {
  const db = test.db;
  const rows = [
    ...(await db.select({ v: connections.secretCredentials }).from(connections).where(inArray(connections.id, world.connectionIds))),
    ...(await db.select({ v: generatedKeys.privateKey }).from(generatedKeys).where(eq(generatedKeys.id, world.generatedKeyId))),
    ...(await db.select({ v: webhookSecrets.sealed }).from(webhookSecrets).where(eq(webhookSecrets.merchantId, world.merchantId))),
  ];
  return rows.map((row) => sealedKeyId(row.v));
}

async function expectEverythingOpens(): Promise<void> {
  const rows = await test.db.select().from(connections).where(inArray(connections.id, world.connectionIds));
  expect(rows).toHaveLength(world.connectionIds.length);
  for (const row of rows) {
    const credentials = revealCredentials(row, processKey.current!);
    for (const [field, value] of Object.entries(world.secrets.get(row.id)!)) expect(credentials[field]).toEqual(value);
  }
  expect(await signingSecrets(test.db, world.endpointId)).toEqual([world.webhookSecret]);
  const [generated] = await test.db.select().from(generatedKeys).where(eq(generatedKeys.id, world.generatedKeyId));
  expect(decryptSecret(generated!.privateKey, processKey.current!)).toContain("PRIVATE KEY");
}

describe("rotating the credentials key (CREDENTIALS_KEY_PREVIOUS)", () => {
  beforeAll(async () => {
    const key = restartWith({ CREDENTIALS_KEY: keyA });
    const merchantId = await newMerchant(test.db);
    const scope = scopeFor(test.db, merchantId, key);
    const connectionIds: string[] = [];
    const secrets = new Map<string, Record<string, unknown>>();
    for (const [provider, kind] of [
      ["provider-b", "h2h"],
      ["provider-c", "h2h"],
      ["provider-c", "h2h"],
      ["provider-b", "h2h"],
    ] as const) {
      const credentials = sampleCredentials(provider, kind, "test");
      const created = await createConnection(scope, parseCreate(createAttributes(provider, kind, "test", { credentials })));
      if (!created.ok) throw new Error(`setup: ${JSON.stringify(created.problems)}`);
      connectionIds.push(created.value.id);
      secrets.set(created.value.id, credentials);
    }
    // One connection as saved before this change: a v1 value, which names no key.
    const legacyId = connectionIds[0]!;
    const [legacyRow] = await test.db.select().from(connections).where(eq(connections.id, legacyId));
    const plain = JSON.stringify(Object.fromEntries(Object.entries(revealCredentials(legacyRow!, key)).filter(([field]) => field in legacyRow!.secretHints)));
    await test.db
      .update(connections)
      .set({ secretCredentials: legacyToken(plain, keyA) })
      .where(eq(connections.id, legacyId));
    const generated = await createGeneratedKeyPair(test.db, merchantId, key);
    const endpoint = await createEndpoint(test.db, merchantId, {
      url: "http://127.0.0.1:9/hooks",
      description: "",
      enabled: true,
      allEvents: true,
      eventTypes: [],
    });
    if (!endpoint.ok) throw new Error(`setup: ${JSON.stringify(endpoint.problems)}`);
    world = { merchantId, connectionIds, legacyId, generatedKeyId: generated.id, secrets, webhookSecret: endpoint.value.secret, endpointId: endpoint.value.id };
  });

  it("seals under A; after a restart with B current and A previous everything still opens, and new values go under B", async () => {
    const before = await sealedIds();
    expect(before.filter((id) => id === null)).toHaveLength(1);
    expect(before.filter((id) => id !== null)).toEqual(Array(before.length - 1).fill(keyId(keyA)));
    const key = restartWith({ CREDENTIALS_KEY: keyB, CREDENTIALS_KEY_PREVIOUS: [keyA] });
    await expectEverythingOpens();
    // An edit opens the stored values under A and saves them under B.
    const edited = world.connectionIds[1]!;
    const result = await editConnection(scopeFor(test.db, world.merchantId, key), edited, editAttributes({ label: "Renamed during the rotation" }));
    expect(result?.ok).toBe(true);
    const [row] = await test.db.select().from(connections).where(eq(connections.id, edited));
    expect(sealedKeyId(row!.secretCredentials)).toBe(keyId(keyB));
    await expectEverythingOpens();
  });

  it("the status counts what remains under A and v1; the job queued at start re-seals every row, once per window", async () => {
    const key = restartWith({ CREDENTIALS_KEY: keyB, CREDENTIALS_KEY_PREVIOUS: [keyA] });
    const before = await rotationStatus(test.db, key);
    expect(before.currentKeyId).toBe(keyId(keyB));
    expect(before.previousKeyIds).toEqual([keyId(keyA)]);
    const byColumn = Object.fromEntries(before.columns.map((c) => [c.column, c]));
    expect(byColumn["connections.secret_credentials"]!.previous[keyId(keyA)]).toBeGreaterThanOrEqual(2);
    expect(byColumn["connections.secret_credentials"]!.legacy).toBeGreaterThanOrEqual(1);
    expect(byColumn["generated_keys.private_key"]!.previous[keyId(keyA)]).toBeGreaterThanOrEqual(1);
    expect(byColumn["webhook_secrets.sealed"]!.previous[keyId(keyA)]).toBeGreaterThanOrEqual(1);
    expect(before.remaining).toBeGreaterThanOrEqual(5);
    expect(JSON.stringify(before)).not.toContain(keyA.toString("base64"));

    // The worker's sweep at start queues one job; a second instance's sweep in the same window does not.
    expect(await queueCredentialsReseal(test.db)).toBe(1);
    expect(await queueCredentialsReseal(test.db)).toBe(0);
    expect(await runDueJobs(test.db, JOB_TASKS, { names: ["credentials-reseal"] })).toBe(1);
    expect(new Set(await sealedIds())).toEqual(new Set([keyId(keyB)]));
    const after = await rotationStatus(test.db, key);
    for (const column of after.columns) expect(column.previous[keyId(keyA)]).toBeUndefined();
    expect(after.columns.reduce((n, c) => n + c.legacy, 0)).toBe(0);
    // Nothing left under A: the sweep queues nothing more.
    expect(await queueCredentialsReseal(test.db, Date.now() + 3_600_000)).toBe(0);
    await expectEverythingOpens();
  });

  it("two passes at once (two instances) re-seal each row exactly once and lose nothing", async () => {
    restartWith({ CREDENTIALS_KEY: keyA });
    const key = processKey.current!;
    const merchantId = await newMerchant(test.db);
    const ids: string[] = [];
    for (let i = 0; i < 7; i += 1) {
      const created = await createConnection(scopeFor(test.db, merchantId, key), parseCreate(createAttributes("provider-b", "h2h")));
      if (!created.ok) throw new Error("setup");
      ids.push(created.value.id);
    }
    const rotated = restartWith({ CREDENTIALS_KEY: keyB, CREDENTIALS_KEY_PREVIOUS: [keyA] });
    const [first, second] = await Promise.all([resealAll(test.db, rotated, { batchSize: 2 }), resealAll(test.db, rotated, { batchSize: 3 })]);
    const mine = await test.db.select().from(connections).where(inArray(connections.id, ids));
    expect(mine.map((row) => sealedKeyId(row.secretCredentials))).toEqual(ids.map(() => keyId(keyB)));
    for (const row of mine) expect(Object.keys(revealCredentials(row, rotated))).toEqual(expect.arrayContaining(Object.keys(row.secretHints)));
    expect(first.resealed + second.resealed).toBe(7);
    // Idempotent: a third pass finds nothing of ours to do.
    expect((await resealAll(test.db, rotated)).resealed).toBe(0);
  });

  it("with A removed, everything still opens; `rotate-credentials-key --status` says the rotation is done", async () => {
    const key = restartWith({ CREDENTIALS_KEY: keyB });
    await expectEverythingOpens();
    const status = await rotateCredentialsKeyCommand(test.db, { statusOnly: true });
    expect(status).toMatchObject({ currentKeyId: keyId(keyB), previousKeyIds: [] });
    expect(status.pass).toBeUndefined();
    const columns = status.columns as { column: string; previous: Record<string, number> }[];
    for (const column of columns) expect(column.previous).toEqual({});
    expect(JSON.stringify(status)).not.toContain(key.toString("base64"));
  });

  it("the admin command runs the pass in the foreground and refuses options it does not take", async () => {
    restartWith({ CREDENTIALS_KEY: keyA });
    const merchantId = await newMerchant(test.db);
    const created = await createConnection(scopeFor(test.db, merchantId, processKey.current!), parseCreate(createAttributes("provider-b", "h2h")));
    if (!created.ok) throw new Error("setup");
    restartWith({ CREDENTIALS_KEY: keyB, CREDENTIALS_KEY_PREVIOUS: [keyA] });
    const pending = await rotateCredentialsKeyCommand(test.db, { statusOnly: true });
    expect(pending.remaining).toBeGreaterThanOrEqual(1);
    expect(pending.done).toBe(false);
    const ran = await rotateCredentialsKeyCommand(test.db, { statusOnly: false });
    expect((ran.pass as { resealed: number }).resealed).toBeGreaterThanOrEqual(1);
    const columns = ran.columns as { previous: Record<string, number> }[];
    for (const column of columns) expect(column.previous).toEqual({});
    const [row] = await test.db.select().from(connections).where(eq(connections.id, created.value.id));
    expect(sealedKeyId(row!.secretCredentials)).toBe(keyId(keyB));
    await expect(runAdmin(["rotate-credentials-key", "--email", "x@example.com"], parseArgs)).rejects.toThrow(
      "--email is not an option of rotate-credentials-key",
    );
    await expect(runAdmin(["rotate-credentials-key", "--reset"], parseArgs)).rejects.toThrow("--reset belongs to seed-demo only");
  });

  it("a value under a key that is not configured: a clear error naming its key id, left alone by the pass, no failure on pages", async () => {
    restartWith({ CREDENTIALS_KEY: keyC });
    const merchantId = await newMerchant(test.db);
    const created = await createConnection(scopeFor(test.db, merchantId, processKey.current!), parseCreate(createAttributes("provider-b", "h2h")));
    if (!created.ok) throw new Error("setup");
    const key = restartWith({ CREDENTIALS_KEY: keyB, CREDENTIALS_KEY_PREVIOUS: [keyA] });
    const [row] = await test.db.select().from(connections).where(eq(connections.id, created.value.id));
    let thrown: unknown;
    try {
      revealCredentials(row!, key);
    } catch (error) {
      thrown = error;
    }
    expect(isVaultError(thrown) && thrown.code).toBe("unknown_key");
    expect((thrown as Error).message).toContain(keyId(keyC));

    const pass = await resealAll(test.db, key);
    expect(pass.unreadable["connections.secret_credentials"]).toBeGreaterThanOrEqual(1);
    const [untouched] = await test.db.select().from(connections).where(eq(connections.id, created.value.id));
    expect(untouched!.secretCredentials).toBe(row!.secretCredentials);
    const status = await rotationStatus(test.db, key);
    expect(status.columns.find((c) => c.column === "connections.secret_credentials")!.unknown[keyId(keyC)]).toBeGreaterThanOrEqual(1);
    // Nothing to re-seal is under A: the stuck value does not keep queuing jobs.
    expect(await queueCredentialsReseal(test.db, Date.now() + 7_200_000)).toBe(0);

    // The connection page shows hints only; Test connection answers without sending anything.
    const secretField = Object.keys(row!.secretHints)[0]!;
    expect(toConnectionView(row!).credentials.find((c) => c.id === secretField)).toMatchObject({ secret: true, set: true });
    expect(await checkConnectionHealth(test.db, merchantId, created.value.id)).toEqual({ kind: "unreachable", message: UNREADABLE_CREDENTIALS });
    // An edit needs the stored secrets: refused with a problem that says why, not a server error.
    const edit = await editConnection(scopeFor(test.db, merchantId, key), created.value.id, editAttributes({ label: "Renamed" }));
    expect(edit).toEqual({ ok: false, problems: [expect.objectContaining({ code: "credentials_unreadable", path: ["credentials"] })] });
    expect(JSON.stringify(edit)).not.toContain(keyC.toString("base64"));
  });
});
