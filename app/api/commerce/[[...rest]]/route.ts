import { ApiError } from "@/lib/api/errors";
import { withPublic } from "@/lib/api/with-api-key";

/**
 * /api/commerce itself and any path under it that no route module serves: a JSON:API 404, as API
 * clients expect, instead of Next's HTML page. Next prefers every specific route to this catch-all; the
 * lean path (server/commerce-routes.ts) lists it last for the same effect.
 */
const notFound = withPublic<{ rest?: string[] }>(async () => {
  throw new ApiError(404, "not_found", "Not found", "No API resource at this path; the routes are listed in /api/commerce/openapi.json.");
});

export const GET = notFound;
export const HEAD = notFound;
export const POST = notFound;
export const PUT = notFound;
export const PATCH = notFound;
export const DELETE = notFound;
export const OPTIONS = notFound;
