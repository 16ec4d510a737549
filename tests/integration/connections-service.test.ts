import { createPrivateKey, createPublicKey, randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { createGeneratedKeyPair } from "@/lib/connections/key-files";
import { listConnectionAudit as listAudit } from "@/lib/audit/read";
import { findConnectionRow, getConnection, listConnections } from "@/lib/connections/queries";
import { createConnectionSchema, updateConnectionSchema } from "@/lib/connections/schemas";
import { createConnection, deleteConnection, editConnection, setConnectionEnabled, updateConnection } from "@/lib/connections/service";
import { keySummary } from "@/lib/connections/key-fingerprint";
import { kindOf, openSecrets, revealCredentials } from "@/lib/connections/store";
import { generateKeyPair } from "@/lib/providers/server/generate-key-pair";
import { sampleCredentials } from "@/lib/providers/server/sample-credentials";
import { unique, setUpTestDb } from "./helpers/db";
import { connections } from "@/lib/db/schema";
import { encryptJson } from "@/lib/vault";
import { connect, invoiceMerchant } from "./helpers/invoice-fixtures";
import {
  PROVIDER_KINDS,
  createAttributes,
  editAttributes,
  kindSpec,
  leaksIn,
  newMerchant,
  parseCreate,
  rawConnectionRow,
  scopeFor,
  secretFieldIds,
  type Scope,
} from "./helpers/connection-fixtures";

/** A secret's masked hint: key files by type and public fingerprint, other secrets by their last four characters. */
function hintFor(value: unknown): string {
  const text = String(value);
  return text.includes("-----BEGIN") ? keySummary(text)! : `••••${text.slice(-4)}`;
}

const t = setUpTestDb();
const vaultKey = randomBytes(32);

async function newScope(actor?: string): Promise<Scope> {
  return scopeFor(t.db, await newMerchant(t.db), vaultKey, actor);
}

async function create(scope: Scope, attributes: Record<string, unknown>) {
  return createConnection(scope, parseCreate(attributes));
}

async function createOk(scope: Scope, attributes: Record<string, unknown>) {
  const result = await create(scope, attributes);
  if (!result.ok) throw new Error(`setup: ${JSON.stringify(result.problems)}`);
  return result.value;
}

/** Parses an edit as the app does, against the stored connection's kind. */
async function update(scope: Scope, id: string, changes: Record<string, unknown>) {
  const row = await findConnectionRow(scope.db, scope.merchantId, id);
  if (!row) throw new Error(`setup: no connection ${id}`);
  return updateConnection(scope, id, updateConnectionSchema(kindOf(row)).parse(editAttributes(changes)));
}

async function revealed(scope: Scope, id: string) {
  const row = await findConnectionRow(scope.db, scope.merchantId, id);
  if (!row) throw new Error(`no connection ${id}`);
  return revealCredentials(row, scope.vaultKey);
}

function spki(pem: string): Buffer {
  return createPublicKey(pem).export({ type: "spki", format: "der" });
}

describe("creating a connection for every provider and kind (spec 1, 5.1)", () => {
  it.each(PROVIDER_KINDS)("stores %s %s with its secrets encrypted and only masked hints in clear", async (provider, kind) => {
    const scope = await newScope();
    const attributes = createAttributes(provider, kind, "test");
    const view = await createOk(scope, attributes);

    expect(view).toMatchObject({ provider, kind, label: attributes.label, mode: "test", enabled: true });
    expect(view.id).toMatch(/^conn_[A-Za-z0-9_-]{22}$/);

    const secretIds = secretFieldIds(provider, kind);
    expect(secretIds.length).toBeGreaterThan(0);
    const input = parseCreate(attributes).credentials;
    const secrets = secretIds.map((id) => String(input[id]));

    const row = await rawConnectionRow(t.db, view.id);
    expect(leaksIn(JSON.stringify(row), secrets)).toEqual([]);
    expect(Object.keys(row.secretHints).sort()).toEqual([...secretIds].sort());
    for (const id of secretIds) expect(row.secretHints[id]).toBe(hintFor(input[id]));
    // Non-secret values stay readable (lists, routing and forms need them).
    for (const field of kindSpec(provider, kind).fields.filter((f) => !f.secret && input[f.id] !== undefined)) {
      expect(row.publicCredentials[field.id]).toEqual(input[field.id]);
    }
    // The vault gives back exactly what was entered.
    expect(revealCredentials(row, vaultKey)).toEqual(input);
    // The view handed to pages shows secrets as hints only.
    expect(leaksIn(JSON.stringify(view), secrets)).toEqual([]);
  });

  it("cannot decrypt the stored secrets with another vault key", async () => {
    const scope = await newScope();
    const view = await createOk(scope, createAttributes("provider-b", "h2h"));
    const row = await rawConnectionRow(t.db, view.id);
    expect(() => revealCredentials(row, randomBytes(32))).toThrow();
  });
});

describe("editing credentials", () => {
  it("keeps a secret left blank and changes the other values", async () => {
    const scope = await newScope();
    const view = await createOk(scope, createAttributes("provider-b", "h2h"));
    const before = await revealed(scope, view.id);
    const result = await update(scope, view.id, { credentials: { terminal_id: "TERM-9000", secret_key: "", currency: "EUR" } });
    expect(result?.ok).toBe(true);
    const after = await revealed(scope, view.id);
    expect(after.secret_key).toBe(before.secret_key);
    expect(after.terminal_id).toBe("TERM-9000");
  });

  it("keeps a blank secret equal when only the label changes", async () => {
    const scope = await newScope();
    const view = await createOk(scope, createAttributes("provider-c", "provider_account"));
    const before = await revealed(scope, view.id);
    const result = await update(scope, view.id, { label: unique("Renamed"), credentials: { shop_login: "demo-shop", shop_password: "   " } });
    expect(result?.ok).toBe(true);
    expect(await revealed(scope, view.id)).toEqual(before);
  });

  it("replaces one secret of Provider D and keeps the other", async () => {
    const scope = await newScope();
    const attributes = createAttributes("provider-d", "h2h");
    const view = await createOk(scope, attributes);
    const before = await revealed(scope, view.id);
    const newApiKey = randomBytes(24).toString("base64url");
    const { api_key: _a, secret_key: _s, ...rest } = attributes.credentials;
    const result = await update(scope, view.id, { credentials: { ...rest, api_key: newApiKey } });
    expect(result?.ok).toBe(true);
    const after = await revealed(scope, view.id);
    expect(after.api_key).toBe(newApiKey);
    expect(after.secret_key).toBe(before.secret_key);
    const row = await rawConnectionRow(t.db, view.id);
    expect(row.secretHints).toEqual({ api_key: `••••${newApiKey.slice(-4)}`, secret_key: `••••${String(before.secret_key).slice(-4)}` });
    expect(leaksIn(JSON.stringify(row), [newApiKey, String(before.secret_key)])).toEqual([]);
  });
});

describe("labels", () => {
  it("are unique per merchant regardless of case, on create and on rename", async () => {
    const scope = await newScope();
    const label = unique("Main EUR");
    const first = await createOk(scope, createAttributes("provider-b", "h2h", "test", { label }));
    const again = await create(scope, createAttributes("provider-c", "provider_account", "test", { label: label.toUpperCase() }));
    expect(again.ok).toBe(false);
    expect(!again.ok && again.problems).toEqual([
      expect.objectContaining({ path: ["label"], code: "label_taken", message: expect.stringContaining(label.toUpperCase()) }),
    ]);
    expect(await listConnections(t.db, scope.merchantId)).toHaveLength(1);

    const second = await createOk(scope, createAttributes("provider-c", "provider_account"));
    const rename = await update(scope, second.id, { label: `  ${label.toLowerCase()} ` });
    expect(rename?.ok).toBe(false);
    expect(rename && !rename.ok && rename.problems.map((e) => e.path)).toEqual([["label"]]);
    expect((await getConnection(t.db, scope.merchantId, second.id))?.label).toBe(second.label);

    // Changing only the case of its own label is not a conflict.
    const recase = await update(scope, first.id, { label: label.toUpperCase() });
    expect(recase?.ok && recase.value.label).toBe(label.toUpperCase());
  });

  it("may repeat across merchants", async () => {
    const label = unique("Shared label");
    const a = await newScope();
    const b = await newScope();
    await createOk(a, createAttributes("provider-b", "h2h", "test", { label }));
    const other = await create(b, createAttributes("provider-b", "h2h", "test", { label }));
    expect(other.ok).toBe(true);
  });

  it("gives one winner and field errors, not a crash, when the same label is saved concurrently", async () => {
    const scope = await newScope();
    const label = unique("Race");
    const results = await Promise.all(Array.from({ length: 4 }, () => create(scope, createAttributes("provider-c", "provider_account", "test", { label }))));
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    for (const r of results.filter((r) => !r.ok)) expect(!r.ok && r.problems.map((e) => e.path)).toEqual([["label"]]);
  });
});

describe("Provider D: one enabled connection per currency and mode", () => {
  const reason = kindSpec("provider-d", "h2h").onePerCurrencyAndMode!.reason;

  it("refuses a second enabled one in the same mode, allows the other mode, and allows it after disabling", async () => {
    const scope = await newScope();
    const first = await createOk(scope, createAttributes("provider-d", "h2h", "test", { label: unique("D test one") }));

    const clash = await create(scope, createAttributes("provider-d", "h2h", "test"));
    expect(clash.ok).toBe(false);
    expect(!clash.ok && clash.problems).toEqual([expect.objectContaining({ path: ["credentials", "currency"], message: expect.stringContaining(reason) })]);
    expect(!clash.ok && clash.problems[0]!.message).toContain(first.label);

    const live = await create(scope, createAttributes("provider-d", "h2h", "live"));
    expect(live.ok && live.value.mode).toBe("live");

    const disabled = await setConnectionEnabled(scope, first.id, false);
    expect(disabled?.ok && disabled.value.enabled).toBe(false);
    const replacement = await create(scope, createAttributes("provider-d", "h2h", "test", { label: unique("D test two") }));
    expect(replacement.ok).toBe(true);

    const reenable = await setConnectionEnabled(scope, first.id, true);
    expect(reenable?.ok).toBe(false);
    expect(reenable && !reenable.ok && reenable.problems).toEqual([expect.objectContaining({ path: ["enabled"], message: expect.stringContaining(reason) })]);
    expect((await getConnection(t.db, scope.merchantId, first.id))?.enabled).toBe(false);

    // Another merchant has its own slots.
    const other = await newScope();
    expect((await create(other, createAttributes("provider-d", "h2h", "test"))).ok).toBe(true);
  });

  it("keeps a test connection in test mode even where the live slot is free: the mode is fixed at creation", async () => {
    const scope = await newScope();
    const testOne = await createOk(scope, createAttributes("provider-d", "h2h", "test"));
    const moved = await update(scope, testOne.id, { mode: "live" });
    expect(moved && !moved.ok && moved.problems.map((e) => [e.code, e.path])).toEqual([["mode_fixed", ["mode"]]]);
    expect((await getConnection(t.db, scope.merchantId, testOne.id))?.mode).toBe("test");
  });

  it("gives one winner when two are saved concurrently for the same currency and mode", async () => {
    const scope = await newScope();
    const results = await Promise.all(Array.from({ length: 4 }, () => create(scope, createAttributes("provider-d", "h2h", "test"))));
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    for (const r of results.filter((r) => !r.ok)) expect(!r.ok && r.problems.map((e) => e.path)).toEqual([["credentials", "currency"]]);
  });
});

describe("enabled state", () => {
  it("stays disabled when a disabled connection is edited", async () => {
    const scope = await newScope();
    const first = await createOk(scope, createAttributes("provider-d", "h2h", "test"));
    await setConnectionEnabled(scope, first.id, false);
    // The slot is now someone else's; editing the disabled one must neither enable it nor clash.
    await createOk(scope, createAttributes("provider-d", "h2h", "test"));
    const newLabel = unique("Edited while off");
    const edited = await update(scope, first.id, { label: newLabel });
    expect(edited?.ok).toBe(true);
    const view = await getConnection(t.db, scope.merchantId, first.id);
    expect(view).toMatchObject({ label: newLabel, enabled: false });
    expect(await listConnections(t.db, scope.merchantId, { state: "disabled" })).toEqual([expect.objectContaining({ id: first.id })]);
  });
});

describe("deleting", () => {
  it("hides the connection and frees its label", async () => {
    const scope = await newScope();
    const label = unique("Doomed");
    const view = await createOk(scope, createAttributes("provider-b", "h2h", "test", { label }));
    expect(await deleteConnection(scope, view.id)).toBe(true);
    expect(await getConnection(t.db, scope.merchantId, view.id)).toBeUndefined();
    expect(await listConnections(t.db, scope.merchantId)).toEqual([]);
    expect(await deleteConnection(scope, view.id)).toBe(false);
    expect(await updateConnection(scope, view.id, updateConnectionSchema(kindOf(view)).parse(editAttributes({ label: "Back" })))).toBeUndefined();
    const reused = await create(scope, createAttributes("provider-b", "h2h", "test", { label }));
    expect(reused.ok).toBe(true);
  });

  it("frees a Provider D slot", async () => {
    const scope = await newScope();
    const view = await createOk(scope, createAttributes("provider-d", "h2h", "test"));
    expect(await deleteConnection(scope, view.id)).toBe(true);
    expect((await create(scope, createAttributes("provider-d", "h2h", "test"))).ok).toBe(true);
  });
});

describe("merchant isolation", () => {
  it("does not let another merchant read, edit or delete a connection", async () => {
    const owner = await newScope();
    const stranger = await newScope();
    const view = await createOk(owner, createAttributes("provider-b", "h2h"));
    const before = await rawConnectionRow(t.db, view.id);

    expect(await getConnection(t.db, stranger.merchantId, view.id)).toBeUndefined();
    expect(await findConnectionRow(t.db, stranger.merchantId, view.id)).toBeUndefined();
    expect(await listConnections(t.db, stranger.merchantId)).toEqual([]);
    const parsed = updateConnectionSchema(kindOf(before)).parse(editAttributes({ label: "Hijacked", enabled: false }));
    expect(await updateConnection(stranger, view.id, parsed)).toBeUndefined();
    expect(await setConnectionEnabled(stranger, view.id, false)).toBeUndefined();
    expect(await deleteConnection(stranger, view.id)).toBe(false);

    expect(await rawConnectionRow(t.db, view.id)).toEqual(before);
    expect(await listAudit(t.db, stranger.merchantId, view.id)).toEqual([]);
  });
});

describe("audit trail", () => {
  it("records who created, edited, disabled and deleted, naming fields and never secret values", async () => {
    const actor = "Ada Auditor <ada@example.com>";
    const scope = await newScope(actor);
    const attributes = createAttributes("provider-d", "h2h");
    const view = await createOk(scope, attributes);
    const oldSecret = String(attributes.credentials.secret_key);
    const newSecret = randomBytes(24).toString("base64url");
    const { api_key: _a, ...rest } = attributes.credentials;
    const newLabel = unique("Audited");
    const edited = await update(scope, view.id, { label: newLabel, credentials: { ...rest, api_key: "", secret_key: newSecret } });
    expect(edited?.ok).toBe(true);
    expect((await setConnectionEnabled(scope, view.id, false))?.ok).toBe(true);
    expect(await deleteConnection(scope, view.id)).toBe(true);

    const trail = await listAudit(t.db, scope.merchantId, view.id);
    expect(trail.map((e) => e.action).sort()).toEqual(["created", "deleted", "disabled", "updated"]);
    expect(trail.every((e) => e.actor === actor)).toBe(true);
    const byAction = Object.fromEntries(trail.map((e) => [e.action, e.changes]));
    expect(byAction.created).toEqual(expect.arrayContaining(["label", "mode", "credentials.api_key", "credentials.secret_key", "credentials.merchant_id"]));
    expect(byAction.updated).toEqual(["label", "credentials.secret_key (replaced)"]);
    expect(byAction.disabled).toEqual(["enabled"]);
    expect(byAction.deleted).toEqual([]);
    expect(trail[0]!.action).toBe("deleted");
    expect(trail.at(-1)!.action).toBe("created");
    expect(leaksIn(JSON.stringify(trail), [oldSecret, newSecret, String(attributes.credentials.api_key)])).toEqual([]);
  });

  it("records nothing for an edit that changes nothing", async () => {
    const scope = await newScope();
    const attributes = createAttributes("provider-b", "h2h");
    const view = await createOk(scope, attributes);
    const result = await update(scope, view.id, { label: view.label, credentials: { ...attributes.credentials, secret_key: "" } });
    expect(result?.ok).toBe(true);
    expect((await listAudit(t.db, scope.merchantId, view.id)).map((e) => e.action)).toEqual(["created"]);
  });
});

describe("Provider E key pairs (spec 5.1 note 5)", () => {
  function eAttributes(publicKey: string, extra: Record<string, unknown>, label = unique("E generated")) {
    return createAttributes("provider-e", "h2h", "test", {
      label,
      credentials: { merchant_id: "E-4410", public_key: publicKey, private_key: "", currency: "EUR", ...extra },
    });
  }

  it("stores a generated private key that matches the generated public key, and uses it only once", async () => {
    const scope = await newScope();
    const generated = await createGeneratedKeyPair(t.db, scope.merchantId, vaultKey);
    expect(generated.id).toMatch(/^gk_/);
    expect(generated.publicKeyPem).toMatch(/^-----BEGIN PUBLIC KEY-----/);

    const view = await createOk(scope, eAttributes(generated.publicKeyPem, { generated_key_id: generated.id }));
    const credentials = await revealed(scope, view.id);
    expect(typeof credentials.private_key).toBe("string");
    const privatePem = String(credentials.private_key);
    expect(privatePem).toMatch(/^-----BEGIN PRIVATE KEY-----/);
    expect(spki(createPublicKey(createPrivateKey(privatePem)).export({ type: "spki", format: "pem" }).toString())).toEqual(spki(generated.publicKeyPem));
    expect(credentials).not.toHaveProperty("generated_key_id");
    const row = await rawConnectionRow(t.db, view.id);
    expect(leaksIn(JSON.stringify(row), [privatePem])).toEqual([]);
    expect(row.secretHints).toEqual({ private_key: hintFor(privatePem) });
    expect(row.secretHints.private_key).toMatch(/^RSA \d+ private key · SHA256:[0-9a-f]{16}…$/);

    const twice = await create(scope, eAttributes(generated.publicKeyPem, { generated_key_id: generated.id }));
    expect(twice.ok).toBe(false);
    expect(!twice.ok && twice.problems).toEqual([expect.objectContaining({ path: ["credentials", "private_key"], code: "generated_key_unavailable" })]);
  });

  it("does not let another merchant use a generated key pair", async () => {
    const owner = await newScope();
    const stranger = await newScope();
    const generated = await createGeneratedKeyPair(t.db, owner.merchantId, vaultKey);
    const stolen = await create(stranger, eAttributes(generated.publicKeyPem, { generated_key_id: generated.id }));
    expect(!stolen.ok && stolen.problems.map((e) => e.path)).toEqual([["credentials", "private_key"]]);
    // The owner can still use it.
    expect((await create(owner, eAttributes(generated.publicKeyPem, { generated_key_id: generated.id }))).ok).toBe(true);
  });

  it("keeps a generated key pair usable when the save is refused (wrong public key, then the right one)", async () => {
    const scope = await newScope();
    const generated = await createGeneratedKeyPair(t.db, scope.merchantId, vaultKey);
    const wrongPublic = generateKeyPair().publicKeyPem;
    const refused = await create(scope, eAttributes(wrongPublic, { generated_key_id: generated.id }));
    expect(!refused.ok && refused.problems).toEqual([expect.objectContaining({ path: ["credentials", "public_key"], code: "key_pair_mismatch" })]);
    expect(await listConnections(t.db, scope.merchantId)).toEqual([]);
    // Nothing was saved, so the generated pair must still be there for the corrected form.
    const retried = await create(scope, eAttributes(generated.publicKeyPem, { generated_key_id: generated.id }));
    expect(retried.ok ? "saved" : retried.problems).toBe("saved");
  });

  it("keeps a generated key pair usable when an edit using it is refused", async () => {
    const scope = await newScope();
    const attributes = createAttributes("provider-e", "h2h");
    const view = await createOk(scope, attributes);
    const generated = await createGeneratedKeyPair(t.db, scope.merchantId, vaultKey);
    // Forgot to swap the public key: the stored one is not the generated pair's.
    const refused = await update(scope, view.id, { credentials: { ...attributes.credentials, private_key: "", generated_key_id: generated.id } });
    expect(refused && !refused.ok && refused.problems.map((e) => e.code)).toEqual(["key_pair_mismatch"]);
    const retried = await update(scope, view.id, {
      credentials: { ...attributes.credentials, public_key: generated.publicKeyPem, private_key: "", generated_key_id: generated.id },
    });
    expect(retried?.ok ? "saved" : retried?.problems).toBe("saved");
    expect(spki(String((await revealed(scope, view.id)).public_key))).toEqual(spki(generated.publicKeyPem));
  });

  it("refuses an uploaded public key that is not the private key's pair", async () => {
    const scope = await newScope();
    const own = generateKeyPair();
    const other = generateKeyPair();
    const refused = await create(
      scope,
      createAttributes("provider-e", "h2h", "test", {
        credentials: { merchant_id: "E-1", public_key: other.publicKeyPem, private_key: own.privateKeyPem, currency: "EUR" },
      }),
    );
    expect(refused.ok).toBe(false);
    expect(!refused.ok && refused.problems).toEqual([
      expect.objectContaining({ path: ["credentials", "public_key"], code: "key_pair_mismatch", message: expect.stringMatching(/not a pair/) }),
    ]);
    expect(await listConnections(t.db, scope.merchantId)).toEqual([]);
  });

  it("refuses replacing the public key with one that does not match the stored private key", async () => {
    const scope = await newScope();
    const attributes = createAttributes("provider-e", "h2h");
    const view = await createOk(scope, attributes);
    const before = await revealed(scope, view.id);
    const result = await update(scope, view.id, {
      credentials: { ...attributes.credentials, public_key: generateKeyPair().publicKeyPem, private_key: "" },
    });
    expect(result && !result.ok && result.problems.map((e) => e.code)).toEqual(["key_pair_mismatch"]);
    expect(await revealed(scope, view.id)).toEqual(before);
  });
});

describe("credential checks at save (spec 5.1, 5.2)", () => {
  it("refuses Provider F prod keys with test mode on, saying which keys were expected", () => {
    const parsed = createConnectionSchema.safeParse(
      createAttributes("provider-f", "h2h", "test", { credentials: { ...sampleCredentials("provider-f", "h2h", "live"), test_mode: true } }),
    );
    expect(parsed.success).toBe(false);
    const issues = parsed.error!.issues.map((i) => ({ path: i.path, message: i.message }));
    expect(issues).toEqual(
      expect.arrayContaining([
        { path: ["credentials", "public_key"], message: expect.stringContaining("dev_pub_") },
        { path: ["credentials", "secret_key"], message: expect.stringContaining("dev_sec_") },
      ]),
    );
    expect(issues.find((i) => i.path[1] === "public_key")!.message).toContain("prod_pub_");
  });

  it("takes Provider F's mode from a legacy test_mode sent without a mode", async () => {
    const scope = await newScope();
    const attributes = createAttributes("provider-f", "h2h", "live");
    const view = await createOk(scope, { ...attributes, mode: undefined, credentials: { ...attributes.credentials, test_mode: false } });
    expect(view.mode).toBe("live");
  });

  it("creates Provider F in Test mode with dev keys and refuses dev keys in Live mode, naming the keys Live takes", async () => {
    const scope = await newScope();
    const view = await createOk(scope, createAttributes("provider-f", "h2h", "test"));
    expect(view.mode).toBe("test");
    const refused = createConnectionSchema.safeParse(
      createAttributes("provider-f", "h2h", "live", { credentials: sampleCredentials("provider-f", "h2h", "test") }),
    );
    expect(refused.error?.issues.map((issue) => [issue.path.join("."), issue.message])).toEqual([
      ["credentials.public_key", "Live mode takes a prod_pub_ key; this one starts with dev_pub_"],
      ["credentials.secret_key", "Live mode takes a prod_sec_ key; this one starts with dev_sec_"],
    ]);
  });

  it("refuses switching an older Provider F connection holding test_mode to Live, and keeps it in test", async () => {
    const scope = await newScope();
    const attributes = createAttributes("provider-f", "h2h", "test");
    const view = await createOk(scope, { ...attributes, credentials: { ...attributes.credentials, test_mode: true } });
    const prod = sampleCredentials("provider-f", "h2h", "live");
    const result = await update(scope, view.id, { mode: "live", credentials: { public_key: prod.public_key, secret_key: prod.secret_key } });
    expect(result && !result.ok && result.problems.map((e) => [e.code, e.path])).toEqual([["mode_fixed", ["mode"]]]);
    expect((await getConnection(t.db, scope.merchantId, view.id))?.mode).toBe("test");
  });

  it("refuses a private key PEM as Provider A's payment key", () => {
    const credentials = sampleCredentials("provider-a", "provider_account", "test");
    const parsed = createConnectionSchema.safeParse(
      createAttributes("provider-a", "provider_account", "test", { credentials: { ...credentials, payment_key: credentials.private_key } }),
    );
    expect(parsed.success).toBe(false);
    expect(parsed.error!.issues.map((i) => ({ path: i.path, message: i.message }))).toEqual([
      { path: ["credentials", "payment_key"], message: "This is a private key; Payment key takes a public key (-----BEGIN PUBLIC KEY-----)" },
    ]);
  });

  it("refuses a well-formed PEM that node:crypto cannot read, at the service", async () => {
    const scope = await newScope();
    const credentials = sampleCredentials("provider-a", "provider_account", "test");
    const fake = "-----BEGIN PUBLIC KEY-----\nQUFBQUFBQUFBQUFBQUFBQQ==\n-----END PUBLIC KEY-----";
    const result = await create(scope, createAttributes("provider-a", "provider_account", "test", { credentials: { ...credentials, payment_key: fake } }));
    expect(!result.ok && result.problems).toEqual([expect.objectContaining({ path: ["credentials", "payment_key"], code: "invalid_key_file" })]);
    expect(await listConnections(t.db, scope.merchantId)).toEqual([]);
  });
});

describe("editConnection: the edit as the form and the API send it", () => {
  it("refuses a different provider or kind with every other problem at once, and changes nothing", async () => {
    const scope = await newScope();
    const created = await createOk(scope, createAttributes("provider-c", "h2h"));
    const refused = await editConnection(scope, created.id, { provider: "provider-b", kind: "provider_account", label: "" });
    expect(refused).toMatchObject({ ok: false });
    const errors = refused && !refused.ok ? refused.problems : [];
    expect(errors.map((e) => [e.path.join("."), e.code])).toEqual([
      ["provider", "immutable"],
      ["kind", "immutable"],
      ["label", "custom"],
    ]);
    expect(errors[0]!.message).toContain("create a new connection");
    expect((await getConnection(scope.db, scope.merchantId, created.id))!.label).toBe(created.label);
  });

  it("accepts provider and kind sent unchanged", async () => {
    const scope = await newScope();
    const created = await createOk(scope, createAttributes("provider-c", "h2h"));
    const label = unique("Same kind");
    const edited = await editConnection(scope, created.id, { provider: "provider-c", kind: "h2h", label });
    expect(edited).toMatchObject({ ok: true, value: { id: created.id, provider: "provider-c", kind: "h2h", label } });
  });

  it("answers undefined for an unknown id and for another merchant's connection", async () => {
    const owner = await newScope();
    const stranger = await newScope();
    const created = await createOk(owner, createAttributes("provider-b", "h2h"));
    expect(await editConnection(owner, "conn_unknown", { label: "x" })).toBeUndefined();
    expect(await editConnection(stranger, created.id, { label: "Hijacked" })).toBeUndefined();
    expect((await getConnection(owner.db, owner.merchantId, created.id))!.label).toBe(created.label);
  });
});

describe("concurrent writes to one connection", () => {
  it("applies a secret rotation and a disable made at the same time one after the other", async () => {
    const m = await invoiceMerchant(t.db);
    const view = await connect(t.db, m.merchantId, "provider-b", "h2h");
    const row = (await findConnectionRow(t.db, m.merchantId, view.id))!;
    const vaultKey = Buffer.from(process.env.CREDENTIALS_KEY!, "base64");
    const scope = { db: t.db, merchantId: m.merchantId, actor: { label: "test" }, vaultKey };
    const schema = updateConnectionSchema(kindOf(row));
    const rotate = schema.parse({ credentials: { secret_key: "rotated-secret-9999" } });
    const disable = schema.parse({ enabled: false });
    // The fixture's vault key differs from this test's; re-seal first so both writes can read the row.
    await t.db
      .update(connections)
      .set({ secretCredentials: encryptJson({ secret_key: "first-secret-1111" }, vaultKey) })
      .where(eq(connections.id, view.id));
    const [a, b] = await Promise.all([updateConnection(scope, view.id, rotate), updateConnection(scope, view.id, disable)]);
    expect(a?.ok && b?.ok).toBe(true);
    const after = (await findConnectionRow(t.db, m.merchantId, view.id))!;
    expect(openSecrets(after, vaultKey).secret_key).toBe("rotated-secret-9999");
    expect(after.enabled).toBe(false);
  });
});
