import { ApiError } from "./errors";
import { withPublic } from "./with-public";

/**
 * The API's catch-alls (`app/api/[...rest]`, `app/api/commerce/[[...rest]]`): a path no route module
 * serves answers a JSON:API 404 with X-Request-Id and meta.request_id, as API clients expect,
 * instead of Next's HTML page.
 */
export const apiNotFound = withPublic<{ rest?: string[] }>(async () => {
  throw new ApiError(404, "not_found", "Not found", "No API resource at this path; the routes are listed in /api/commerce/openapi.json.");
});
