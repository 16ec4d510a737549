import { JSON_API_CONTENT_TYPE } from "./errors";

export type JsonApiResourceIdentifier = { type: string; id: string };

export type JsonApiRelationship = {
  data: JsonApiResourceIdentifier | JsonApiResourceIdentifier[] | null;
  links?: { related?: string };
};

export type JsonApiResource<A> = {
  type: string;
  id: string;
  attributes: A;
  relationships?: Record<string, JsonApiRelationship>;
  links?: { self: string };
};

/** Lists carry `links.next` (null on the last page) and `meta` (../shared/REFERENCE.md "Resources"). */
export type JsonApiDocument<A> = {
  data: JsonApiResource<A> | JsonApiResource<A>[];
  links?: { self?: string; next?: string | null };
  meta?: Record<string, unknown>;
};

export function jsonApi(body: unknown, { status = 200, headers }: { status?: number; headers?: HeadersInit } = {}): Response {
  const responseHeaders = new Headers(headers);
  responseHeaders.set("Content-Type", JSON_API_CONTENT_TYPE);
  return new Response(JSON.stringify(body), { status, headers: responseHeaders });
}
