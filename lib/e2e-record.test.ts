import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { randomBytes } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { cardSecrets, scan, secretsInRequest, summary } from "@/e2e/support/leak-scan";
import { readFrames } from "@/e2e/support/leak-frames";
import { recordExchange, writeFrame } from "@/lib/e2e-record";
import { encryptJson } from "@/lib/vault";

/**
 * The e2e secrets scan must be able to fail: a real HTTP server records its exchanges with
 * lib/e2e-record.ts, a client types a password, and the scan (e2e/support/leak-scan.ts) finds that
 * password when an answer (gzipped, as Next sends pages) echoes it, and stays quiet when none does.
 */
let dir: string;
let server: http.Server;
let base: string;
/** What the next page answers with: the test plants a secret here. */
let page = "<html><body>Welcome</body></html>";
const vaultKey = randomBytes(32);

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "leak-scan-"));
  page = "<html><body>Welcome</body></html>";
  server = http.createServer((req, res) => {
    recordExchange(dir, req, res);
    if (req.method === "POST") {
      req.resume();
      req.on("end", () => {
        res.writeHead(200, { "Content-Type": "text/x-component" });
        res.end(req.url === "/api-keys" ? `0:{"key":"pok_${"k".repeat(43)}"}` : "0:{}");
      });
      return;
    }
    const zipped = zlib.gzipSync(page);
    res.writeHead(200, { "Content-Type": "text/html; charset=utf-8", "Content-Encoding": "gzip" });
    res.write(zipped.subarray(0, 10));
    res.end(zipped.subarray(10));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterEach(async () => {
  await new Promise((resolve) => server.close(resolve));
  fs.rmSync(dir, { recursive: true, force: true });
});

async function run(steps: { password: string; createKey?: boolean }) {
  const signIn = await fetch(`${base}/sign-in`, { method: "POST", headers: { "Content-Type": "application/json", "Next-Action": "abc" }, body: JSON.stringify([{ email: "a@example.com", password: steps.password }]) });
  await signIn.text();
  if (steps.createKey) await (await fetch(`${base}/api-keys`, { method: "POST", headers: { "Next-Action": "def" }, body: "[]" })).text();
  await (await fetch(`${base}/home`, { headers: { "Accept-Encoding": "gzip" } })).text();
  // The server writes its record once each answer is finished.
  await new Promise((resolve) => setTimeout(resolve, 50));
}

function sealedConnection(secret: string): void {
  const row = JSON.stringify({ id: "conn_1", secret_credentials: encryptJson({ secret_key: secret }, vaultKey) });
  writeFrame(path.join(dir, "db-1.rec"), { kind: "table", table: "public.connections" }, Buffer.from(row));
}

describe("e2e secrets scan", () => {
  it("records each answer as the client read it, gzip undone, and each request body", async () => {
    page = "<p>recorded page</p>";
    await run({ password: "typed-password-0001" });
    const frames = fs.readdirSync(dir).flatMap((file) => readFrames(path.join(dir, file)));
    expect(frames.find((f) => f.header.kind === "response" && f.header.url === "/home")?.body.toString()).toBe("<p>recorded page</p>");
    expect(frames.find((f) => f.header.kind === "request")?.body.toString()).toContain("typed-password-0001");
  });

  it("reports nothing when no answer, log or row holds a secret", async () => {
    sealedConnection("stored-secret-value-XYZW");
    fs.writeFileSync(path.join(dir, "server-1.log"), '{"level":"info","message":"card 424242******4242"}\n');
    await run({ password: "typed-password-0001", createKey: true });
    const report = scan({ recordDir: dir, given: cardSecrets(["4242424242424242"], "test"), vaultKey });
    expect(report.hits).toEqual([]);
    // The password typed, the stored secret, the card and the key shown once were all searched for.
    expect(report.secrets).toBe(3);
    expect(report.cards).toBe(1);
    expect(report.allowed).toBe(1);
    expect(summary(report)).toMatch(/, 0 hits, /);
  });

  it("reports a typed password echoed in a page, with the file and a context that does not show it", async () => {
    page = "<html><body><input value=\"typed-password-0001\"></body></html>";
    await run({ password: "typed-password-0001" });
    const report = scan({ recordDir: dir, given: [] });
    expect(report.hits).toHaveLength(1);
    expect(report.hits[0]!.where).toMatch(/^responses-\d+\.rec: GET \/home → 200 text\/html/);
    expect(report.hits[0]!.secret).toMatch(/^secret from POST \/sign-in password/);
    expect(report.hits[0]!.context).toBe('<html><body><input value="[secret]0001"></body></html>');
    expect(JSON.stringify(report)).not.toContain("typed-password");
  });

  it("reports a vault secret in a log line, a card number in a row, and a key shown once shown again", async () => {
    sealedConnection("stored-secret-value-XYZW");
    fs.writeFileSync(path.join(dir, "server-1.log"), '{"level":"info","message":"sent stored-secret-value-XYZW"}\n');
    writeFrame(path.join(dir, "db-1.rec"), { kind: "table", table: "pgboss.job" }, Buffer.from('{"data":{"card":"4242424242424242"}}'));
    page = `<p>your key: pok_${"k".repeat(43)}</p>`;
    await run({ password: "typed-password-0001", createKey: true });
    const report = scan({ recordDir: dir, given: cardSecrets(["4242424242424242"], "test"), vaultKey });
    expect(report.hits.map((hit) => [hit.where.replace(/^responses-\d+\./, "responses."), hit.secret.split(" (")[0]])).toEqual(
      expect.arrayContaining([
        ["server-1.log", "secret from vault conn_1.secret_key"],
        ["table pgboss.job", "card from test"],
        [expect.stringMatching(/^responses\.rec: GET \/home/), expect.stringMatching(/^shown-once from answer to POST \/api-keys/)],
      ]),
    );
    expect(report.hits).toHaveLength(3);
    // The key in the answer of the action that made it is where it belongs.
    expect(report.allowed).toBe(1);
  });

  it("learns typed secrets and card numbers from what the client sent, not masks or invoice numbers", () => {
    const body = JSON.stringify({ card_number: "411111******1111", number: "INV-1", secret_key: "••••abcd", shop_password: "$undefined", password: "typed-password-0001", pan: "4111 1111 1111 1111" });
    expect(secretsInRequest(body, "application/json", "POST /x")).toEqual([
      { value: "typed-password-0001", kind: "secret", source: "POST /x password" },
      { value: "4111111111111111", kind: "card", source: "POST /x" },
    ]);
    // A Luhn-valid run of digits inside an identifier (a Provider B sandbox reference) is no card; the same digits alone are.
    expect(secretsInRequest(JSON.stringify({ txn: "B310000000000005e" }), "application/json", "POST /callback")).toEqual([]);
    expect(secretsInRequest(JSON.stringify({ note: "310000000000005" }), "application/json", "POST /x")).toEqual([
      { value: "310000000000005", kind: "card", source: "POST /x (digits)" },
    ]);
    const form = new URLSearchParams({ "1_password": "form-password-0002", email: "a@example.com" }).toString();
    expect(secretsInRequest(form, "application/x-www-form-urlencoded", "POST /sign-in").map((s) => s.value)).toEqual(["form-password-0002"]);
  });

  it("allows the sandbox test card table in a client bundle, and nothing else there", async () => {
    const bundles = path.join(dir, "static");
    fs.mkdirSync(bundles);
    fs.writeFileSync(path.join(bundles, "a.js"), 'let S=[{number:"4242424242424242",label:"Succeeds"}];');
    fs.writeFileSync(path.join(bundles, "b.js"), 'const demo="4000000000000002";');
    const report = scan({ recordDir: path.join(dir, "none"), bundleDir: bundles, given: cardSecrets(["4242424242424242", "4000000000000002"], "test") });
    expect(report.allowed).toBe(1);
    expect(report.hits.map((hit) => hit.where)).toEqual([expect.stringMatching(/b\.js$/)]);
  });
});
