/**
 * A small round-robin HTTP load balancer for the scale-out bench (`npm run bench:scale`): each
 * request goes to the next instance in turn, over keep-alive connections to every instance
 * (node:http agents), and the answer streams back unchanged. Like a real balancer it drops the
 * hop-by-hop headers and appends the client address to X-Forwarded-For (the instances trust one
 * proxy hop, TRUST_PROXY_HOPS=1). An instance that cannot be reached answers 502. Loopback only.
 *
 * As a module: `startBalancer({ targets: [3601, 3602] })`. As its own process (how the bench runs
 * it, so it does not share the load generator's event loop):
 *   node --import tsx bench/lb.ts 3601 3602   → prints `listening <port>` once it accepts connections
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { pathToFileURL } from "node:url";

export type Balancer = { port: number; close: () => Promise<void> };

type Options = {
  /** Ports of the instances on 127.0.0.1, served in turn. */
  targets: number[];
  /** 0 (the default): any free port. */
  port?: number;
};

// RFC 9110 §7.6.1: meant for one connection, never forwarded.
const HOP_BY_HOP = new Set(["connection", "keep-alive", "proxy-connection", "proxy-authenticate", "proxy-authorization", "te", "trailer", "upgrade"]);

function forwardable(headers: http.IncomingHttpHeaders): http.OutgoingHttpHeaders {
  const out: http.OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined && !HOP_BY_HOP.has(name)) out[name] = value;
  return out;
}

export function startBalancer(options: Options): Promise<Balancer> {
  if (!options.targets.length) throw new Error("startBalancer: targets must name at least one port");
  // One pool per instance. Idle sockets are dropped after 4 s, before the instances' own 5 s
  // keep-alive timeout (Node's default), so the balancer never writes to a socket the instance is closing.
  const upstreams = options.targets.map((port) => ({ port, agent: new http.Agent({ keepAlive: true, maxFreeSockets: 256, timeout: 4_000 }) }));
  let next = 0;

  const server = http.createServer((req, res) => {
    const upstream = upstreams[next]!;
    next = (next + 1) % upstreams.length;
    const headers = forwardable(req.headers);
    const client = req.socket.remoteAddress ?? "127.0.0.1";
    headers["x-forwarded-for"] = req.headers["x-forwarded-for"] ? `${req.headers["x-forwarded-for"]}, ${client}` : client;
    headers["x-forwarded-proto"] = "http";
    const proxied = http.request({ host: "127.0.0.1", port: upstream.port, method: req.method, path: req.url, headers, agent: upstream.agent }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, forwardable(answer.headers));
      answer.pipe(res);
    });
    proxied.on("error", () => {
      if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain" }).end("Bad Gateway: the instance could not be reached.");
      else res.destroy();
    });
    // A client that goes away stops the request it was sending.
    req.on("aborted", () => proxied.destroy());
    req.pipe(proxied);
  });
  server.keepAliveTimeout = 5_000;

  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        port,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
            for (const upstream of upstreams) upstream.agent.destroy();
          }),
      });
    });
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const targets = process.argv.slice(2).map(Number);
  if (!targets.length || targets.some((port) => !Number.isInteger(port) || port <= 0 || port > 65_535)) {
    console.error("usage: node --import tsx bench/lb.ts <instance port> [<instance port> …]");
    process.exit(2);
  }
  const balancer = await startBalancer({ targets, port: Number(process.env.LB_PORT ?? 0) });
  console.log(`listening ${balancer.port}`);
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => void balancer.close().then(() => process.exit(0)));
}
