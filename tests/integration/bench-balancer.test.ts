import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBalancer, type Balancer } from "@/bench/lb";

/**
 * The scale-out bench's load balancer (bench/lb.ts): requests go to the instances in turn, bodies
 * and answers pass unchanged, the client address is appended to X-Forwarded-For, hop-by-hop headers
 * stay on their connection, and an instance that cannot be reached answers 502.
 */
type Seen = { upstream: string; method: string; url: string; body: string; headers: http.IncomingHttpHeaders };

const seen: Seen[] = [];
const upstreams: http.Server[] = [];
let balancer: Balancer;
let deadPort: number;

function listen(server: http.Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port)));
}

function upstream(name: string): http.Server {
  return http.createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      seen.push({ upstream: name, method: req.method!, url: req.url!, body, headers: req.headers });
      res.writeHead(201, { "content-type": "application/json", "x-upstream": name, "set-cookie": ["a=1", "b=2"] }).end(JSON.stringify({ name, body }));
    });
  });
}

function call(port: number, init: { method?: string; path?: string; body?: string; headers?: Record<string, string> } = {}) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, method: init.method ?? "GET", path: init.path ?? "/", headers: init.headers }, (res) => {
      let body = "";
      res.on("data", (chunk) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on("error", reject);
    req.end(init.body);
  });
}

beforeAll(async () => {
  const ports: number[] = [];
  for (const name of ["a", "b", "c"]) {
    const server = upstream(name);
    upstreams.push(server);
    ports.push(await listen(server));
  }
  balancer = await startBalancer({ targets: ports });
  const dead = http.createServer();
  deadPort = await listen(dead);
  await new Promise((resolve) => dead.close(resolve));
});

afterAll(async () => {
  await balancer?.close();
  await Promise.all(upstreams.map((server) => new Promise((resolve) => server.close(resolve))));
});

describe("bench load balancer", () => {
  it("sends the requests to the instances in turn and passes bodies and answers unchanged", async () => {
    seen.length = 0;
    const answers = [];
    for (let i = 0; i < 6; i++) {
      answers.push(await call(balancer.port, { method: "POST", path: `/api/x?i=${i}`, body: `{"n":${i}}`, headers: { "content-type": "application/json" } }));
    }
    expect(seen.map((s) => s.upstream)).toEqual(["a", "b", "c", "a", "b", "c"]);
    expect(seen.map((s) => [s.method, s.url, s.body])).toEqual(Array.from({ length: 6 }, (_, i) => ["POST", `/api/x?i=${i}`, `{"n":${i}}`]));
    expect(answers.map((a) => a.status)).toEqual(Array(6).fill(201));
    expect(answers.map((a) => a.headers["x-upstream"])).toEqual(["a", "b", "c", "a", "b", "c"]);
    expect(answers[0]!.headers["set-cookie"]).toEqual(["a=1", "b=2"]);
    expect(JSON.parse(answers[4]!.body)).toEqual({ name: "b", body: '{"n":4}' });
  });

  it("appends the client address to X-Forwarded-For and keeps hop-by-hop headers on their connection", async () => {
    seen.length = 0;
    await call(balancer.port, { headers: { "x-forwarded-for": "203.0.113.7", "proxy-authorization": "Basic eDp5", "x-request-id": "abc" } });
    await call(balancer.port);
    expect(seen[0]!.headers["x-forwarded-for"]).toBe("203.0.113.7, 127.0.0.1");
    expect(seen[0]!.headers["proxy-authorization"]).toBeUndefined();
    expect(seen[0]!.headers["x-request-id"]).toBe("abc");
    expect(seen[1]!.headers["x-forwarded-for"]).toBe("127.0.0.1");
    expect(seen[1]!.headers["x-forwarded-proto"]).toBe("http");
  });

  it("answers 502 when an instance cannot be reached", async () => {
    const partial = await startBalancer({ targets: [deadPort] });
    try {
      const answer = await call(partial.port, { method: "POST", body: "{}" });
      expect(answer.status).toBe(502);
      expect(answer.body).toContain("Bad Gateway");
    } finally {
      await partial.close();
    }
  });

  it("refuses to start without an instance", () => {
    expect(() => startBalancer({ targets: [] })).toThrow(/targets/);
  });
});
