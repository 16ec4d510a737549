import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll } from "vitest";
import { POST as callbackRoute } from "@/app/api/callbacks/[slug]/[connectionId]/route";
import { createConnection } from "@/lib/connections/service";
import { credentialsKey } from "@/lib/vault/vault-key";
import type { Db } from "@/lib/db/client";
import { randomUUID } from "node:crypto";
import type { AdapterContext, PaymentInstruction } from "@/lib/providers/kit/adapter";
import { isSandboxUrl } from "@/lib/providers/kit/mode-guard";
import { createExchangeRecorder } from "@/lib/providers/kit/provider-http";
import type { ConnectionKind, CredentialValues } from "@/lib/providers";
import { getKind } from "@/lib/providers";
import { getProviderServer } from "@/lib/providers/server/servers";
import { runWithUnsavedAccount } from "@/lib/sandbox/unsaved-account";
import { sendWebResponse, toWebRequest } from "@/server/node-bridge";
import { createAttributes, newMerchant, parseCreate, scopeFor } from "./connection-fixtures";

/**
 * The sandboxes behind a real HTTP server on 127.0.0.1 (a free port), dispatching
 * /sandbox/<slug>/… the way app/sandbox/[slug]/[[...path]]/route.ts does, so adapters are tested
 * over the same wire as in the app; and POST /api/callbacks/<slug>/<connection id> to its route
 * module (which answers with the app's getDb(), the test's database), so a sandbox's callback job
 * reaches the service when APP_URL is this origin.
 */
export function serveSandboxes(db: () => Db, options: { asAppUrl?: boolean } = {}): { readonly origin: string } {
  let server: Server | undefined;
  let origin = "";
  const previousAppUrl = process.env.APP_URL;
  beforeAll(async () => {
    server = createServer((req, res) => {
      void (async () => {
        const request = await toWebRequest(req, origin);
        const [, first, second, ...path] = new URL(request.url).pathname.split("/");
        const callback = first === "api" && second === "callbacks" && path.length === 2 && request.method === "POST";
        const handler = first === "sandbox" && second ? getProviderServer(second)?.sandbox : undefined;
        const response = callback
          ? await callbackRoute(request, { params: Promise.resolve({ slug: decodeURIComponent(path[0]!), connectionId: decodeURIComponent(path[1]!) }) })
          : handler
            ? // As dispatchSandboxRequest: a Test connection of unsaved values is checked against its token alone.
              await runWithUnsavedAccount(request, second!, () => handler(request, { path, db: db(), publicBaseUrl: origin }))
            : new Response("not found", { status: 404 });
        await sendWebResponse(response, res);
      })().catch((error: unknown) => {
        res.writeHead(500, { "content-type": "text/plain" });
        res.end(String(error));
      });
    });
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    origin = `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
    // Test-mode connections reach the sandboxes, and sandbox callbacks the service, at APP_URL.
    if (options.asAppUrl) process.env.APP_URL = origin;
  });
  afterAll(async () => {
    if (options.asAppUrl) {
      if (previousAppUrl === undefined) delete process.env.APP_URL;
      else process.env.APP_URL = previousAppUrl;
    }
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  });
  return {
    get origin() {
      return origin;
    },
  };
}

/** A test-mode connection made through createConnection, sealed with the app's vault key (the sandboxes open it). */
export async function createTestConnection(db: Db, provider: string, kind: ConnectionKind, credentials?: CredentialValues) {
  const merchantId = await newMerchant(db);
  const attributes = createAttributes(provider, kind, "test", credentials ? { credentials } : {});
  const created = await createConnection(scopeFor(db, merchantId, credentialsKey()), parseCreate(attributes));
  if (!created.ok) throw new Error(`setup: ${JSON.stringify(created.problems)}`);
  return { merchantId, connectionId: created.value.id, credentials: attributes.credentials };
}

/**
 * What an adapter gets from the engine: the base URL, the credentials, a recorder hiding the
 * secrets. A sandbox of this server (APP_URL) is called in test mode; any other address (a closed
 * port, a silent server standing in for an unreachable provider) in live mode, the only mode that
 * may call it. The default timeout is long: a sandbox answer slowed by a loaded machine is still an
 * answer; the tests of a provider that does not answer pass their own short one.
 */
export function adapterContext(
  baseUrl: string,
  provider: string,
  kind: ConnectionKind,
  credentials: CredentialValues,
  timeoutMs = 20_000,
): AdapterContext & {
  exchanges: ReturnType<typeof createExchangeRecorder>;
} {
  const secrets = (getKind(provider, kind)?.fields ?? []).filter((field) => field.secret).map((field) => String(credentials[field.id] ?? ""));
  const mode = isSandboxUrl(baseUrl) ? "test" : "live";
  return { connectionId: "conn_test", kind, mode, baseUrl, credentials, exchanges: createExchangeRecorder(secrets), timeoutMs };
}

/** A port nothing listens on: a server is opened and closed again to find one. */
export async function closedPortUrl(): Promise<string> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

/** A server that takes requests and never answers: the adapter's timeout decides. */
export async function silentServer(): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer(() => undefined);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A payment as the engine hands it to an adapter: "100.77" in `currency`, one test card. */
export function paymentInstruction(
  card: string,
  options: { amount?: string; currency?: string; service?: string; allowPartially?: boolean } = {},
): PaymentInstruction {
  const amount = options.amount ?? "100.00";
  const [units, cents = "00"] = amount.split(".");
  return {
    invoiceId: "cpi_test",
    attemptId: "att_test",
    idempotencyKey: randomUUID(),
    service: options.service ?? "payment_card_uah_hpp",
    currency: options.currency ?? "UAH",
    amount,
    amountMinor: BigInt(units!) * 100n + BigInt(cents.padEnd(2, "0")),
    allowPartially: options.allowPartially ?? false,
    card: { number: card, expiryMonth: 12, expiryYear: 2030, cvc: "123", holder: "Olena Kovalenko" },
    customer: { name: "Olena Kovalenko" },
    options: {},
    gatewayOptions: null,
    serviceFields: null,
    returnUrl: "http://localhost:3000/pay/cpi_test/return",
  };
}
