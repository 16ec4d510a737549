import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll } from "vitest";
import { dispatchSandboxRequest } from "@/lib/providers/server/sandbox-dispatch";
import { sendWebResponse, toWebRequest } from "@/server/node-bridge";

/**
 * The sandboxes served over real HTTP on 127.0.0.1, as `/sandbox/<slug>/…` of this server would
 * serve them: adapters reach them with fetch, so integration tests run the same path as the app.
 * With `callbacks`, also the app's provider-callback route (`/api/callbacks/<slug>/<connectionId>`),
 * where the sandboxes send their callbacks. Point APP_URL at `baseUrl` while it runs.
 */
export async function startSandboxServer(options: { callbacks?: boolean } = {}): Promise<{ baseUrl: string; close: () => Promise<void> }> {
  // Imported only when asked for: the route brings the callback layer with it.
  const callbackRoute = options.callbacks ? (await import("@/app/api/callbacks/[slug]/[connectionId]/route")).POST : undefined;
  let origin = "";
  // node:http ⇄ Web Request/Response as the app's own server does it (server/node-bridge.ts).
  const server = createServer((req, res) => {
    void (async () => {
      const request = await toWebRequest(req, origin);
      const [, root, slug, ...path] = new URL(request.url).pathname.split("/");
      const answer =
        root === "sandbox" && slug
          ? await dispatchSandboxRequest(request, slug, path)
          : callbackRoute && root === "api" && slug === "callbacks" && path.length === 2
            ? await callbackRoute(request, { params: Promise.resolve({ slug: path[0]!, connectionId: path[1]! }) })
            : new Response("not found", { status: 404 });
      await sendWebResponse(answer, res).catch(() => undefined);
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    baseUrl: origin,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * For a whole test file: the sandboxes served over HTTP from before its first test, with APP_URL
 * pointing at them (adapters build sandbox URLs from it), and APP_URL restored after its last.
 * `baseUrl()` is the server's address once it runs.
 */
export function serveSandboxesAsAppUrl(options: { callbacks?: boolean } = {}): { baseUrl: () => string } {
  let sandbox: Awaited<ReturnType<typeof startSandboxServer>> | undefined;
  const previousAppUrl = process.env.APP_URL;
  beforeAll(async () => {
    sandbox = await startSandboxServer(options);
    process.env.APP_URL = sandbox.baseUrl;
  });
  afterAll(async () => {
    if (previousAppUrl === undefined) delete process.env.APP_URL;
    else process.env.APP_URL = previousAppUrl;
    await sandbox?.close();
  });
  return {
    baseUrl: () => {
      if (!sandbox) throw new Error("the sandbox server starts in beforeAll");
      return sandbox.baseUrl;
    },
  };
}
