import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createConnection, deleteConnection, setConnectionEnabled } from "@/lib/connections/service";
import { credentialsKey } from "@/lib/vault/vault-key";
import { connections } from "@/lib/db/schema";
import { findSandboxAccount } from "@/lib/sandbox/accounts";
import { createAttributes, newMerchant, parseCreate, scopeFor, type Scope } from "./helpers/connection-fixtures";
import { setUpTestDb, unique } from "./helpers/db";

const t = setUpTestDb();
const vaultKey = randomBytes(32);

async function connect(scope: Scope, mode: "test" | "live", login: string, password: string) {
  const attributes = createAttributes("provider-c", "provider_account", mode, {
    credentials: { shop_login: login, shop_password: password },
  });
  const created = await createConnection(scope, parseCreate(attributes));
  if (!created.ok) throw new Error(`setup: ${JSON.stringify(created.problems)}`);
  return created.value.id;
}

const byLogin = (login: string) => (publicCredentials: Record<string, unknown>) => publicCredentials.shop_login === login;

describe("findSandboxAccount (the sandbox's merchants are test-mode connections)", () => {
  it("finds a test-mode connection by its public credentials and decrypts its secrets", async () => {
    const scope = scopeFor(t.db, await newMerchant(t.db), vaultKey);
    const login = unique("shop");
    const id = await connect(scope, "test", login, "test-password-1234");
    const account = await findSandboxAccount(t.db, "provider-c", byLogin(login), { vaultKey });
    expect(account).toEqual({ connectionId: id, credentials: { shop_login: login, shop_password: "test-password-1234" } });
  });

  it("never finds (or decrypts) a live connection, even when its public credentials match", async () => {
    const scope = scopeFor(t.db, await newMerchant(t.db), vaultKey);
    const login = unique("shop");
    await connect(scope, "live", login, "live-password-1234");
    const seen: Record<string, unknown>[] = [];
    const account = await findSandboxAccount(t.db, "provider-c", (pc) => (seen.push(pc), pc.shop_login === login), { vaultKey });
    expect(account).toBeUndefined();
    expect(seen.some((pc) => pc.shop_login === login)).toBe(false);
  });

  it("finds disabled connections but not deleted ones", async () => {
    const scope = scopeFor(t.db, await newMerchant(t.db), vaultKey);
    const login = unique("shop");
    const id = await connect(scope, "test", login, "test-password-5678");
    await setConnectionEnabled(scope, id, false);
    expect((await findSandboxAccount(t.db, "provider-c", byLogin(login), { vaultKey }))?.connectionId).toBe(id);
    await deleteConnection(scope, id);
    expect(await findSandboxAccount(t.db, "provider-c", byLogin(login), { vaultKey })).toBeUndefined();
  });

  it("looks only at the named provider and answers undefined for an unknown account", async () => {
    const scope = scopeFor(t.db, await newMerchant(t.db), vaultKey);
    const login = unique("shop");
    await connect(scope, "test", login, "test-password-9012");
    expect(await findSandboxAccount(t.db, "provider-b", byLogin(login), { vaultKey })).toBeUndefined();
    expect(await findSandboxAccount(t.db, "provider-c", byLogin(unique("nobody")), { vaultKey })).toBeUndefined();
  });

  it("uses the process's credentials key by default and passes over accounts it cannot open", async () => {
    const login = unique("shop");
    // Sealed with another key than CREDENTIALS_KEY (another installation sharing the database):
    // the sandbox cannot open it, so it does not know that account.
    const foreign = await connect(scopeFor(t.db, await newMerchant(t.db), vaultKey), "test", login, "test-password-3456");
    const [row] = await t.db.select().from(connections).where(eq(connections.id, foreign));
    expect(row?.mode).toBe("test");
    expect(await findSandboxAccount(t.db, "provider-c", byLogin(login))).toBeUndefined();
    // Sealed with the process's key, same login: found with the default key, the foreign one skipped.
    const own = await connect(scopeFor(t.db, await newMerchant(t.db), credentialsKey()), "test", login, "test-password-7890");
    const account = await findSandboxAccount(t.db, "provider-c", byLogin(login));
    expect(account?.connectionId).toBe(own);
    expect(account?.credentials.shop_password).toBe("test-password-7890");
  });
});
