import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { BlockList, isIP } from "node:net";
import { problem, type Problem, type Result } from "@/lib/problems";

/**
 * The webhook endpoint URL check: https only in production, and no address inside the
 * operator's network (private, loopback, link-local, unique-local, CGNAT, multicast, reserved,
 * IPv4 embedded in IPv6) unless the operator allows it. Run when the URL is saved and again when
 * sending, and the sender connects only to addresses `guardedLookup` let through, so a name that
 * resolves to a public address at save and to 127.0.0.1 later (DNS rebinding) is still refused.
 */

/**
 * `WEBHOOKS_ALLOW_PRIVATE_URLS`: "1" allows private and loopback receivers, "0" refuses them;
 * unset, they are allowed outside production (a developer's receiver on localhost, the test
 * suite's on 127.0.0.1) and refused in production.
 */
export function allowPrivateWebhookUrls(): boolean {
  const setting = process.env.WEBHOOKS_ALLOW_PRIVATE_URLS?.trim();
  if (setting === "1") return true;
  if (setting === "0") return false;
  return process.env.NODE_ENV !== "production";
}

function requireHttps(): boolean {
  return process.env.NODE_ENV === "production";
}

/**
 * What this server accepts as a webhook endpoint URL, in plain words, from the same two settings the
 * check reads (shown in Settings and on /docs/webhooks, so the help is true where it is read).
 */
export function webhookUrlRules(): string {
  const https = requireHttps();
  const privateOk = allowPrivateWebhookUrls();
  if (https && !privateOk)
    return "This server accepts https:// URLs on the public internet only: plain http:// and private, loopback or link-local addresses are refused.";
  if (https) {
    return "This server accepts https:// URLs, private and loopback addresses included (WEBHOOKS_ALLOW_PRIVATE_URLS=1); plain http:// only to a loopback address written as such, such as http://127.0.0.1:4000/webhooks.";
  }
  if (privateOk) {
    return "This server is not running in production, so it accepts http:// and https:// URLs, private and loopback addresses included, such as http://localhost:4000/webhooks. In production only https:// URLs on the public internet are accepted.";
  }
  return "This server accepts http:// and https:// URLs on the public internet; private, loopback and link-local addresses are refused (WEBHOOKS_ALLOW_PRIVATE_URLS=0).";
}

/**
 * Ranges no merchant endpoint may live in (IANA special-purpose registries), one list per family:
 * Node's BlockList also matches an IPv4 address against IPv6 rules in its ::ffff:a.b.c.d form, so
 * one list holding ::ffff:0:0/96 would refuse every IPv4 address, public ones included.
 */
const BLOCKED_V4 = new BlockList();
const BLOCKED_V6 = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8], // "this network", unspecified
  ["10.0.0.0", 8], // private
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8], // loopback
  ["169.254.0.0", 16], // link-local (cloud metadata services live here)
  ["172.16.0.0", 12], // private
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.0.2.0", 24], // documentation
  ["192.88.99.0", 24], // 6to4 relay
  ["192.168.0.0", 16], // private
  ["198.18.0.0", 15], // benchmarking
  ["198.51.100.0", 24], // documentation
  ["203.0.113.0", 24], // documentation
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, broadcast
] as const) {
  BLOCKED_V4.addSubnet(network, prefix, "ipv4");
}
for (const [network, prefix] of [
  ["::", 128], // unspecified
  ["::1", 128], // loopback
  ["::ffff:0:0", 96], // IPv4-mapped: a receiver is named by its IPv4 address, never this way
  ["::ffff:0:0:0", 96], // IPv4-translated
  ["::", 96], // IPv4-compatible (deprecated)
  ["64:ff9b::", 96], // NAT64: reaches IPv4 addresses, private ones included
  ["64:ff9b:1::", 48], // local-use NAT64
  ["100::", 64], // discard
  ["2001::", 23], // IETF protocol assignments (Teredo included)
  ["2001:db8::", 32], // documentation
  ["2002::", 16], // 6to4: embeds an IPv4 address
  ["fc00::", 7], // unique local
  ["fe80::", 10], // link-local
  ["fec0::", 10], // site-local (deprecated)
  ["ff00::", 8], // multicast
] as const) {
  BLOCKED_V6.addSubnet(network, prefix, "ipv6");
}

/** Whether an IP address is one a webhook may not reach (without the operator's allowance). */
export function isBlockedAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  return family === 4 ? BLOCKED_V4.check(address, "ipv4") : BLOCKED_V6.check(address, "ipv6");
}

const WEBHOOK_URL_FIELD = "url";

const refuse = (message: string): Result<never> => ({ ok: false, problems: [problem("invalid_url", message, [WEBHOOK_URL_FIELD])] });

/** The URL's syntax and scheme, without any name resolution (also what the browser's form checks). */
function checkWebhookUrlSyntax(text: string): Result<URL> {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return refuse("Endpoint URL must be an absolute URL such as https://shop.example.com/webhooks.");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:")
    return refuse("Endpoint URL must start with https:// or http:// (the field's help says which this server accepts).");
  if (requireHttps() && url.protocol !== "https:" && !(allowPrivateWebhookUrls() && isLoopbackLiteral(hostOf(url)))) {
    return refuse("Endpoint URL must use https:// (plain http is refused in production).");
  }
  if (url.username || url.password) return refuse("Endpoint URL must not contain a user name or password.");
  if (url.hash) return refuse("Endpoint URL must not contain a #fragment.");
  return { ok: true, value: url };
}

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet("127.0.0.0", 8, "ipv4");
LOOPBACK.addAddress("::1", "ipv6");

/**
 * Plain http in production is allowed only to a loopback address written as such (127.x, [::1]),
 * and only when the operator allows private receivers: that traffic never leaves the machine, so
 * TLS would protect nothing (the e2e suite's receivers run like this). A name is never enough.
 */
function isLoopbackLiteral(host: string): boolean {
  const family = isIP(host);
  return family !== 0 && LOOPBACK.check(host, family === 4 ? "ipv4" : "ipv6");
}

/** The host as a bare name or address (URL keeps IPv6 literals in brackets). */
function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, "$1");
}

function resolveAll(host: string): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) => dnsLookup(host, { all: true, verbatim: true }, (error, addresses) => (error ? reject(error) : resolve(addresses))));
}

function blockedMessage(host: string, address: string, label = "Endpoint URL"): string {
  const where = host === address ? address : `${host} (${address})`;
  return `${label} points to ${where}, a private, loopback, link-local or reserved address; use an address on the public internet.`;
}

/**
 * The full check, at save and before each send: syntax and scheme, then every address the host
 * resolves to must be public (unless the operator allows private ones).
 */
export async function checkWebhookUrl(text: string): Promise<Result<URL>> {
  const syntax = checkWebhookUrlSyntax(text);
  if (!syntax.ok) return syntax;
  const url = syntax.value;
  const host = hostOf(url);
  const allowPrivate = allowPrivateWebhookUrls();
  if (isIP(host)) {
    return !allowPrivate && isBlockedAddress(host) ? refuse(blockedMessage(host, host)) : syntax;
  }
  let addresses: LookupAddress[];
  try {
    addresses = await resolveAll(host);
  } catch {
    return refuse(`Endpoint URL's host ${host} could not be resolved.`);
  }
  if (addresses.length === 0) return refuse(`Endpoint URL's host ${host} could not be resolved.`);
  if (!allowPrivate) {
    const blocked = addresses.find((entry) => isBlockedAddress(entry.address));
    if (blocked) return refuse(blockedMessage(host, blocked.address));
  }
  return syntax;
}

/** The problems of a refused check as one line (for a delivery try's error text). */
export function problemsText(problems: readonly Problem[]): string {
  return problems.map((entry) => entry.message).join(" ");
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for node:http(s) that resolves the host and refuses the connection when any of its
 * addresses is blocked, so the socket connects only to an address that passed the check (no
 * window between checking a name and connecting to what it then resolves to).
 */
export function guardedLookup(hostname: string, options: { family?: number | string; all?: boolean; hints?: number }, callback: LookupCallback): void {
  const family = options.family === "IPv4" ? 4 : options.family === "IPv6" ? 6 : typeof options.family === "number" ? options.family : 0;
  dnsLookup(hostname, { family: family as 0 | 4 | 6, all: true, verbatim: true, hints: options.hints }, (error, addresses) => {
    if (error) return callback(error, options.all ? [] : "", undefined);
    const allowPrivate = allowPrivateWebhookUrls();
    const blocked = allowPrivate ? undefined : addresses.find((entry) => isBlockedAddress(entry.address));
    if (blocked || addresses.length === 0) {
      const refusal = Object.assign(new Error(blocked ? blockedMessage(hostname, blocked.address) : `${hostname} could not be resolved.`), {
        code: blocked ? "EWEBHOOKBLOCKED" : "ENOTFOUND",
      });
      return callback(refusal, options.all ? [] : "", undefined);
    }
    if (options.all) return callback(null, addresses);
    const first = addresses[0]!;
    return callback(null, first.address, first.family);
  });
}

export type OutboundUrlCheck = {
  /** How messages name the value ("API URL"). */
  label: string;
  /** The problem path (`["credentials", "api_url"]`). */
  path: readonly (string | number)[];
  /**
   * A host that does not resolve now: "refuse" (before sending: nothing can be sent anyway) or
   * "accept" (when saving: DNS may be down, and the check before each send still applies).
   */
  unresolvable: "refuse" | "accept";
};

/**
 * The same range check for another address this server sends a merchant's secrets to (Provider D's `api_url` in live mode): https only, no user name or password, and every address
 * the host resolves to must be public, with no operator allowance. Run at save and before each
 * send, so a name that later resolves into the operator's network is refused then.
 */
export async function checkOutboundUrl(text: string, check: OutboundUrlCheck): Promise<Result<URL>> {
  const refuseAt = (message: string): Result<never> => ({ ok: false, problems: [problem("invalid_url", message, check.path)] });
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return refuseAt(`${check.label} must be an absolute https:// URL.`);
  }
  if (url.protocol !== "https:") return refuseAt(`${check.label} must be an https:// URL.`);
  if (url.username || url.password) return refuseAt(`${check.label} must not contain a user name or password.`);
  const host = hostOf(url);
  if (isIP(host)) return isBlockedAddress(host) ? refuseAt(blockedMessage(host, host, check.label)) : { ok: true, value: url };
  let addresses: LookupAddress[] = [];
  try {
    addresses = await resolveAll(host);
  } catch {
    addresses = [];
  }
  if (addresses.length === 0) {
    return check.unresolvable === "accept" ? { ok: true, value: url } : refuseAt(`${check.label}'s host ${host} could not be resolved.`);
  }
  const blocked = addresses.find((entry) => isBlockedAddress(entry.address));
  return blocked ? refuseAt(blockedMessage(host, blocked.address, check.label)) : { ok: true, value: url };
}
