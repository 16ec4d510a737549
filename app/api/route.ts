/** `/api` itself (and `/api/`, which server.ts serves as `/api`): no resource, the same JSON:API 404 as any unknown API path. */
export { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } from "./[...rest]/route";
