import { describe, expect, it } from "vitest";
import { ApiError } from "./errors";
import { DISCARD_MAX_BYTES, readJsonBody, requestIdOf } from "./request";

const URL_ = "http://localhost/api/commerce/payment-invoices";

function post(body: BodyInit, headers: Record<string, string> = { "content-type": "application/json" }): Request {
  return new Request(URL_, { method: "POST", body, headers });
}

function streamOf(chunks: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
}

async function failureOf(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe("readJsonBody", () => {
  it("parses application/json with a charset parameter", async () => {
    const body = await readJsonBody(post('{"data":{"type":"x"}}', { "content-type": "application/json; charset=utf-8" }));
    expect(body).toEqual({ data: { type: "x" } });
  });

  it("refuses application/vnd.api+json with a parameter other than ext or profile with 415 (JSON:API 1.1)", async () => {
    const failure = await failureOf(readJsonBody(post('{"data":{"type":"x"}}', { "content-type": "application/vnd.api+json; charset=utf-8" })));
    expect(failure).toMatchObject({ status: 415, code: "unsupported_media_type" });
  });

  it("hands on an amount written with an exponent as its source text, so the amount rule refuses it like the string", async () => {
    const text = '{"data":{"attributes":{"amount":1E3,"lifetime":1e3,"x":[1e2,{"amount":2e1}]}}}';
    const body = (await readJsonBody(post(text, { "content-type": "application/json" }), { exactNumbersAt: [["data", "attributes", "amount"]] })) as {
      data: { attributes: Record<string, unknown> };
    };
    expect(body.data.attributes).toEqual({ amount: "1E3", lifetime: 1000, x: [100, { amount: 20 }] });
    const plain = (await readJsonBody(post('{"data":{"attributes":{"amount":100.5}}}', { "content-type": "application/json" }), {
      exactNumbersAt: [["data", "attributes", "amount"]],
    })) as {
      data: { attributes: Record<string, unknown> };
    };
    expect(plain.data.attributes.amount).toBe(100.5);
  });

  it("refuses other media types with 415", async () => {
    expect((await failureOf(readJsonBody(post("a=1", { "content-type": "application/x-www-form-urlencoded" })))).code).toBe("unsupported_media_type");
    expect((await failureOf(readJsonBody(post("{}", {})))).status).toBe(415);
  });

  it("refuses a declared Content-Length over the limit with 413 before reading", async () => {
    const request = post("{}", { "content-type": "application/json", "content-length": "70000" });
    const error = await failureOf(readJsonBody(request));
    expect([error.status, error.code]).toEqual([413, "payload_too_large"]);
  });

  it("refuses a chunked body without Content-Length once it passes the limit", async () => {
    const chunk = "x".repeat(1000);
    const request = new Request(URL_, {
      method: "POST",
      body: streamOf(['{"a":"', ...Array.from({ length: 70 }, () => chunk), '"}']),
      headers: { "content-type": "application/json" },
      duplex: "half",
    } as RequestInit);
    expect(request.headers.get("content-length")).toBeNull();
    expect((await failureOf(readJsonBody(request))).status).toBe(413);
  });

  it("reads the rest of an oversized body to its end before answering 413, so the client can finish sending and read it", async () => {
    let pulled = 0;
    let cancelled = false;
    const chunk = new Uint8Array(16 * 1024).fill(120);
    const endless = (chunks: number) =>
      new ReadableStream<Uint8Array>({
        pull(controller) {
          if (pulled === chunks) return controller.close();
          pulled += 1;
          controller.enqueue(chunk);
        },
        cancel() {
          cancelled = true;
        },
      });
    const request = (chunks: number) =>
      new Request(URL_, { method: "POST", body: endless(chunks), headers: { "content-type": "application/json" }, duplex: "half" } as RequestInit);

    expect((await failureOf(readJsonBody(request(64)))).status).toBe(413);
    expect([pulled, cancelled]).toEqual([64, false]);

    // Past DISCARD_MAX_BYTES the stream is cancelled rather than read for ever.
    pulled = 0;
    const beyond = DISCARD_MAX_BYTES / chunk.byteLength + 100;
    expect((await failureOf(readJsonBody(request(beyond)))).status).toBe(413);
    expect(cancelled).toBe(true);
    expect(pulled).toBeLessThan(beyond);
  });

  it("accepts a chunked body within the limit", async () => {
    const request = new Request(URL_, {
      method: "POST",
      body: streamOf(['{"a":', "1}"]),
      headers: { "content-type": "application/json" },
      duplex: "half",
    } as RequestInit);
    expect(await readJsonBody(request, { maxBytes: 10 })).toEqual({ a: 1 });
  });

  it("reports malformed JSON with a position and without echoing the body", async () => {
    const error = await failureOf(readJsonBody(post('{"card_number":"4111111111111111",}')));
    expect([error.status, error.code]).toEqual([400, "malformed_json"]);
    expect(error.detail).toContain("position 34");
    expect(error.detail).not.toContain("4111");
  });

  it("reports an empty body as malformed", async () => {
    expect((await failureOf(readJsonBody(post("")))).code).toBe("malformed_json");
  });
});

describe("requestIdOf", () => {
  const withId = (id?: string) => new Request(URL_, { headers: id === undefined ? {} : { "x-request-id": id } });

  it("keeps a well-formed incoming id", () => {
    expect(requestIdOf(withId("abc-123_x.y:z"))).toBe("abc-123_x.y:z");
  });

  it("replaces missing, too long or odd ids with a fresh req_ id", () => {
    for (const id of [undefined, "", "x".repeat(129), "bad id", 'a"b', "line\u00e9"]) {
      const result = requestIdOf(withId(id));
      expect(result).toMatch(/^req_[A-Za-z0-9_-]{22}$/);
    }
    expect(requestIdOf(withId())).not.toBe(requestIdOf(withId()));
  });
});
