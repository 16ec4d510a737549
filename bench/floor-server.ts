/**
 * The floor of `npm run bench:api`: what no create path can beat. A bare node:http server that
 * parses the JSON, checks by hand that the required attributes are there, and stores the attributes
 * as one jsonb value in a table with one unique index (its primary key). Reads are a select by id and
 * a simple filtered select on that table. No framework, no auth, no validation beyond presence.
 * The merchant of a read is the `x-bench-account` header (the bench sends it to every server).
 */
import http from "node:http";
import { randomBytes } from "node:crypto";
import path from "node:path";

type Query = (text: string, params: unknown[]) => Promise<Record<string, unknown>[]>;

async function open(): Promise<{ query: Query; close: () => Promise<void> }> {
  if (process.env.DATABASE_URL) {
    const { default: postgres } = await import("postgres");
    const sql = postgres(process.env.DATABASE_URL, { max: 10, onnotice: () => {} });
    return { query: (text, params) => sql.unsafe(text, params as never[]) as unknown as Promise<Record<string, unknown>[]>, close: () => sql.end() };
  }
  const { PGlite } = await import("@electric-sql/pglite");
  const client = await PGlite.create(path.join(process.env.DATA_DIR!, "floor"));
  return { query: async (text, params) => (await client.query<Record<string, unknown>>(text, params)).rows, close: () => client.close() };
}

const db = await open();
await db.query(
  `create table if not exists bench_floor (
     id text primary key, merchant text not null, direction text not null,
     attributes jsonb not null, created_at timestamptz not null default now())`,
  [],
);

const REQUIRED = {
  payment: ["service", "commerce_account", "currency", "amount", "reference_id"],
  payout: ["service", "commerce_account", "currency", "amount", "reference_id", "fields"],
};
const COLLECTION = /^\/api\/commerce\/(payment|payout)-invoices(?:\/([^/?]+))?(?:\?(.*))?$/;
let sequence = 0;
/** Time-ordered ids, so the primary key also serves "newest first". */
const newFloorId = () => `f_${Date.now().toString(36)}${(sequence++ % 1296).toString(36).padStart(2, "0")}${randomBytes(6).toString("hex")}`;

function send(response: http.ServerResponse, status: number, body: unknown) {
  const text = JSON.stringify(body);
  response.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) }).end(text);
}

async function handle(request: http.IncomingMessage, body: string, response: http.ServerResponse) {
  const match = COLLECTION.exec(request.url ?? "");
  if (!match) return send(response, 404, { errors: [{ status: "404" }] });
  const direction = match[1] as "payment" | "payout";
  if (request.method === "POST") {
    const attributes = (JSON.parse(body) as { data?: { attributes?: Record<string, unknown> } }).data?.attributes;
    const missing = attributes ? REQUIRED[direction].filter((name) => attributes[name] === undefined) : ["attributes"];
    if (missing.length) return send(response, 422, { errors: missing.map((name) => ({ status: "422", detail: `${name} is required` })) });
    const id = newFloorId();
    await db.query("insert into bench_floor (id, merchant, direction, attributes) values ($1, $2, $3, $4)", [
      id,
      attributes!.commerce_account,
      direction,
      attributes,
    ]);
    return send(response, 201, { data: { id, type: `${direction}-invoice`, attributes } });
  }
  const merchant = String(request.headers["x-bench-account"] ?? "");
  if (match[2]) {
    const [row] = await db.query("select id, attributes, created_at from bench_floor where id = $1 and merchant = $2 and direction = $3", [
      match[2],
      merchant,
      direction,
    ]);
    return row ? send(response, 200, { data: row }) : send(response, 404, { errors: [{ status: "404" }] });
  }
  const currency = new URLSearchParams(match[3] ?? "").get("currency") ?? "EUR";
  const rows = await db.query(
    "select id, attributes, created_at from bench_floor where merchant = $1 and direction = $2 and attributes->>'currency' = $3 order by id desc limit 20",
    [merchant, direction, currency],
  );
  return send(response, 200, { data: rows });
}

const server = http.createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on("data", (chunk: Buffer) => chunks.push(chunk));
  request.on("end", () => {
    handle(request, Buffer.concat(chunks).toString("utf8"), response).catch(() => {
      if (!response.headersSent) response.writeHead(500).end();
    });
  });
});
server.listen(Number(process.env.PORT), "127.0.0.1", () => process.stdout.write("ready\n"));
process.on("SIGTERM", () => {
  server.close(() => void db.close().then(() => process.exit(0)));
  server.closeAllConnections();
});
