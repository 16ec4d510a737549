export { buildOpenApiDocument } from "./document";
