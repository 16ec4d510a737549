import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import * as pageRoute from "@/app/(public)/pay/[id]/route";
import * as payRoute from "@/app/(public)/pay/[id]/pay/route";
import * as assetRoute from "@/app/(public)/pay/assets/[file]/route";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { credentialsKey } from "@/lib/vault/vault-key";
import { createInvoice } from "@/lib/invoices/create/create-invoice";
import { PAYMENT_EXAMPLES } from "@/tests/fixtures/invoices";
import { logger } from "@/lib/logger";
import { payAssetResponse } from "@/lib/pay/page/assets";
import { setUpTestDb } from "./helpers/db";
import { bodyFor, connect, invoiceMerchant, newReference, type InvoiceMerchant } from "./helpers/invoice-fixtures";
import { serveSandboxesAsAppUrl } from "./helpers/sandbox-server";

/**
 * The hosted page as HTML with its own small script, and Pay as a route. What a browser
 * gets: the page with its assets, the answer to the script's JSON, and a plain form post for a
 * browser without the script; what an attacker gets: refusals, never a 500.
 */
const t = setUpTestDb();
const CARD = { number: "4242 4242 4242 4242", expiry: "12/30", cvc: "123", holder: "Ada Lovelace" };
const NONCE = "bm9uY2Utb2YtdGhpcy1yZXF1ZXN0";

const sandbox = serveSandboxesAsAppUrl();
beforeEach(() => {
  for (const level of ["info", "warn"] as const) vi.spyOn(logger, level).mockImplementation(() => {});
});
afterEach(() => vi.restoreAllMocks());

async function invoice(): Promise<string> {
  const m: InvoiceMerchant = await invoiceMerchant(t.db);
  await connect(t.db, m.merchantId, "provider-b", "h2h", { vaultKey: credentialsKey() });
  const created = await createInvoice(
    t.db,
    m.merchant,
    "payment",
    bodyFor(PAYMENT_EXAMPLES["B: EUR without customer"], m.account, { reference_id: newReference() }),
  );
  if (created.kind !== "created") throw new Error(`setup: ${JSON.stringify(created)}`);
  return created.invoice.id;
}

const params = (id: string) => ({ params: Promise.resolve({ id }) });

async function page(id: string) {
  const response = await pageRoute.GET(new Request(`http://localhost/pay/${id}`, { headers: { "x-nonce": NONCE } }), params(id));
  return { response, text: await response.text() };
}

function post(id: string, body: string, headers: Record<string, string>) {
  return payRoute.POST(new Request(`http://localhost/pay/${id}/pay`, { method: "POST", headers: { host: "localhost", ...headers }, body }), params(id));
}

describe("GET /pay/{id}", () => {
  it("is HTML with the card form, its stylesheet and one script carrying this request's nonce, never cached", async () => {
    const id = await invoice();
    const { response, text } = await page(id);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(text).toMatch(/^<!DOCTYPE html>/);
    expect(text).toContain('<label for="pay-number" class="label">Card number</label>');
    const scripts = text.match(/<script\b[^>]*>/g) ?? [];
    expect(scripts).toHaveLength(1);
    expect(scripts[0]).toMatch(new RegExp(`^<script src="/pay/assets/pay-[0-9a-f]{16}\\.js" nonce="${NONCE}" defer>$`));
    expect(text).toMatch(/<link rel="stylesheet" href="\/pay\/assets\/pay-[0-9a-f]{16}\.css">/);
  });

  it("a test invoice's Test cards panel offers the dispute cards and says which evidence wins a test dispute", async () => {
    const { text } = await page(await invoice());
    expect(text).toContain('data-test-card="4000 0000 0000 0259" data-label="Disputed: fraudulent"');
    expect(text).toContain('data-test-card="4000 0000 0000 2685" data-label="Disputed: not received"');
    expect(text).toMatch(/data-testid="test-disputes">[^<]*winning_evidence[^<]*wins/);
  });

  it("serves the page's assets under their hashed names for a year, and nothing else there", async () => {
    const { text } = await page(await invoice());
    for (const [, name, type] of text.matchAll(/\/pay\/assets\/(pay-[0-9a-f]{16}\.(js|css))/g)) {
      const response = await assetRoute.GET(new Request(`http://localhost/pay/assets/${name}`), { params: Promise.resolve({ file: name! }) });
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toContain(type === "js" ? "text/javascript" : "text/css");
      expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      const body = await response.text();
      // The stylesheet has the page's own components (.btn-primary, .input), and the script the card checks.
      expect(body).toContain(type === "js" ? "This card number is not valid: check the digits." : ".btn-primary");
    }
    for (const name of ["pay-0000000000000000.js", "..%2Fpackage.json", "pay.js"]) {
      expect((await assetRoute.GET(new Request("http://localhost/x"), { params: Promise.resolve({ file: name }) })).status).toBe(404);
    }
  });

  it("sends the assets compressed as the browser accepts where server.ts writes them, the same bytes once decoded", async () => {
    const { text } = await page(await invoice());
    for (const [, name] of text.matchAll(/\/pay\/assets\/(pay-[0-9a-f]{16}\.(?:js|css))/g)) {
      const plain = Buffer.from(await (await payAssetResponse(name!, null, true)).arrayBuffer());
      const br = await payAssetResponse(name!, "gzip, deflate, br", true);
      expect(br.headers.get("content-encoding")).toBe("br");
      expect(br.headers.get("vary")).toBe("Accept-Encoding");
      const brBody = Buffer.from(await br.arrayBuffer());
      expect(brBody.length).toBeLessThan(plain.length / 2);
      expect(brotliDecompressSync(brBody).equals(plain)).toBe(true);
      const gzip = await payAssetResponse(name!, "gzip", true);
      expect(gunzipSync(Buffer.from(await gzip.arrayBuffer())).equals(plain)).toBe(true);
      // The route module Next calls (`next dev`) never says an encoding it could not keep.
      expect((await payAssetResponse(name!, "br", false)).headers.get("content-encoding")).toBeNull();
    }
  });

  it("is a plain not-found page for an unknown id, with no script", async () => {
    const { response, text } = await page("cpi_doesnotexist0000000000");
    expect(response.status).toBe(404);
    expect(text).toContain('data-testid="pay-not-found"');
    expect(text).not.toContain("<script");
  });
});

describe("POST /pay/{id}/pay", () => {
  it("answers the page's script with the result, the invoice's public view and the payment part rendered anew, without the card", async () => {
    const id = await invoice();
    const response = await post(id, JSON.stringify(CARD), { "content-type": "application/json", origin: "http://localhost" });
    expect(response.status).toBe(200);
    const answer = (await response.json()) as { ok: boolean; kind: string; invoice: { outcome: { kind: string } }; html: string };
    expect(answer).toMatchObject({ ok: true, kind: "result", invoice: { outcome: { kind: "paid" } } });
    expect(answer.html).toContain("Payment received");
    expect(answer.html).not.toContain('data-testid="card-form"');
    expect(JSON.stringify(answer)).not.toMatch(/4242 ?4242 ?4242 ?4242/);
  });

  it("names each wrong field for the script, and keeps the cardholder name", async () => {
    const id = await invoice();
    const response = await post(id, JSON.stringify({ ...CARD, number: "4242 4242 4242 4241", expiry: "13/30" }), { "content-type": "application/json" });
    expect(await response.json()).toEqual({
      ok: false,
      fieldErrors: { number: "This card number is not valid: check the digits.", expiry: "Enter the expiry date as MM/YY, e.g. 04/29." },
    });
  });

  it("without the script: a good card is paid and the browser goes back to the page; a wrong one gets the page with the errors (422)", async () => {
    const id = await invoice();
    const wrong = await post(id, new URLSearchParams({ ...CARD, cvc: "1" }).toString(), {
      "content-type": "application/x-www-form-urlencoded",
      origin: "http://localhost",
    });
    expect(wrong.status).toBe(422);
    const text = await wrong.text();
    expect(text).toContain('<p id="pay-cvc-error" class="field-error">Enter the 3 or 4 digit CVC.</p>');
    expect(text).toContain('aria-invalid="true"');
    expect(text).toContain('value="Ada Lovelace"');
    // The card number is never sent back, not even into its own field.
    expect(text.match(/<input id="pay-number"[^>]*>/)?.[0]).not.toContain("value=");

    const paid = await post(id, new URLSearchParams(CARD).toString(), { "content-type": "application/x-www-form-urlencoded", origin: "http://localhost" });
    expect(paid.status).toBe(303);
    expect(paid.headers.get("location")).toBe(`/pay/${id}`);
    expect((await page(id)).text).toContain("Payment received");
  });

  it("without the script, sends the browser on to 3-D Secure on this site with a 303, on another site by a link (form-action 'self')", async () => {
    const form = new URLSearchParams({ ...CARD, number: "4000 0000 0000 3220" }).toString();
    const appHost = new URL(sandbox.baseUrl()).host;
    const here = await post(await invoice(), form, { "content-type": "application/x-www-form-urlencoded", host: appHost, origin: sandbox.baseUrl() });
    expect(here.status).toBe(303);
    expect(new URL(here.headers.get("location")!).pathname).toMatch(/^\/sandbox\/3ds\/provider-b\//);

    // The page was opened on another host than the 3-D Secure page's (a live provider's own site): a
    // browser would block a form's redirect there, so the answer is a page with the link to follow.
    const away = await post(await invoice(), form, { "content-type": "application/x-www-form-urlencoded", origin: "http://localhost", "x-nonce": NONCE });
    expect(away.status).toBe(200);
    expect(away.headers.get("location")).toBeNull();
    expect(away.headers.get("content-type")).toBe("text/html; charset=utf-8");
    // Outside /api the answer keeps the page's own policy (proxy.ts), not the API's.
    expect(away.headers.get("content-security-policy")).toBeNull();
    const text = await away.text();
    const link = /<a class="[^"]*" href="([^"]+)" data-testid="continue-link">/.exec(text)?.[1]?.replaceAll("&amp;", "&");
    expect(link && new URL(link).host).toBe(appHost);
    expect(new URL(link!).pathname).toMatch(/^\/sandbox\/3ds\/provider-b\//);
    expect(text).not.toContain("<script");
  });

  it("refuses another site's form, other content types and unreadable bodies, and pays nothing", async () => {
    const id = await invoice();
    const cases: [string, Record<string, string>, number][] = [
      [new URLSearchParams(CARD).toString(), { "content-type": "application/x-www-form-urlencoded", origin: "https://evil.example" }, 403],
      [JSON.stringify(CARD), { "content-type": "application/json", origin: "null" }, 403],
      [JSON.stringify(CARD), { "content-type": "application/json", origin: "https://evil.example", "x-forwarded-host": "pay.example.com" }, 403],
      [JSON.stringify(CARD), { "content-type": "text/plain" }, 415],
      ["{", { "content-type": "application/json" }, 400],
      ["[]", { "content-type": "application/json" }, 400],
      [JSON.stringify({ ...CARD, holder: "x".repeat(9000) }), { "content-type": "application/json" }, 400],
    ];
    for (const [body, headers, status] of cases) {
      const response = await post(id, body, headers);
      expect(response.status, `${headers["content-type"]} ${body.slice(0, 20)}`).toBe(status);
      expect(await response.json()).toMatchObject({ ok: false, message: expect.any(String) });
    }
    expect((await page(id)).text).not.toContain("Payment received");
  });

  it("takes the script's Pay behind a load balancer, whose Host is its own but X-Forwarded-Host the customer's", async () => {
    const id = await invoice();
    const response = await post(id, JSON.stringify(CARD), {
      "content-type": "application/json",
      host: "10.0.0.7:3000",
      origin: "https://pay.example.com",
      "x-forwarded-host": "pay.example.com",
    });
    expect(await response.json()).toMatchObject({ ok: true, kind: "result", invoice: { outcome: { kind: "paid" } } });
  });

  it("answers 404 for an invoice that is no hosted payment", async () => {
    const response = await post("cpi_doesnotexist0000000000", JSON.stringify(CARD), { "content-type": "application/json" });
    expect(response.status).toBe(404);
  });
});
