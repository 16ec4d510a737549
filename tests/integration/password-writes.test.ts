import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

/** The browser the server actions run for: its cookies (next-auth reads and sets them) and address. */
const browser = vi.hoisted(() => ({ cookies: new Map<string, string>(), address: "192.0.2.60" }));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));
vi.mock("next/headers", () => {
  const cookieHeader = () => [...browser.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  return {
    headers: async () => new Headers({ host: "localhost:3000", "x-forwarded-for": browser.address, cookie: cookieHeader() }),
    cookies: async () => ({
      getAll: () => [...browser.cookies].map(([name, value]) => ({ name, value })),
      get: (name: string) => (browser.cookies.has(name) ? { name, value: browser.cookies.get(name)! } : undefined),
      set: (name: string, value: string, options?: { maxAge?: number }) => {
        if (value === "" || options?.maxAge === 0) browser.cookies.delete(name);
        else browser.cookies.set(name, value);
      },
      delete: (name: string) => browser.cookies.delete(name),
    }),
  };
});

import { seedDemo } from "@/lib/admin/seed-demo";
import { changePasswordAction } from "@/lib/actions/account";
import { resetPasswordAction } from "@/lib/actions/password";
import { startPasswordReset } from "@/lib/identity/account";
import { logger } from "@/lib/logger";
import { createMerchantWithOwner } from "@/lib/merchants/queries";
import { setUpTestDb, unique } from "./helpers/db";
import { sessionEmail, signInOverHttp } from "./helpers/sign-in-http";

/**
 * A new password must end the sessions of whoever knew the old one, by whichever path it is set.
 * The source is read for every write of a password hash: an update anywhere but
 * lib/identity/sessions.ts#setPassword (which raises the session version in the same statement)
 * fails here, and so does a caller of setPassword this file does not try.
 */
const t = setUpTestDb();
const ROOT = path.resolve(__dirname, "../..");
const PASSWORD = "first-pass-1234";
beforeAll(() => {
  vi.spyOn(logger, "info").mockImplementation(() => {});
});
afterAll(() => vi.restoreAllMocks());

/** Every statement that writes users.password_hash, by module and function. */
const PASSWORD_WRITES: Record<string, string> = {
  "lib/identity/sessions.ts#setPassword": "the one update: raises the session version in the same statement",
  "lib/merchants/queries.ts#createMerchantWithOwner":
    "insert of a new person (sign-up confirmation, create-merchant, seed-demo's first run): no session of theirs exists",
  "lib/merchants/queries.ts#addMember": "insert of a new member: no session of theirs exists",
  "lib/merchants/invites.ts#acceptInvite": "insert of the invited member: no session of theirs exists",
};

/** Every caller of setPassword, and the test below that tries it through its entry point. */
const SET_PASSWORD_CALLERS: Record<string, string> = {
  "lib/identity/account.ts#changePassword": "changePasswordAction ends the other sessions and keeps this browser signed in",
  "lib/identity/account.ts#completePasswordReset": "resetPasswordAction ends every session",
  "lib/admin/seed-demo.ts#seedDemo": "seed-demo --reset ends every session",
};

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return entry.name === "migrations" || entry.name === "node_modules" ? [] : sourceFiles(relative);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [relative] : [];
  });
}

function enclosingFunction(node: ts.Node): string {
  for (let at: ts.Node | undefined = node.parent; at; at = at.parent) {
    if ((ts.isFunctionDeclaration(at) || ts.isMethodDeclaration(at)) && at.name) return at.name.getText();
    if ((ts.isArrowFunction(at) || ts.isFunctionExpression(at)) && ts.isVariableDeclaration(at.parent)) return at.parent.name.getText();
  }
  return "(module)";
}

/** Where the source writes a password hash, and where it calls setPassword. */
function scanSource() {
  const writes = new Set<string>();
  const callers = new Set<string>();
  for (const file of ["lib", "app", "scripts", "server", "components"].flatMap(sourceFiles)) {
    const text = fs.readFileSync(path.join(ROOT, file), "utf8");
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node) => {
      // `.set({ passwordHash })`, `.values({ passwordHash: … })`: Drizzle's update and insert.
      if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && ["set", "values"].includes(node.expression.name.text)) {
        // A spread into the users table could carry a hash unseen: it counts as a write too.
        const intoUsers = /\b(update|insert)\(users\)$/.test(node.expression.expression.getText());
        const writesHash = node.arguments.some(
          (arg) =>
            ts.isObjectLiteralExpression(arg) && arg.properties.some((p) => p.name?.getText() === "passwordHash" || (intoUsers && ts.isSpreadAssignment(p))),
        );
        if (writesHash) writes.add(`${file}#${enclosingFunction(node)}`);
      }
      // Raw SQL naming the column.
      if (
        (ts.isNoSubstitutionTemplateLiteral(node) ||
          ts.isTemplateHead(node) ||
          ts.isTemplateMiddle(node) ||
          ts.isTemplateTail(node) ||
          ts.isStringLiteral(node)) &&
        /password_hash/i.test(node.text) &&
        file !== "lib/db/schema.ts"
      ) {
        writes.add(`${file}#${enclosingFunction(node)} (raw SQL)`);
      }
      if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === "setPassword")
        callers.add(`${file}#${enclosingFunction(node)}`);
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return { writes: [...writes].sort(), callers: [...callers].sort() };
}

describe("every path that writes a password", () => {
  it("writes it through setPassword, or inserts a new person", () => {
    const { writes, callers } = scanSource();
    expect(writes).toEqual(Object.keys(PASSWORD_WRITES).sort());
    expect(callers).toEqual(Object.keys(SET_PASSWORD_CALLERS).sort());
  });
});

async function owner() {
  const account = unique("pw");
  const email = `${account}@example.com`;
  const created = await createMerchantWithOwner(t.db, { email, password: PASSWORD, name: "Owner", merchantName: "Shop", commerceAccount: account });
  if (!created.ok) throw new Error(JSON.stringify(created.problems));
  return { email, userId: created.value.user.id };
}

describe("a new password ends the sessions signed in with the old one", () => {
  it(SET_PASSWORD_CALLERS["lib/identity/account.ts#changePassword"]!, async () => {
    const { email } = await owner();
    const elsewhere = await signInOverHttp(email, PASSWORD, "198.51.100.61");
    const here = await signInOverHttp(email, PASSWORD, browser.address);
    expect([elsewhere.outcome, here.outcome]).toEqual(["signed-in", "signed-in"]);
    browser.cookies.clear();
    const [name, value] = here.cookie!.split("=") as [string, string];
    browser.cookies.set(name, value);

    expect(await changePasswordAction({ currentPassword: PASSWORD, password: "next-pass-1234", confirmPassword: "next-pass-1234" })).toEqual({
      ok: true,
      data: undefined,
    });
    expect(await sessionEmail(elsewhere.cookie!)).toBeNull();
    expect(await sessionEmail(here.cookie!)).toBeNull();
    // This browser was given a new session with the new password, and it is valid.
    const reissued = `${name}=${browser.cookies.get(name)}`;
    expect(reissued).not.toBe(here.cookie);
    expect(await sessionEmail(reissued)).toBe(email);
  });

  it(SET_PASSWORD_CALLERS["lib/identity/account.ts#completePasswordReset"]!, async () => {
    const { email } = await owner();
    const before = await signInOverHttp(email, PASSWORD, "198.51.100.62");
    expect(await sessionEmail(before.cookie!)).toBe(email);
    const started = await startPasswordReset(t.db, email);
    expect(await resetPasswordAction({ token: started!.token, password: "reset-pass-1234", confirmPassword: "reset-pass-1234" })).toEqual({
      ok: true,
      data: { email },
    });
    expect(await sessionEmail(before.cookie!)).toBeNull();
    expect((await signInOverHttp(email, "reset-pass-1234", "198.51.100.62")).outcome).toBe("signed-in");
  });

  it(
    SET_PASSWORD_CALLERS["lib/admin/seed-demo.ts#seedDemo"]!,
    async () => {
      const account = unique("demo");
      const email = `${account}@example.com`;
      const first = await seedDemo(t.db, { email, commerceAccount: account });
      const before = await signInOverHttp(email, first.password as string, "198.51.100.63");
      expect(await sessionEmail(before.cookie!)).toBe(email);
      await seedDemo(t.db, { email, commerceAccount: account, reset: true });
      expect(await sessionEmail(before.cookie!)).toBeNull();
    },
    120_000,
  );
});
