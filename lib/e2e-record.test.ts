import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { randomBytes } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { cardForms, cardSecrets, scan, secretsInRequest, summary } from "@/e2e/support/leak-scan";
import { readFrames } from "@/e2e/support/leak-frames";
import { recordExchange, writeFrame } from "@/lib/e2e-record";
import type { HostedInvoice } from "@/lib/pay/hosted-invoice";
import { renderHostedPage, renderPayment } from "@/lib/pay/page/render";
import { DISPUTE_TEST_NOTE, TEST_CARDS } from "@/lib/sandbox/cards";
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
/** More answers of the next run, by "METHOD /path": a test plants a secret in a body or a header here. */
let routes: Record<string, (res: http.ServerResponse) => void> = {};
const vaultKey = randomBytes(32);

function answer(type: string, body: string): (res: http.ServerResponse) => void {
  return (res) => {
    res.writeHead(200, { "Content-Type": type });
    res.end(body);
  };
}

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "leak-scan-"));
  page = "<html><body>Welcome</body></html>";
  routes = {};
  server = http.createServer((req, res) => {
    recordExchange(dir, req, res);
    const route = routes[`${req.method} ${req.url}`];
    if (route) {
      req.resume();
      req.on("end", () => route(res));
      return;
    }
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
  const signIn = await fetch(`${base}/sign-in`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "Next-Action": "abc" },
    body: JSON.stringify([{ email: "a@example.com", password: steps.password }]),
  });
  await signIn.text();
  if (steps.createKey) await (await fetch(`${base}/api-keys`, { method: "POST", headers: { "Next-Action": "def" }, body: "[]" })).text();
  await (await fetch(`${base}/home`, { headers: { "Accept-Encoding": "gzip" } })).text();
  for (const route of Object.keys(routes)) {
    const [method, url] = route.split(" ") as [string, string];
    await (await fetch(`${base}${url}`, { method, redirect: "manual", ...(method === "POST" ? { body: "{}" } : {}) })).arrayBuffer();
  }
  // The server writes its record once each answer is finished.
  await new Promise((resolve) => setTimeout(resolve, 50));
}

/** The scan's hits as [place, secret's kind and source], the file's process id left out. */
function hitList(report: ReturnType<typeof scan>): [string, string][] {
  return report.hits.map((hit) => [hit.where.replace(/^responses-\d+\.rec: /, ""), hit.secret.split(" (")[0]!]);
}

const testInvoice: HostedInvoice = {
  id: "cpi_leakscan000000000001",
  merchantName: "Shop",
  amount: "10.00",
  currency: "EUR",
  testMode: true,
  takesCvc: true,
  returnUrl: null,
  description: null,
  canPay: true,
  final: false,
  outcome: { kind: "open" },
  expiresAt: "2030-01-01T00:00:00.000Z",
};

function sealedConnection(secret: string): void {
  const row = JSON.stringify({ id: "conn_1", secret_credentials: encryptJson({ secret_key: secret }, vaultKey) });
  writeFrame(path.join(dir, "db-1.rec"), { kind: "table", table: "public.connections" }, Buffer.from(row));
}

describe("e2e secrets scan", () => {
  it("records each answer as the client read it, gzip undone, and each request body", async () => {
    page = "<p>recorded page</p>";
    await run({ password: "typed-password-0001" });
    const frames = fs.readdirSync(dir).flatMap((file) => readFrames(path.join(dir, file)));
    const home = frames.find((f) => f.header.kind === "response" && f.header.url === "/home");
    expect(home?.body.toString()).toBe("<p>recorded page</p>");
    // The response headers as sent (gzip said so, though the body is kept unzipped), without the status line.
    expect(home?.header.headers).toMatch(/^Content-Type: text\/html; charset=utf-8\r\nContent-Encoding: gzip\r\n(.+\r\n)+$/);
    expect(home?.header.headers).not.toContain("HTTP/1.1");
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
    // Every answer's headers were searched too.
    expect(report.places.headers).toBe(report.places.responses);
    expect(summary(report)).toMatch(/, 0 hits, /);
  });

  it("reports a typed password echoed in a page, with the file and a context that does not show it", async () => {
    page = '<html><body><input value="typed-password-0001"></body></html>';
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
    const body = JSON.stringify({
      card_number: "411111******1111",
      number: "INV-1",
      secret_key: "••••abcd",
      shop_password: "$undefined",
      password: "typed-password-0001",
      pan: "4111 1111 1111 1111",
    });
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
    // The bad-input suite's public words ("Infinity" is in every bundle) typed into a secret field are no secret; a secret that starts with one is.
    expect(secretsInRequest(JSON.stringify({ secret_key: "Infinity", api_key: "constructor" }), "application/json", "POST /api/connections")).toEqual([]);
    expect(secretsInRequest(JSON.stringify({ secret_key: "Infinity-0003" }), "application/json", "POST /api/connections").map((s) => s.value)).toEqual([
      "Infinity-0003",
    ]);
  });

  it("allows the sandbox test card table in a client bundle, and nothing else there", async () => {
    const bundles = path.join(dir, "static");
    fs.mkdirSync(bundles);
    fs.writeFileSync(path.join(bundles, "a.js"), 'let S=[{number:"4242424242424242",label:"Succeeds"}];');
    fs.writeFileSync(path.join(bundles, "b.js"), 'const demo="4000000000000002";');
    // Shaped like the table, but not one of its cards; a test card written in groups.
    fs.writeFileSync(path.join(bundles, "c.js"), 'let T=[{number:"4111111111111111",label:"Succeeds"}];');
    fs.writeFileSync(path.join(bundles, "d.js"), 'const hint="4242 4242 4242 4242";');
    const report = scan({
      recordDir: path.join(dir, "none"),
      bundleDir: bundles,
      given: cardSecrets(["4242424242424242", "4000000000000002", "4111111111111111"], "test"),
    });
    expect(report.allowed).toBe(1);
    expect(report.hits.map((hit) => path.basename(hit.where)).sort()).toEqual(["b.js", "c.js", "d.js"]);
  });

  it("searches card numbers written in groups of four, Amex's 4-6-5 and Diners' 4-6-4, split by spaces or dashes", () => {
    expect(cardForms("4111111111111111")).toEqual(["4111111111111111", "4111 1111 1111 1111", "4111-1111-1111-1111"]);
    expect(cardForms("378282246310005")).toEqual(["378282246310005", "3782 8224 6310 005", "3782-8224-6310-005", "3782 822463 10005", "3782-822463-10005"]);
    expect(cardForms("30569309025904")).toEqual(expect.arrayContaining(["3056 930902 5904", "3056-930902-5904"]));
  });

  it("reports a card number written in groups in a page, an RSC payload, an API answer, a log line and a row", async () => {
    routes = {
      "GET /receipt": answer("text/html; charset=utf-8", "<p>Paid with 4111 1111 1111 1111</p>"),
      "GET /receipt?_rsc=1": answer("text/x-component", '1:["$","p",null,{"children":"Paid with 3782 822463 10005"}]'),
      "GET /api/v1/payments/1": answer("application/json", '{"card":"5555-5555-5555-4444"}'),
    };
    fs.writeFileSync(path.join(dir, "server-1.log"), '{"level":"info","message":"charging 3782-822463-10005"}\n');
    writeFrame(path.join(dir, "db-1.rec"), { kind: "table", table: "public.payments" }, Buffer.from('{"note":"card 4111-1111-1111-1111"}'));
    await run({ password: "typed-password-0001" });
    const report = scan({ recordDir: dir, given: cardSecrets(["4111111111111111", "5555555555554444", "378282246310005"], "spec card") });
    expect(hitList(report).sort()).toEqual([
      ["GET /api/v1/payments/1 → 200 application/json", "card from spec card"],
      ["GET /receipt → 200 text/html; charset=utf-8", "card from spec card"],
      ["GET /receipt?_rsc=1 → 200 text/x-component", "card from spec card"],
      ["server-1.log", "card from spec card"],
      ["table public.payments", "card from spec card"],
    ]);
    expect(report.hits.find((hit) => hit.where.startsWith("table"))?.context).toBe('{"note":"card [card]"}');
  });

  it("allows the sandbox test cards in the hosted page's Test cards list only: its page and its Pay answer, not an API answer, a log, a row or another card", async () => {
    const card = "4242 4242 4242 4242";
    const fragment = renderPayment(testInvoice);
    const hostedPage = renderHostedPage(testInvoice, { stylesheet: "/pay/assets/pay.css", script: "/pay/assets/pay.js", nonce: "n" });
    expect(hostedPage).toContain(`data-test-card="${card}"`);
    routes = {
      // The page, and the script's Pay answer with the payment part rendered anew (a JSON string).
      [`GET /pay/${testInvoice.id}`]: answer("text/html; charset=utf-8", hostedPage),
      [`POST /pay/${testInvoice.id}/pay`]: answer("application/json", JSON.stringify({ ok: true, kind: "result", html: fragment })),
      // The same markup answered by an API route.
      [`GET /api/v1/invoices/${testInvoice.id}`]: answer("application/json", JSON.stringify({ html: fragment })),
      // A test card on the hosted page outside its list: in the alert.
      [`GET /pay/${testInvoice.id}?alert=1`]: answer(
        "text/html; charset=utf-8",
        hostedPage.replace('data-testid="pay-alert" hidden>', `data-testid="pay-alert">Card ${card} was declined`),
      ),
      // The list's exact markup holding a card that is not a test card.
      [`GET /pay/${testInvoice.id}?forged=1`]: answer("text/html; charset=utf-8", hostedPage.replaceAll(card, "4111 1111 1111 1111")),
    };
    fs.writeFileSync(path.join(dir, "server-1.log"), `{"level":"info","message":"picked ${card}"}\n`);
    writeFrame(path.join(dir, "db-1.rec"), { kind: "table", table: "public.payment_attempts" }, Buffer.from(`{"card":"${card}"}`));
    await run({ password: "typed-password-0001" });
    const report = scan({ recordDir: dir, given: cardSecrets([...TEST_CARDS.map((c) => c.number), "4111111111111111"], "test") });
    // Every test card twice (the button's data-test-card and the number it shows) in the page, the
    // Pay answer and the page with the alert; in the forged page, every card but the replaced one.
    expect(report.allowed).toBe(TEST_CARDS.length * 2 * 3 + (TEST_CARDS.length - 1) * 2);
    const where = (url: string, type: string) => `GET ${url} → 200 ${type}`;
    expect(hitList(report).sort()).toEqual(
      [
        ...Array.from({ length: TEST_CARDS.length * 2 }, () => [where(`/api/v1/invoices/${testInvoice.id}`, "application/json"), "card from test"]),
        [where(`/pay/${testInvoice.id}?alert=1`, "text/html; charset=utf-8"), "card from test"],
        [where(`/pay/${testInvoice.id}?forged=1`, "text/html; charset=utf-8"), "card from test"],
        [where(`/pay/${testInvoice.id}?forged=1`, "text/html; charset=utf-8"), "card from test"],
        ["server-1.log", "card from test"],
        ["table public.payment_attempts", "card from test"],
      ].sort(),
    );
  });

  it("allows the dispute test cards in the API description's note on test disputes only: its exact sentence, in the OpenAPI document and the reference pages", async () => {
    const document = JSON.stringify({ info: { description: `Disputes. ${DISPUTE_TEST_NOTE} More.` } });
    routes = {
      "GET /api/commerce/openapi.json": answer("application/json", document),
      "GET /docs/api/disputes": answer("text/html; charset=utf-8", `<p>${DISPUTE_TEST_NOTE}</p>`),
      // The sentence in another answer; a card of the note outside it in the description.
      "GET /api/commerce/disputes": answer("application/json", JSON.stringify({ note: DISPUTE_TEST_NOTE })),
      "GET /docs/api/invoices": answer("text/html; charset=utf-8", "<p>Pay with 4000 0000 0000 0259 to see a dispute.</p>"),
    };
    await run({ password: "typed-password-0001" });
    const report = scan({ recordDir: dir, given: cardSecrets(["4000000000000259", "4000000000002685"], "test") });
    expect(report.allowed).toBe(4);
    expect(hitList(report).sort()).toEqual([
      ["GET /api/commerce/disputes → 200 application/json", "card from test"],
      ["GET /api/commerce/disputes → 200 application/json", "card from test"],
      ["GET /docs/api/invoices → 200 text/html; charset=utf-8", "card from test"],
    ]);
  });

  it("reports a secret, card number or key shown once in a response header: Location, Set-Cookie, Link, early hints, however set, even when the body is not kept", async () => {
    const key = `pok_${"k".repeat(43)}`;
    routes = {
      "GET /continue": (res) => {
        res.statusCode = 303;
        res.setHeader("Location", "/welcome?password=typed-password-0001");
        res.end();
      },
      "GET /cookie": (res) => {
        res.writeHead(200, { "Content-Type": "text/plain", "Set-Cookie": ["theme=dark", "last_card=4111-1111-1111-1111"], "X-Key": key });
        res.end("ok");
      },
      "GET /hints": (res) => {
        res.writeEarlyHints({ link: "</style.css?v=4111-1111-1111-1111>; rel=preload; as=style" });
        answer("text/plain", "ok")(res);
      },
      "GET /logo.png": (res) => {
        res.writeHead(200, ["Content-Type", "image/png", "Link", "<https://cdn.example/typed-password-0001>; rel=preload"]);
        res.end(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
      },
    };
    await run({ password: "typed-password-0001", createKey: true });
    const report = scan({ recordDir: dir, given: cardSecrets(["4111111111111111"], "spec card") });
    expect(hitList(report).sort()).toEqual([
      ["GET /continue → 303  (headers)", "secret from POST /sign-in password"],
      ["GET /cookie → 200 text/plain (headers)", "card from spec card"],
      ["GET /cookie → 200 text/plain (headers)", expect.stringMatching(/^shown-once from answer to POST \/api-keys/)],
      ["GET /hints → 200 text/plain (headers)", "card from spec card"],
      ["GET /logo.png → 200 image/png (headers)", "secret from POST /sign-in password"],
    ]);
    expect(report.hits.find((hit) => hit.where.includes("GET /continue"))?.context).toMatch(/^Location: \/welcome\?password=\[secret\]0001 /);
    // The key in its action's body stays allowed; the image's body was not kept, its headers were.
    expect(report.allowed).toBe(1);
  });
});
