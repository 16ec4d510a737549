import path from "node:path";

/** Where the embedded database, its lock and the generated keys live. */
export function dataDir(): string {
  return path.resolve(/*turbopackIgnore: true*/ process.env.DATA_DIR || path.join(process.cwd(), ".data"));
}

/** PostgreSQL when DATABASE_URL is set, else the embedded PGlite default. */
export function databaseUrl(): string | undefined {
  return process.env.DATABASE_URL || undefined;
}

export function isEmbedded(): boolean {
  return databaseUrl() === undefined;
}

/**
 * This server's public address (`APP_URL`), for every URL handed to someone outside: the hosted
 * page in `hpp_url`, the sandboxes' base URL, 3-D Secure returns. Never the loopback address the
 * process listens on. Without APP_URL: http://localhost:$PORT, right for a developer's machine.
 */
export function publicBaseUrl(): string {
  const configured = process.env.APP_URL?.trim();
  if (configured) return configured.replace(/\/+$/, "");
  return `http://localhost:${process.env.PORT ?? 3000}`;
}

/** `localhost`, 127.0.0.0/8 and ::1: addresses only this machine reaches. */
export function isLoopbackHost(host: string): boolean {
  return /^(?:localhost|127(?:\.\d{1,3}){3}|::1|\[::1\])$/i.test(host.trim());
}

/**
 * Checked when `npm start` starts (server.ts passes the address it listens on to
 * lib/server-start.ts; `next dev` is not checked), so that a production server never hands
 * customers a loopback `hpp_url` or sends session cookies without `Secure`:
 * - APP_URL, when set, is an http(s) address with nothing but a host, port and path;
 * - a server others can reach (listening beyond loopback: `HOSTNAME=0.0.0.0` or an interface's
 *   address) must have APP_URL, and it must be `https://` and not a loopback address: customers
 *   type card numbers on the hosted page, and cookies are `Secure` only over https;
 * - a server behind a proxy (`TRUST_PROXY_HOPS` above 0) must have APP_URL: the proxy is how
 *   others reach it, and without APP_URL its links would name localhost.
 * A server on loopback alone with no proxy (a developer's `npm start`, the test suites) may keep
 * the `http://localhost:$PORT` default.
 */
export function checkPublicBaseUrl(listen: string, env: Record<string, string | undefined> = process.env): void {
  const configured = env.APP_URL?.trim();
  let url: URL | undefined;
  if (configured) {
    try {
      url = new URL(configured);
    } catch {
      throw new Error(`APP_URL must be an https:// address such as https://pay.example.com, got "${configured}"`);
    }
    if (!["http:", "https:"].includes(url.protocol) || url.username || url.password || url.search || url.hash) {
      throw new Error(`APP_URL must be an https:// address such as https://pay.example.com (no user, query or fragment), got "${configured}"`);
    }
  }
  // "" listens on every interface, as `server.listen` takes it.
  const behindProxy = Number(env.TRUST_PROXY_HOPS?.trim() || 0) > 0;
  if (!url) {
    if (!isLoopbackHost(listen)) {
      throw new Error(
        `APP_URL is not set, and the server listens on ${listen || "every interface"}, where others reach it: set APP_URL to its public https:// address (hosted page links, 3-D Secure returns and Secure cookies depend on it)`,
      );
    }
    if (behindProxy) {
      throw new Error(
        "APP_URL is not set, and TRUST_PROXY_HOPS says a proxy brings others to this server: set APP_URL to the public https:// address the proxy serves",
      );
    }
    return;
  }
  if (isLoopbackHost(listen)) return;
  if (url.protocol !== "https:") {
    throw new Error(
      `APP_URL must be https:// on a server others reach (it listens on ${listen || "every interface"}): customers type card numbers on the hosted page, and session cookies are Secure only over https; got "${configured}"`,
    );
  }
  if (isLoopbackHost(url.hostname)) {
    throw new Error(
      `APP_URL names a loopback address (${url.hostname}) on a server others reach (it listens on ${listen || "every interface"}): customers would get links to their own machine; set it to the public address`,
    );
  }
}

/**
 * Who may read `GET /metrics` (docs/deploy.md "Watching it"):
 * - `METRICS_TOKEN`: on the main port, to a scraper sending `Authorization: Bearer <token>`; at
 *   least 32 characters (it guards the whole process's figures; `openssl rand -hex 32` makes one);
 * - `METRICS_PORT`: on a listener of its own (on `METRICS_HOST`, 127.0.0.1 by default) without the
 *   token, for a scraper on a private network; a port from 1 to 65535 other than the server's own.
 * Neither: /metrics is not served (404). Both: both ways. Read when `npm start` starts, so a bad
 * value stops the server with the variable named.
 */
export type MetricsSettings = { token?: string; port?: number; host: string };

export function metricsSettings(env: Record<string, string | undefined> = process.env): MetricsSettings {
  const token = env.METRICS_TOKEN?.trim() || undefined;
  if (token !== undefined && token.length < 32) {
    throw new Error(`METRICS_TOKEN must be at least 32 characters (got ${token.length}); openssl rand -hex 32 makes one`);
  }
  const rawPort = env.METRICS_PORT?.trim() || undefined;
  let port: number | undefined;
  if (rawPort !== undefined) {
    port = Number(rawPort);
    if (!/^\d+$/.test(rawPort) || port < 1 || port > 65_535) throw new Error(`METRICS_PORT must be a port number from 1 to 65535, got "${env.METRICS_PORT}"`);
    if (rawPort === (env.PORT?.trim() || "3000")) throw new Error(`METRICS_PORT must differ from PORT (${rawPort}): /metrics gets a listener of its own`);
  }
  const host = env.METRICS_HOST?.trim() || "127.0.0.1";
  return { ...(token !== undefined ? { token } : {}), ...(port !== undefined ? { port } : {}), host };
}
