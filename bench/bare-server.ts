/**
 * The same-work baseline of `npm run bench:api`: a bare node:http server doing what the invoice API
 * does with the app's own functions and nothing else: no framework, no auth, no rate limit, no
 * routing query per request (routes are looked up once), no idempotency read, no expiry job.
 * Create: validateInvoice, the request hash and invoiceValues, then insertInvoiceOnce. Read:
 * getInvoice and listInvoices (readApiListQuery for the filter) rendered with toInvoiceResource.
 * The merchant of a read is the `x-bench-account` header (the bench sends it to every server).
 */
import http from "node:http";
import { toInvoiceResource } from "@/lib/api/invoice-resource";
import { publicBaseUrl } from "@/lib/config";
import { openEmbedded, openPostgres } from "@/lib/db/client";
import { newId } from "@/lib/ids";
import { validateInvoice } from "@/lib/invoices/contract/validate-invoice";
import { invoiceValues } from "@/lib/invoices/create/invoice-values";
import { requestHash } from "@/lib/invoices/create/request-hash";
import { findRoute, type Route } from "@/lib/invoices/create/routing";
import { insertInvoiceOnce } from "@/lib/invoices/create/store";
import { readApiListQuery } from "@/lib/invoices/read/filters";
import { getInvoice } from "@/lib/invoices/read/get-invoice";
import { listInvoices } from "@/lib/invoices/read/list-invoices";
import type { InvoiceDirection } from "@/lib/providers";

/** [commerce account, merchant id] of every bench merchant. */
const merchants = new Map<string, string>(JSON.parse(process.env.BENCH_MERCHANTS!) as [string, string][]);
const handle = process.env.DATABASE_URL ? await openPostgres(process.env.DATABASE_URL) : await openEmbedded(process.env.DATA_DIR!);
const SERVICES = { payment: "payment_card_eur_hpp", payout: "payment_card_uah" } as const;
const routes = new Map<string, Route>();
for (const merchantId of merchants.values()) {
  for (const direction of ["payment", "payout"] as const) {
    routes.set(`${merchantId} ${direction}`, (await findRoute(handle.db, merchantId, { service: SERVICES[direction], mode: "test" }))!);
  }
}
const COLLECTION = /^\/api\/commerce\/(payment|payout)-invoices(?:\/([^/?]+))?(?:\?.*)?$/;
const baseUrl = publicBaseUrl();

function send(response: http.ServerResponse, status: number, body: unknown) {
  const text = JSON.stringify(body);
  response.writeHead(status, { "content-type": "application/vnd.api+json", "content-length": Buffer.byteLength(text) }).end(text);
}

async function create(direction: InvoiceDirection, text: string, response: http.ServerResponse) {
  const body = JSON.parse(text);
  const validation = validateInvoice(direction, body);
  if (!validation.ok) return send(response, 422, { errors: validation.problems });
  const merchantId = merchants.get(validation.value.data.attributes.commerce_account ?? "");
  if (!merchantId) return send(response, 403, { errors: [{ status: "403" }] });
  const id = newId(direction === "payment" ? "cpi" : "cpoi");
  const route = routes.get(`${merchantId} ${direction}`)!;
  const prepared = invoiceValues({ id, merchantId, direction, data: body.data, envelope: validation.value, route, hash: requestHash(body.data) });
  if (!prepared.ok) return send(response, 422, { errors: prepared.problems });
  await insertInvoiceOnce(handle.db, prepared.value);
  send(response, 201, { data: { id } });
}

async function handleRequest(request: http.IncomingMessage, text: string, response: http.ServerResponse) {
  const url = new URL(request.url ?? "/", "http://localhost");
  const match = COLLECTION.exec(request.url ?? "");
  if (!match) return send(response, 404, { errors: [{ status: "404" }] });
  const direction = match[1] as InvoiceDirection;
  if (request.method === "POST") return create(direction, text, response);
  const merchantId = merchants.get(String(request.headers["x-bench-account"] ?? ""));
  if (!merchantId) return send(response, 401, { errors: [{ status: "401" }] });
  if (match[2]) {
    const row = await getInvoice(handle.db, merchantId, direction, decodeURIComponent(match[2]));
    return row ? send(response, 200, { data: toInvoiceResource(row, { baseUrl }) }) : send(response, 404, { errors: [{ status: "404" }] });
  }
  const filter = readApiListQuery(url.searchParams, direction);
  if (!filter.ok) return send(response, 400, { errors: filter.problems });
  const page = await listInvoices(handle.db, merchantId, filter.value);
  send(response, 200, { data: page.invoices.map((row) => toInvoiceResource(row, { baseUrl })), meta: { page_size: filter.value.pageSize } });
}

const server = http.createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on("data", (chunk: Buffer) => chunks.push(chunk));
  request.on("end", () => {
    handleRequest(request, Buffer.concat(chunks).toString("utf8"), response).catch(() => {
      if (!response.headersSent) response.writeHead(500).end();
    });
  });
});
server.listen(Number(process.env.PORT), "127.0.0.1", () => process.stdout.write("ready\n"));
process.on("SIGTERM", () => {
  server.close(() => void handle.close().then(() => process.exit(0)));
  server.closeAllConnections();
});
