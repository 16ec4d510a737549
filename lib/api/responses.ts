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

/**
 * Answers built without a body stream (the invoice API's hot answers): the lean path writes their
 * text as it is; any other caller gets the body added back by the wrapper every such handler runs
 * in (`runLogged`, through `completeDeferredBody`). Building a Response around a string costs a
 * web stream, most of a JSON:API answer's price on the lean path (`npm run bench:api`'s profile).
 */
const deferredBodies = new WeakSet<Response>();

export type JsonApiInit = {
  status?: number;
  headers?: HeadersInit;
  /** Only for answers returned through a wrapper that calls `completeDeferredBody` (withApiKey's handlers). */
  deferBody?: boolean;
};

export function jsonApi(body: unknown, { status = 200, headers, deferBody = false }: JsonApiInit = {}): Response {
  const responseHeaders = new Headers(headers);
  responseHeaders.set("Content-Type", JSON_API_CONTENT_TYPE);
  const text = JSON.stringify(body);
  if (!deferBody) return rememberResponseText(new Response(text, { status, headers: responseHeaders }), text);
  const response = rememberResponseText(new Response(null, { status, headers: responseHeaders }), text);
  deferredBodies.add(response);
  return response;
}

/** The answer with its body, for any reader but the lean path (which writes the remembered text itself). */
export function completeDeferredBody(response: Response): Response {
  if (!deferredBodies.has(response)) return response;
  const text = bodyTexts.get(response)!;
  return rememberResponseText(new Response(text, { status: response.status, statusText: response.statusText, headers: response.headers }), text);
}
