import { apiNotFound } from "@/lib/api/not-found-route";

/**
 * Any path under /api that no route module serves (`/api/connections/x/y`, `/api/nothing`): the
 * same JSON:API 404 as under /api/commerce. Every specific route, and /api/commerce's own
 * catch-all, wins over this one.
 */
export const GET = apiNotFound;
export const HEAD = apiNotFound;
export const POST = apiNotFound;
export const PUT = apiNotFound;
export const PATCH = apiNotFound;
export const DELETE = apiNotFound;
export const OPTIONS = apiNotFound;
