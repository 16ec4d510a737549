import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { SANDBOX_CALLER_HEADER, sandboxCallerToken } from "@/lib/sandbox/self-call";
import { callProvider, createExchangeRecorder } from "@/lib/providers/kit/provider-http";

const call = (baseUrl: string, timeoutMs = 2000) =>
  callProvider({ mode: "live", baseUrl, timeoutMs, exchanges: createExchangeRecorder() }, { method: "POST", path: "/pay", body: { card: "4242424242424242" } });

/** Whether a request may have reached the provider decides between cascading and a status request. */
describe("callProvider", () => {
  it("reports a refused connection and an address fetch will not dial as not sent", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    expect(await call(`http://127.0.0.1:${port}`)).toMatchObject({ kind: "not_sent" });
    expect(await call("http://127.0.0.1:9")).toMatchObject({ kind: "not_sent" });
    expect(await call("not a url")).toMatchObject({ kind: "not_sent" });
  });

  it("reports a request without an answer in time as timed out, and records it with the card number masked", async () => {
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const { port } = silent.address() as AddressInfo;
    const exchanges = createExchangeRecorder();
    const answer = await callProvider(
      { mode: "live", baseUrl: `http://127.0.0.1:${port}`, timeoutMs: 200, exchanges },
      { method: "POST", path: "/pay", body: { pan: "4242424242424242" } },
    );
    silent.closeAllConnections();
    await new Promise<void>((resolve) => silent.close(() => resolve()));
    expect(answer).toMatchObject({ kind: "timed_out" });
    expect(exchanges.list()).toHaveLength(1);
    expect(JSON.stringify(exchanges.list())).not.toContain("4242424242424242");
  });

  it("sends a test-mode call only to the sandbox and a live-mode call never to this server: otherwise nothing leaves", async () => {
    let received = 0;
    let callerHeader: string | undefined;
    const provider = createServer((request, response) => {
      received += 1;
      callerHeader = request.headers[SANDBOX_CALLER_HEADER] as string | undefined;
      response.end("{}");
    });
    await new Promise<void>((resolve) => provider.listen(0, "127.0.0.1", resolve));
    const { port } = provider.address() as AddressInfo;
    const previous = process.env.APP_URL;
    try {
      process.env.APP_URL = `http://127.0.0.1:${port}`;
      const send = (mode: "test" | "live", baseUrl: string) =>
        callProvider({ mode, baseUrl, timeoutMs: 2000, exchanges: createExchangeRecorder() }, { method: "POST", path: "/pay", body: {} });
      expect(await send("live", `http://127.0.0.1:${port}/sandbox/provider-b`)).toEqual({
        kind: "not_sent",
        message: "not sent: A live-mode connection may not call this server or its sandboxes; nothing was sent.",
      });
      expect(await send("live", `http://localhost:${port}/anything`)).toMatchObject({ kind: "not_sent" });
      process.env.APP_URL = "http://127.0.0.1:9";
      expect(await send("test", `http://127.0.0.1:${port}/sandbox/provider-b`)).toEqual({
        kind: "not_sent",
        message: "not sent: A test-mode connection may only call its sandbox; nothing was sent.",
      });
      expect(received).toBe(0);
      process.env.APP_URL = `http://127.0.0.1:${port}`;
      const exchanges = createExchangeRecorder();
      const answer = await callProvider(
        { mode: "test", baseUrl: `http://127.0.0.1:${port}/sandbox/provider-b`, timeoutMs: 2000, exchanges },
        { method: "POST", path: "/pay", body: {} },
      );
      expect(answer).toMatchObject({ kind: "answered", status: 200 });
      expect(received).toBe(1);
      // The sandbox learns it is this server calling; the attempt log, which merchants read, never holds the token.
      expect(callerHeader).toBe(sandboxCallerToken());
      expect(JSON.stringify(exchanges.list())).not.toContain(SANDBOX_CALLER_HEADER);
      expect(JSON.stringify(exchanges.list())).not.toContain(sandboxCallerToken());
    } finally {
      if (previous === undefined) delete process.env.APP_URL;
      else process.env.APP_URL = previous;
      await new Promise<void>((resolve) => provider.close(() => resolve()));
    }
  });
});
