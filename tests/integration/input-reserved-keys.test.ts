import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

/** The session cookie is next-auth's business; here `auth()` answers with whoever the test signs in. */
const session = vi.hoisted(() => ({ userId: undefined as string | undefined }));
vi.mock("@/lib/auth", () => ({
  auth: async () => (session.userId ? { user: { id: session.userId } } : null),
}));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));

import { POST as POST_PAYMENT } from "@/app/api/commerce/payment-invoices/route";
import { POST as POST_PAYOUT } from "@/app/api/commerce/payout-invoices/route";
import { sendComposedInvoiceAction, type ComposerSendResult } from "@/lib/actions/invoice-composer";
import { PAYMENT_EXAMPLES, payoutExample } from "@/tests/fixtures/invoices";
import { setUpTestDb } from "./helpers/db";
import { bodyFor, connect, countInvoices, newReference, teamMerchant, type TeamMerchant } from "./helpers/invoice-fixtures";

/**
 * The member names `__proto__`, `constructor` and `prototype` are
 * refused anywhere inside a customer object, as unknown attributes and constants already are,
 * each with a JSON:API error whose pointer names the member. Through the invoice API as any
 * client sends it (raw JSON, since JSON.stringify cannot write a `__proto__` member) and through
 * the composer's server action, which posts to the same API over HTTP.
 */
const t = setUpTestDb();
let m: TeamMerchant;

type ErrorObject = { code: string; title: string; detail: string; source?: { pointer?: string } };

async function post(handler: typeof POST_PAYMENT, path: string, rawBody: string, key = m.key) {
  const response = await handler(
    new Request(`http://test${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/vnd.api+json" },
      body: rawBody,
    }),
    { params: Promise.resolve({}) },
  );
  const json = (await response.json()) as { data?: { id: string }; errors?: ErrorObject[] };
  return { status: response.status, json };
}

const pointers = (errors: ErrorObject[] | undefined) => (errors ?? []).map((e) => [e.source?.pointer, e.code, e.title]);

/** A payment body whose customer (at `spot`) is the given raw JSON text. */
function paymentWithCustomer(customerJson: string, spot: "attributes" | "data" | "gateway_options" = "attributes"): { raw: string; reference: string } {
  const reference = newReference();
  const body = bodyFor(PAYMENT_EXAMPLES["B: EUR with customer"], m.account, { reference_id: reference, customer: undefined }) as {
    data: { attributes: Record<string, unknown> } & Record<string, unknown>;
  };
  if (spot === "attributes") body.data.attributes.customer = "CUSTOMER";
  if (spot === "data") body.data.customer = "CUSTOMER";
  if (spot === "gateway_options") body.data.attributes.gateway_options = { customer: "CUSTOMER" };
  return { raw: JSON.stringify(body).replace('"CUSTOMER"', customerJson), reference };
}

beforeAll(async () => {
  m = await teamMerchant(t.db);
  await connect(t.db, m.merchantId, "provider-b", "h2h");
});

describe("invoice API: reserved member names in the customer", () => {
  it("refuses __proto__ at the top of the customer and inside its address, each at its own pointer, and creates nothing", async () => {
    const { raw, reference } = paymentWithCustomer('{"name": "Ada", "__proto__": {"name": "x"}, "address": {"city": "Riga", "__proto__": {"admin": true}}}');
    const answer = await post(POST_PAYMENT, "/api/commerce/payment-invoices", raw);
    expect(answer.status).toBe(422);
    expect(pointers(answer.json.errors)).toEqual([
      ["/data/attributes/customer/__proto__", "unknown_attribute", "Unknown field"],
      ["/data/attributes/customer/address/__proto__", "unknown_attribute", "Unknown field"],
    ]);
    expect(answer.json.errors![0]!.detail).toContain('"__proto__" is a reserved name');
    expect(await countInvoices(t.db, m.merchantId, reference)).toBe(0);
  });

  it("refuses constructor and prototype too, deep inside a provider extra and in the other customer spots", async () => {
    const nested = await post(
      POST_PAYMENT,
      "/api/commerce/payment-invoices",
      paymentWithCustomer('{"name": "Ada", "extra": {"list": [{"constructor": {"prototype": 1}}]}, "address": {"prototype": "x"}}').raw,
    );
    expect(nested.status).toBe(422);
    expect(pointers(nested.json.errors).map(([pointer]) => pointer)).toEqual([
      "/data/attributes/customer/address/prototype",
      "/data/attributes/customer/extra/list/0/constructor",
    ]);
    const inData = await post(POST_PAYMENT, "/api/commerce/payment-invoices", paymentWithCustomer('{"constructor": "x"}', "data").raw);
    expect(pointers(inData.json.errors)).toEqual([["/data/customer/constructor", "unknown_attribute", "Unknown field"]]);
    const inGateway = await post(POST_PAYMENT, "/api/commerce/payment-invoices", paymentWithCustomer('{"__proto__": null}', "gateway_options").raw);
    expect(pointers(inGateway.json.errors)).toEqual([["/data/attributes/gateway_options/customer/__proto__", "unknown_attribute", "Unknown field"]]);
  });

  it("reports them together with the body's other problems, and on payouts too", async () => {
    const body = JSON.stringify(bodyFor(PAYMENT_EXAMPLES["B: EUR with customer"], m.account, { reference_id: newReference(), amount: 0, customer: "C" }));
    const answer = await post(POST_PAYMENT, "/api/commerce/payment-invoices", body.replace('"C"', '{"email": "not-an-email", "__proto__": 1}'));
    expect(answer.status).toBe(422);
    expect(pointers(answer.json.errors).map(([pointer]) => pointer)).toEqual(
      expect.arrayContaining(["/data/attributes/customer/__proto__", "/data/attributes/customer/email", "/data/attributes/amount"]),
    );
    const payout = JSON.stringify(bodyFor(payoutExample(), m.account, { reference_id: newReference(), customer: "C" })).replace(
      '"C"',
      '{"address": {"__proto__": {}}}',
    );
    const refused = await post(POST_PAYOUT, "/api/commerce/payout-invoices", payout);
    expect(refused.status).toBe(422);
    expect(pointers(refused.json.errors)).toEqual([["/data/attributes/customer/address/__proto__", "unknown_attribute", "Unknown field"]]);
  });

  it("still takes ordinary extras whose names merely contain the words", async () => {
    const { raw } = paymentWithCustomer('{"name": "Ada", "proto": 1, "constructor_id": "c-1", "address": {"prototype_city": "Riga"}}');
    const answer = await post(POST_PAYMENT, "/api/commerce/payment-invoices", raw);
    expect(answer.status).toBe(201);
  });
});

describe("composer action: the API's refusal reaches the form", () => {
  let server: Server;
  const previousBase = process.env.INVOICE_API_BASE_URL;

  beforeAll(async () => {
    // The invoice API over real HTTP, as the composer reaches it in production.
    server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", async () => {
        const headers = new Headers();
        for (const [name, value] of Object.entries(request.headers)) if (typeof value === "string") headers.set(name, value);
        const handler = request.url === "/api/commerce/payout-invoices" ? POST_PAYOUT : POST_PAYMENT;
        const answer = await handler(new Request(`http://127.0.0.1${request.url}`, { method: "POST", headers, body: Buffer.concat(chunks) }), {
          params: Promise.resolve({}),
        });
        response.writeHead(answer.status, Object.fromEntries(answer.headers));
        response.end(Buffer.from(await answer.arrayBuffer()));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    process.env.INVOICE_API_BASE_URL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    if (previousBase === undefined) delete process.env.INVOICE_API_BASE_URL;
    else process.env.INVOICE_API_BASE_URL = previousBase;
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  beforeEach(() => {
    session.userId = m.ownerId;
  });

  it("relays the 422 with the pointer at the reserved member; nothing is created", async () => {
    const { raw, reference } = paymentWithCustomer('{"name": "Ada", "address": {"city": "Riga", "constructor": {"prototype": {}}}}');
    const result = await sendComposedInvoiceAction({ direction: "payment", body: raw });
    expect(result.ok).toBe(true);
    const sent = (result as { data: ComposerSendResult }).data;
    expect(sent.status).toBe(422);
    expect(sent.invoiceId).toBeUndefined();
    expect(pointers((sent.body as { errors: ErrorObject[] }).errors)).toEqual([
      ["/data/attributes/customer/address/constructor", "unknown_attribute", "Unknown field"],
    ]);
    expect(await countInvoices(t.db, m.merchantId, reference)).toBe(0);
  });

  it("a support member's test-mode request is refused the same way", async () => {
    session.userId = m.supportId;
    const { raw } = paymentWithCustomer('{"__proto__": {"name": "x"}}');
    const result = await sendComposedInvoiceAction({ direction: "payment", body: raw });
    const sent = (result as { data: ComposerSendResult }).data;
    expect([sent.status, pointers((sent.body as { errors: ErrorObject[] }).errors)]).toEqual([
      422,
      [["/data/attributes/customer/__proto__", "unknown_attribute", "Unknown field"]],
    ]);
  });
});
