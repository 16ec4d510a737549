import { afterEach, describe, expect, it } from "vitest";
import * as route from "@/app/sandbox/[slug]/[[...path]]/route";
import type { ProviderAdapter } from "@/lib/providers/kit/adapter";
import type { SandboxContext } from "@/lib/providers/kit/provider-server";
import { registerProviderServer } from "@/lib/providers/server/servers";
import { currentUnsavedAccount, mintUnsavedAccountToken, UNSAVED_ACCOUNT_HEADER } from "@/lib/sandbox/unsaved-account";
import { setUpTestDb } from "./helpers/db";

setUpTestDb();

const unusedAdapter = {} as ProviderAdapter;
let unregister: (() => void) | undefined;

afterEach(() => {
  unregister?.();
  unregister = undefined;
});

function call(method: keyof typeof route, slug: string, path?: string[]) {
  const url = `http://localhost/sandbox/${slug}/${(path ?? []).join("/")}`;
  const request = new Request(url, { method, ...(method === "POST" ? { body: "{}" } : {}) });
  return route[method](request, { params: Promise.resolve({ slug, ...(path ? { path } : {}) }) });
}

describe("app/sandbox/[slug]/[[...path]] (the sandboxes' dispatcher)", () => {
  it("answers an unknown provider with a JSON 404", async () => {
    const response = await call("GET", "provider-nobody", ["v1", "payments"]);
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toContain("application/json");
    expect(await response.json()).toEqual({ error: "not_found", message: "No sandbox for provider-nobody." });
  });

  it("hands every method and the path below the slug to that provider's sandbox", async () => {
    const seen: { method: string; context: Omit<SandboxContext, "db"> }[] = [];
    unregister = registerProviderServer({
      slug: "provider-test-dispatch",
      adapter: unusedAdapter,
      sandbox: async (request, context) => {
        seen.push({ method: request.method, context: { path: context.path, publicBaseUrl: context.publicBaseUrl } });
        return Response.json({ ok: true }, { status: 201 });
      },
    });
    for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE"] as const) {
      const response = await call(method, "provider-test-dispatch", ["v1", "payments"]);
      expect(response.status).toBe(201);
    }
    await call("GET", "provider-test-dispatch");
    expect(seen.map((s) => s.method)).toEqual(["GET", "POST", "PUT", "PATCH", "DELETE", "GET"]);
    expect(seen[0]!.context.path).toEqual(["v1", "payments"]);
    expect(seen[5]!.context.path).toEqual([]);
    expect(seen[0]!.context.publicBaseUrl).toMatch(/^https?:\/\//);
  });

  it("answers a sandbox that throws with a JSON 500", async () => {
    unregister = registerProviderServer({
      slug: "provider-test-throws",
      adapter: unusedAdapter,
      sandbox: async () => {
        throw new Error("boom");
      },
    });
    const response = await call("POST", "provider-test-throws", ["x"]);
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ error: "sandbox_error", message: "The sandbox could not answer this request." });
  });
});

describe("the dispatcher and Test connection of unsaved values (lib/sandbox/unsaved-account.ts)", () => {
  const slug = "provider-test-unsaved";
  async function seenWith(token: string | undefined): Promise<unknown> {
    let seen: unknown = "not called";
    unregister = registerProviderServer({
      slug,
      adapter: unusedAdapter,
      sandbox: async () => {
        seen = currentUnsavedAccount();
        return Response.json({ ok: true });
      },
    });
    const headers: Record<string, string> = token === undefined ? {} : { [UNSAVED_ACCOUNT_HEADER]: token };
    await route.GET(new Request(`http://localhost/sandbox/${slug}/v1/account`, { headers }), { params: Promise.resolve({ slug, path: ["v1", "account"] }) });
    unregister();
    unregister = undefined;
    return seen;
  }

  it("without the header the sandbox looks among the saved accounts (undefined)", async () => {
    expect(await seenWith(undefined)).toBeUndefined();
  });

  it("with this server's token the sandbox sees the typed values, and only those", async () => {
    expect(await seenWith(mintUnsavedAccountToken(slug, { merchant_id: "M-1", secret_key: "typed-secret" }))).toEqual({
      merchant_id: "M-1",
      secret_key: "typed-secret",
    });
  });

  it("a forged, expired or other provider's token opens nothing, and the saved accounts are not looked at either (null)", async () => {
    expect(await seenWith("v2.forged.token")).toBeNull();
    expect(await seenWith(mintUnsavedAccountToken(slug, { merchant_id: "M-1" }, Date.now() - 61_000))).toBeNull();
    expect(await seenWith(mintUnsavedAccountToken("provider-b", { terminal_id: "T-1" }))).toBeNull();
  });
});
