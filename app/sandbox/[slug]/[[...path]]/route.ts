import { dispatchSandboxRequest } from "@/lib/sandbox/dispatch";

type Params = { slug: string; path?: string[] };

/** Every provider's simulated API (`/sandbox/<slug>/…`), one dispatcher for every method. */
async function handle(request: Request, context: { params: Promise<Params> }): Promise<Response> {
  const { slug, path } = await context.params;
  return dispatchSandboxRequest(request, slug, path ?? []);
}

export const GET = handle;
export const HEAD = handle;
export const POST = handle;
export const PUT = handle;
export const PATCH = handle;
export const DELETE = handle;
export const OPTIONS = handle;
