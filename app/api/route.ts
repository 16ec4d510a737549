import { apiNotFound } from "@/lib/api/not-found-route";

/** `/api` itself (and `/api/`, which server.ts serves as `/api`): no resource, the API's JSON:API 404. */
export const GET = apiNotFound;
export const HEAD = apiNotFound;
export const POST = apiNotFound;
export const PUT = apiNotFound;
export const PATCH = apiNotFound;
export const DELETE = apiNotFound;
export const OPTIONS = apiNotFound;
