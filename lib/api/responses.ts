import { JSON_API_CONTENT_TYPE } from "./errors";

type JsonApiResourceIdentifier = { type: string; id: string };

type JsonApiRelationship = {
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

/**
 * The text of answers made here, so the lean API path (server/node-bridge.ts) writes it to the
 * socket as it is instead of reading the Response's body stream back into a buffer.
 */
const bodyTexts = new WeakMap<Response, string>();

/** The JSON text `jsonApi` or `errorResponse` gave this Response, while its body is unread. */
export function responseTextOf(response: Response): string | undefined {
  return response.bodyUsed ? undefined : bodyTexts.get(response);
}

/** Answers whose body is made while it is sent (the CSV export): the lean path streams them instead of reading them whole first. */
const streamedBodies = new WeakSet<Response>();

export function streamedResponse(response: Response): Response {
  streamedBodies.add(response);
  return response;
}

export function isStreamedResponse(response: Response): boolean {
  return streamedBodies.has(response) && !response.bodyUsed;
}

function rememberResponseText(response: Response, text: string): Response {
  bodyTexts.set(response, text);
  return response;
}

export function jsonApi(body: unknown, { status = 200, headers }: { status?: number; headers?: HeadersInit } = {}): Response {
  const responseHeaders = new Headers(headers);
  responseHeaders.set("Content-Type", JSON_API_CONTENT_TYPE);
  const text = JSON.stringify(body);
  return rememberResponseText(new Response(text, { status, headers: responseHeaders }), text);
}
