/**
 * Who is asking, for the per-address limits (sign-in, password reset). `X-Forwarded-For` is written
 * by whoever sends the request, so it is believed only as far as the operator says:
 * `TRUST_PROXY_HOPS` is the number of reverse proxies in front of this server that append the
 * address they received the request from (default 0: none, the socket's own address is the
 * client). With N hops the client is the Nth address from the right of `X-Forwarded-For`: what the
 * outermost trusted proxy saw; anything further left was written by the client and is ignored.
 *
 * `server.ts` applies this once per request and replaces `X-Forwarded-For` with the single address
 * it chose (and drops `X-Real-IP`), so everything after it reads `clientAddressFromHeaders`.
 */
export function trustedProxyHops(env: Record<string, string | undefined> = process.env): number {
  const raw = env.TRUST_PROXY_HOPS?.trim();
  if (!raw) return 0;
  if (!/^\d{1,2}$/.test(raw)) throw new Error(`TRUST_PROXY_HOPS must be a whole number of proxies (0 to 99), not "${raw}"`);
  return Number(raw);
}

const MAX_ADDRESS_LENGTH = 64;

function entries(forwardedFor: string | string[] | undefined): string[] {
  const joined = Array.isArray(forwardedFor) ? forwardedFor.join(",") : (forwardedFor ?? "");
  return joined
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean);
}

/** The client's address from the socket's peer and the `X-Forwarded-For` received, trusting `hops` proxies. */
function resolveClientAddress(socketAddress: string | undefined, forwardedFor: string | string[] | undefined, hops: number): string {
  const peer = (socketAddress || "unknown").slice(0, MAX_ADDRESS_LENGTH);
  if (hops <= 0) return peer;
  const list = entries(forwardedFor);
  if (list.length === 0) return peer;
  // Fewer entries than trusted proxies: the leftmost one is the furthest address anyone trusted wrote.
  const chosen = list[Math.max(0, list.length - hops)]!;
  return chosen.slice(0, MAX_ADDRESS_LENGTH);
}

/**
 * The address `server.ts` settled on. Under `next dev` (no server.ts) nothing settles it: there the
 * first `X-Forwarded-For` entry is read, a developer's machine having no one to spoof.
 */
export function clientAddressFromHeaders(headers: Headers | undefined): string {
  const first = headers?.get("x-forwarded-for")?.split(",")[0]?.trim().slice(0, MAX_ADDRESS_LENGTH);
  return first || "local";
}

/**
 * The `X-Forwarded-Host` the server may believe: none without trusted proxies (a client could name
 * any host and so satisfy the server actions' origin check), else the value the nearest proxy set.
 */
function trustedForwardedValue(forwardedHost: string | string[] | undefined, hops: number): string | undefined {
  if (hops <= 0) return undefined;
  const list = entries(forwardedHost);
  return list.length ? list[list.length - 1] : undefined;
}

type NodeHeaders = Record<string, string | string[] | undefined>;

/**
 * Rewrites a node:http request's forwarding headers before anything reads them (`server.ts`):
 * `X-Forwarded-For` becomes the one client address chosen above; `X-Real-IP` goes; without
 * trusted proxies `X-Forwarded-Host`, `-Proto` and `-Port` go too (Next then fills them from the
 * connection itself), with them each keeps the value the nearest proxy set.
 */
export function normalizeForwardedHeaders(headers: NodeHeaders, socketAddress: string | undefined, hops: number): void {
  headers["x-forwarded-for"] = resolveClientAddress(socketAddress, headers["x-forwarded-for"], hops);
  delete headers["x-real-ip"];
  for (const name of ["x-forwarded-host", "x-forwarded-proto", "x-forwarded-port"]) {
    const kept = trustedForwardedValue(headers[name], hops);
    if (kept) headers[name] = kept;
    else delete headers[name];
  }
}
