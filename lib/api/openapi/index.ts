export { buildOpenApiDocument, SAVED_CARD_EXAMPLE_PROVIDER } from "./document";
