import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { ApiError } from "@/lib/api/errors";
import { readJsonBody } from "@/lib/api/request";
import { runLogged } from "@/lib/api/run-logged";
import { jsonApi, streamedResponse } from "@/lib/api/responses";
import { sendWebResponse, toWebRequest } from "@/server/node-bridge";

/**
 * The lean path hands readJsonBody the bytes it already read, and writes
 * jsonApi's text straight to the socket, instead of a second pass through Web streams. What a
 * client sends and receives must be exactly what the stream path gave.
 */
let server: http.Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

async function serve(handler: (request: Request) => Promise<Response>): Promise<string> {
  server = http.createServer((req, res) => {
    void toWebRequest(req, "http://localhost", { lean: true })
      .then(handler)
      .then((response) => sendWebResponse(response, res));
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", () => resolve()));
  return `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
}

const post = (url: string, body: string) => fetch(url, { method: "POST", headers: { "content-type": "application/vnd.api+json" }, body });

describe("the lean path's bodies", () => {
  it("reads the JSON body the client sent, with multi-byte text and exact-number paths intact", async () => {
    const url = await serve(async (request) =>
      jsonApi({ got: await readJsonBody(request, { exactNumbersAt: [["amount"]] }) }, { status: 201, headers: { Location: "/x" } }),
    );
    const answer = await post(url, JSON.stringify({ name: "Zoë 😀", amount: 1 }).replace('"amount":1', '"amount":1e3'));
    expect(answer.status).toBe(201);
    expect(answer.headers.get("content-type")).toBe("application/vnd.api+json");
    expect(answer.headers.get("location")).toBe("/x");
    const text = await answer.text();
    expect(answer.headers.get("content-length")).toBe(String(Buffer.byteLength(text)));
    expect(JSON.parse(text)).toEqual({ got: { name: "Zoë 😀", amount: "1e3" } });
  });

  it("still refuses a body over a route's own smaller limit with 413", async () => {
    const url = await serve(async (request) => {
      try {
        await readJsonBody(request, { maxBytes: 10 });
        return jsonApi({ ok: true });
      } catch (error) {
        return jsonApi({ status: (error as ApiError).status }, { status: (error as ApiError).status });
      }
    });
    const answer = await post(url, JSON.stringify({ long: "x".repeat(100) }));
    expect(answer.status).toBe(413);
  });

  it("hands handlers a Request without a body stream, and answers a Response not made by jsonApi from its body", async () => {
    const url = await serve(
      async (request) =>
        new Response(`echo:${request.body === null}:${JSON.stringify(await readJsonBody(request))}`, {
          status: 200,
          headers: { "content-type": "text/plain" },
        }),
    );
    const answer = await post(url, '{"a":1}');
    expect(await answer.text()).toBe('echo:true:{"a":1}');
  });

  it("leaves the body readable for the sandboxes' servers, which are not the lean path", async () => {
    server = http.createServer((req, res) => {
      void toWebRequest(req, "http://localhost")
        .then(async (request) => new Response(`echo:${await request.text()}`, { status: 200, headers: { "content-type": "text/plain" } }))
        .then((response) => sendWebResponse(response, res));
    });
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", () => resolve()));
    const answer = await post(`http://127.0.0.1:${(server!.address() as AddressInfo).port}`, '{"a":1}');
    expect(await answer.text()).toBe('echo:{"a":1}');
  });

  it("writes an answer whose body was deferred from its text, and the wrapper adds the body back for any other caller", async () => {
    const deferred = () => jsonApi({ data: { id: "inv_1", amount: "12.50" } }, { status: 201, deferBody: true });
    expect(deferred().body).toBeNull();
    const url = await serve(async () => deferred());
    const answer = await post(url, "{}");
    expect(answer.status).toBe(201);
    expect(await answer.json()).toEqual({ data: { id: "inv_1", amount: "12.50" } });
    // Outside the lean path (Next, or a test calling a route), runLogged completes it.
    const viaNext = await runLogged(new Request("http://localhost/api/commerce/payment-invoices/inv_1"), async () => deferred());
    expect(viaNext.status).toBe(201);
    expect(viaNext.headers.get("content-type")).toBe("application/vnd.api+json");
    expect(await viaNext.json()).toEqual({ data: { id: "inv_1", amount: "12.50" } });
  });
});

describe("the lean path's streamed answers (the CSV export)", () => {
  it("writes a streamed body chunk by chunk as it is made, without a length, and stops reading it when the client goes away", async () => {
    let pulled = 0;
    let canceled = false;
    const url = await serve(async () =>
      streamedResponse(
        new Response(
          new ReadableStream<Uint8Array>(
            {
              pull(controller) {
                pulled += 1;
                controller.enqueue(new TextEncoder().encode(`${"x".repeat(64 * 1024)}\n`));
                if (pulled === 4) controller.close();
              },
              cancel() {
                canceled = true;
              },
            },
            { highWaterMark: 0 },
          ),
          { headers: { "content-type": "text/csv" } },
        ),
      ),
    );
    const answer = await fetch(url);
    expect(answer.headers.get("content-length")).toBeNull();
    expect(answer.headers.get("transfer-encoding")).toBe("chunked");
    expect((await answer.text()).length).toBe(4 * (64 * 1024 + 1));
    expect(pulled).toBe(4);

    // An endless body: the client reads a little and aborts; the server stops pulling.
    pulled = 0;
    const endless = await serve(async () =>
      streamedResponse(
        new Response(
          new ReadableStream<Uint8Array>(
            {
              pull(controller) {
                pulled += 1;
                controller.enqueue(new Uint8Array(64 * 1024));
              },
              cancel() {
                canceled = true;
              },
            },
            { highWaterMark: 0 },
          ),
        ),
      ),
    );
    const abort = new AbortController();
    const reader = (await fetch(endless, { signal: abort.signal })).body!.getReader();
    await reader.read();
    abort.abort();
    await expect.poll(() => canceled, { timeout: 5_000 }).toBe(true);
    const after = pulled;
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(pulled).toBe(after);
  });
});
