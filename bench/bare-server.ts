/**
 * The baseline of `npm run bench`: a bare node:http server that does the same validation
 * (validateInvoice) and the same database insert (insertInvoiceOnce) as the invoice API, and
 * nothing else: no framework, no auth, no routing query, no idempotency read.
 */
import http from "node:http";
import { openEmbedded, openPostgres } from "@/lib/db/client";
import { newId } from "@/lib/ids";
import { invoiceValues } from "@/lib/invoices/create/invoice-values";
import { validateInvoice } from "@/lib/invoices/contract/validate-invoice";
import { requestHash } from "@/lib/invoices/create/request-hash";
import { findRoute } from "@/lib/invoices/create/routing";
import { insertInvoiceOnce } from "@/lib/invoices/create/store";

const port = Number(process.env.PORT);
const merchantId = process.env.BENCH_MERCHANT_ID!;
const handle = process.env.DATABASE_URL ? await openPostgres(process.env.DATABASE_URL) : await openEmbedded(process.env.DATA_DIR!);
const route = (await findRoute(handle.db, merchantId, { service: "payment_card_eur_hpp", mode: "test" }))!;

const server = http.createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on("data", (chunk: Buffer) => chunks.push(chunk));
  request.on("end", async () => {
    try {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      const validation = validateInvoice("payment", body);
      if (!validation.ok) {
        response.writeHead(422, { "content-type": "application/json" }).end(JSON.stringify({ errors: validation.problems }));
        return;
      }
      const id = newId("cpi");
      const prepared = invoiceValues({ id, merchantId, direction: "payment", data: body.data, envelope: validation.value, route, hash: requestHash(body.data) });
      if (!prepared.ok) throw new Error("values");
      await insertInvoiceOnce(handle.db, prepared.values, null);
      response.writeHead(201, { "content-type": "application/json" }).end(JSON.stringify({ data: { id } }));
    } catch {
      response.writeHead(500).end();
    }
  });
});
server.listen(port, "127.0.0.1", () => process.stdout.write("ready\n"));
process.on("SIGTERM", () => server.close(() => handle.close().then(() => process.exit(0))));
