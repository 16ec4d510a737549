import "server-only";
import { getDb } from "@/lib/db/client";
import { logger } from "@/lib/logger";
import { publicBaseUrl } from "@/lib/config";
import { getProviderServer } from "@/lib/providers/server/servers";
import { runWithSandboxFaults } from "@/lib/sandbox/faults";
import { runWithUnsavedAccount } from "@/lib/sandbox/unsaved-account";

function jsonError(status: number, error: string, message: string): Response {
  return Response.json({ error, message }, { status, headers: { "Cache-Control": "no-store" } });
}

/**
 * Hands a request under `/sandbox/<slug>/…` to that provider's simulated API. Each sandbox
 * answers in its own wire format; only what none of them can answer is said here, as plain JSON
 * (not JSON:API: a sandbox plays someone else's API): an unknown provider (404) and a sandbox
 * that threw (500, logged without the request body).
 */
export async function dispatchSandboxRequest(request: Request, slug: string, path: readonly string[]): Promise<Response> {
  const server = getProviderServer(slug);
  if (!server) return jsonError(404, "not_found", `No sandbox for ${slug}.`);
  try {
    const db = await getDb();
    // The connection's fault switch (faults.ts) shapes the answer once the sandbox knows whose request it is.
    // A Test connection of unsaved values carries them in a token this server made (unsaved-account.ts).
    return await runWithUnsavedAccount(request, slug, () =>
      runWithSandboxFaults(db, request, () => server.sandbox(request, { path: [...path], db, publicBaseUrl: publicBaseUrl() })),
    );
  } catch (error) {
    logger.error("sandbox failed", { provider: slug, method: request.method, path: path.join("/"), error });
    return jsonError(500, "sandbox_error", "The sandbox could not answer this request.");
  }
}
