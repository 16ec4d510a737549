import { apiNotFound } from "@/lib/api/not-found-route";

/**
 * /api/commerce itself and any path under it that no route module serves: a JSON:API 404. Next
 * prefers every specific route to this catch-all; the lean path (server/commerce-routes.ts) lists it
 * last for the same effect.
 */
export const GET = apiNotFound;
export const HEAD = apiNotFound;
export const POST = apiNotFound;
export const PUT = apiNotFound;
export const PATCH = apiNotFound;
export const DELETE = apiNotFound;
export const OPTIONS = apiNotFound;
