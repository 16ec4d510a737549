import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientAddressFromHeaders, normalizeForwardedHeaders, trustedProxyHops } from "@/lib/auth/client-address";

/**
 * Who is asking, as server.ts decides it for every request before anything reads the
 * headers. A real node:http server applies the rule and echoes what the app would then see; the
 * client connects from 127.0.0.2 so the socket address differs from anything it writes.
 */
let hops = 0;
let server: http.Server;
let port = 0;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    normalizeForwardedHeaders(req.headers, req.socket.remoteAddress, hops);
    const seen = new Headers(Object.entries(req.headers).flatMap(([k, v]) => (typeof v === "string" ? [[k, v] as [string, string]] : [])));
    res.setHeader("Content-Type", "application/json");
    res.end(
      JSON.stringify({
        client: clientAddressFromHeaders(seen),
        forwardedFor: req.headers["x-forwarded-for"] ?? null,
        forwardedHost: req.headers["x-forwarded-host"] ?? null,
        forwardedProto: req.headers["x-forwarded-proto"] ?? null,
        realIp: req.headers["x-real-ip"] ?? null,
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function ask(headers: Record<string, string>): Promise<Record<string, string | null>> {
  return new Promise((resolve, reject) => {
    const request = http.request({ host: "127.0.0.1", port, path: "/", headers, localAddress: "127.0.0.2" }, (response) => {
      let body = "";
      response.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
      response.on("end", () => resolve(JSON.parse(body) as Record<string, string | null>));
    });
    request.on("error", reject);
    request.end();
  });
}

const forged = {
  "X-Forwarded-For": "203.0.113.9, 198.51.100.7",
  "X-Real-IP": "203.0.113.10",
  "X-Forwarded-Host": "evil.example",
  "X-Forwarded-Proto": "https",
};

describe("without trusted proxies (TRUST_PROXY_HOPS unset or 0)", () => {
  it("the client is the socket's address; forwarded headers written by the client are dropped", async () => {
    hops = 0;
    expect(await ask(forged)).toEqual({ client: "127.0.0.2", forwardedFor: "127.0.0.2", forwardedHost: null, forwardedProto: null, realIp: null });
    expect(await ask({})).toMatchObject({ client: "127.0.0.2" });
  });
});

describe("with N trusted proxies", () => {
  it("one proxy: the client is the address that proxy appended, the rightmost entry", async () => {
    hops = 1;
    expect(await ask(forged)).toEqual({
      client: "198.51.100.7",
      forwardedFor: "198.51.100.7",
      forwardedHost: "evil.example",
      forwardedProto: "https",
      realIp: null,
    });
  });

  it("two proxies: the second entry from the right; entries the client wrote further left are ignored", async () => {
    hops = 2;
    expect(await ask({ "X-Forwarded-For": "10.9.9.9, 203.0.113.9, 198.51.100.7" })).toMatchObject({ client: "203.0.113.9" });
    // Fewer entries than proxies: the leftmost one (what the outermost proxy present saw).
    expect(await ask({ "X-Forwarded-For": "198.51.100.7" })).toMatchObject({ client: "198.51.100.7" });
    // A proxy that sent nothing: the socket's address.
    expect(await ask({})).toMatchObject({ client: "127.0.0.2" });
  });

  it("the forwarded host kept is the one the nearest proxy set, never a list", async () => {
    hops = 1;
    expect(await ask({ "X-Forwarded-Host": "evil.example, pay.example.com" })).toMatchObject({ forwardedHost: "pay.example.com" });
  });
});

describe("the setting", () => {
  it("reads a whole number of proxies and refuses anything else at start", () => {
    expect(trustedProxyHops({})).toBe(0);
    expect(trustedProxyHops({ TRUST_PROXY_HOPS: " 2 " })).toBe(2);
    for (const bad of ["-1", "one", "1.5", "true", "100"]) expect(() => trustedProxyHops({ TRUST_PROXY_HOPS: bad })).toThrow(/TRUST_PROXY_HOPS/);
  });
});
