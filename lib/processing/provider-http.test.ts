import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { callProvider, createExchangeRecorder } from "./provider-http";

const call = (baseUrl: string, timeoutMs = 2000) =>
  callProvider({ baseUrl, timeoutMs, exchanges: createExchangeRecorder() }, { method: "POST", path: "/pay", body: { card: "4242424242424242" } });

/** Issue 10: whether a request may have reached the provider decides between cascading and a status request. */
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
    const answer = await callProvider({ baseUrl: `http://127.0.0.1:${port}`, timeoutMs: 200, exchanges }, { method: "POST", path: "/pay", body: { pan: "4242424242424242" } });
    silent.closeAllConnections();
    await new Promise<void>((resolve) => silent.close(() => resolve()));
    expect(answer).toMatchObject({ kind: "timed_out" });
    expect(exchanges.list()).toHaveLength(1);
    expect(JSON.stringify(exchanges.list())).not.toContain("4242424242424242");
  });
});
