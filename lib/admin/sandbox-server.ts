import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { Db } from "@/lib/db/client";
import { getProviderServer } from "@/lib/providers/server/servers";
import { sendWebResponse, toWebRequest } from "@/server/node-bridge";

/**
 * The sandboxes behind a node:http server on 127.0.0.1 (a free port), dispatching /sandbox/<slug>/…
 * as app/sandbox/[slug]/[[...path]]/route.ts does. seed-demo runs while the app is stopped, so the
 * adapters reach the sandboxes here, over the same wire, with APP_URL pointing at this origin for
 * the seeding only (restored by `close`).
 */
export async function startSeedSandboxes(db: Db): Promise<{ origin: string; close: () => Promise<void> }> {
  let origin = "";
  const server = createServer((req, res) => {
    void (async () => {
      const request = await toWebRequest(req, origin);
      const [, first, slug, ...path] = new URL(request.url).pathname.split("/");
      const handler = first === "sandbox" && slug ? getProviderServer(slug)?.sandbox : undefined;
      const response = handler ? await handler(request, { path, db, publicBaseUrl: origin }) : new Response("not found", { status: 404 });
      await sendWebResponse(response, res);
    })().catch(() => {
      res.writeHead(502, { "content-type": "text/plain" });
      res.end("sandbox failed");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const previousAppUrl = process.env.APP_URL;
  process.env.APP_URL = origin;
  return {
    origin,
    close: async () => {
      if (previousAppUrl === undefined) delete process.env.APP_URL;
      else process.env.APP_URL = previousAppUrl;
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
