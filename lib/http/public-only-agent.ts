import "server-only";
import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { Agent } from "undici";
import { isBlockedAddress } from "@/lib/http/url-check";

/**
 * A dispatcher for requests that carry a merchant's secrets to an address the merchant chose
 * (Provider D's live `api_url`): the socket connects only to an address that passed the range
 * check at that very moment. Checking a name and then letting fetch resolve it again leaves a
 * window in which a rebinding name answers with an internal address; here the check and the
 * connection use one answer.
 */

/** The error a refused address gives the socket; `callProvider` reports it as not sent. */
export const BLOCKED_ADDRESS_CODE = "EPUBLICONLYBLOCKED";

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;
type LookupOptions = { family?: number | string; all?: boolean; hints?: number };

function refusal(hostname: string, address?: string): NodeJS.ErrnoException {
  const message = address ? `${hostname} resolved to ${address}, a private, loopback, link-local or reserved address` : `${hostname} could not be resolved`;
  return Object.assign(new Error(message), { code: address ? BLOCKED_ADDRESS_CODE : "ENOTFOUND" });
}

/** Resolves once and hands the socket only addresses outside the operator's network. */
function publicOnlyLookup(hostname: string, options: LookupOptions, callback: LookupCallback): void {
  const family = options.family === "IPv4" ? 4 : options.family === "IPv6" ? 6 : typeof options.family === "number" ? options.family : 0;
  dnsLookup(hostname, { family: family as 0 | 4 | 6, all: true, verbatim: true, hints: options.hints }, (error, addresses) => {
    if (error) return callback(error, options.all ? [] : "", undefined);
    const blocked = addresses.find((entry) => isBlockedAddress(entry.address));
    if (blocked || addresses.length === 0) return callback(refusal(hostname, blocked?.address), options.all ? [] : "", undefined);
    if (options.all) return callback(null, addresses);
    const first = addresses[0]!;
    return callback(null, first.address, first.family);
  });
}

const AGENT_KEY = Symbol.for("payment-orchestrator.public-only-agent");
type AgentHolder = { [AGENT_KEY]?: Agent };

/** One pool per process (on globalThis, so Next's bundles and server.ts share it). */
export function publicOnlyAgent(): Agent {
  const holder = globalThis as AgentHolder;
  holder[AGENT_KEY] ??= new Agent({ connect: { lookup: publicOnlyLookup as never } });
  return holder[AGENT_KEY];
}
