import { expect } from "vitest";
import type { RouteHandler } from "@/lib/api/run-logged";
import { assertValidApiResponse } from "../../helpers/api-validator";

type ErrorObject = { status: string; code: string; title: string; detail: string; source?: { pointer?: string; parameter?: string } };
export type Answer<D = unknown> = { status: number; headers: Headers; text: string; json: { data: D; errors: ErrorObject[]; meta?: Record<string, unknown> } };
/** `rawBody` is sent as written, for what JSON.stringify cannot spell (`10.009999999999999999`, `1e3`). */
export type Call = { method?: string; path: string; key?: string | null; body?: unknown; rawBody?: string; headers?: Record<string, string> };

/** Calls a route handler as Next would; every answer must carry a request id and must never be a 500. */
export async function send<D = unknown, P = Record<string, string>>(handler: RouteHandler<P>, params: P, call: Call): Promise<Answer<D>> {
  const headers = new Headers();
  if (call.key) headers.set("authorization", `Bearer ${call.key}`);
  for (const [name, value] of Object.entries(call.headers ?? {})) headers.set(name, value);
  const init: RequestInit = { method: call.method ?? "GET", headers };
  if (call.body !== undefined || call.rawBody !== undefined) {
    headers.set("content-type", "application/vnd.api+json");
    init.body = call.rawBody ?? JSON.stringify(call.body);
  }
  const response = await handler(new Request(`http://test${call.path}`, init), { params: Promise.resolve(params) });
  const text = await response.text();
  expect(response.headers.get("x-request-id")).toMatch(/^[A-Za-z0-9._:-]{1,128}$/);
  expect(response.status).toBeLessThan(500);
  // Every answer is held to the OpenAPI document and the official JSON:API schema.
  assertValidApiResponse({ method: init.method!, url: call.path, status: response.status, headers: response.headers, body: text });
  return { status: response.status, headers: response.headers, text, json: text ? JSON.parse(text) : undefined };
}

/** Each error as [pointer, code], sorted, for table-driven checks. */
export function errorsOf(answer: Answer): [string, string][] {
  return (answer.json.errors ?? []).map((e): [string, string] => [e.source?.pointer ?? "(none)", e.code]).sort();
}
