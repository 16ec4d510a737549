import { withPublic } from "@/lib/api/with-public";
import { dispatchSandboxRequest } from "@/lib/providers/server/sandbox-dispatch";
import { isOwnSandboxCall } from "@/lib/sandbox/self-call";

type Params = { slug: string; path?: string[] };

/**
 * Every provider's simulated API (`/sandbox/<slug>/…`), one dispatcher for every method. Public
 * like the other routes without a session or API key, so it shares their limit per client
 * address: a sandbox's sign-in (a shop login and password, a merchant ID and secret) cannot be
 * guessed at any faster than any other public route can be called. This server's own calls (test-mode
 * payments of every merchant, from one address) carry a token and are not counted.
 */
const handle = withPublic<Params>(async ({ request, params }) => dispatchSandboxRequest(request, params.slug, params.path ?? []), {
  exempt: isOwnSandboxCall,
});

export const GET = handle;
export const HEAD = handle;
export const POST = handle;
export const PUT = handle;
export const PATCH = handle;
export const DELETE = handle;
export const OPTIONS = handle;
