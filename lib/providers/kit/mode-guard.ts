import { isLoopbackHost, publicBaseUrl } from "@/lib/config";
import type { Mode } from "@/lib/providers";

/**
 * Money moves only where it should: a test invoice is only ever sent to a sandbox, a live one only
 * to a live provider. Checked before every provider call (pay, payout, status request) and before a
 * callback is applied, whatever routing, pins or connection edits did before: a mismatch ends the
 * attempt with `mode_mismatch` and nothing is sent.
 */

/** The sandboxes' root on this server: `<APP_URL>/sandbox/`. */
function sandboxRoot(): URL {
  return new URL(`${publicBaseUrl()}/sandbox/`);
}

function portOf(url: URL): string {
  return url.port || (url.protocol === "https:" ? "443" : "80");
}

/**
 * Whether a base URL reaches this server itself: its public address, or a loopback name on the
 * port it listens on. A live provider never lives there; only the sandboxes do.
 */
function isThisServer(url: URL): boolean {
  const own = sandboxRoot();
  if (url.origin === own.origin) return true;
  const listening = process.env.PORT ?? "3000";
  return isLoopbackHost(url.hostname) && (portOf(url) === listening || portOf(url) === portOf(own));
}

/** Whether `baseUrl` is one of this server's sandboxes. */
export function isSandboxUrl(baseUrl: string): boolean {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return false;
  }
  const path = url.pathname.endsWith("/") ? url.pathname : `${url.pathname}/`;
  return isThisServer(url) && path.startsWith(sandboxRoot().pathname);
}

/**
 * Why a connection in `mode` may not call `baseUrl`, or undefined when it may: test mode only the
 * sandbox, live mode never this server.
 */
export function baseUrlRefusal(mode: Mode, baseUrl: string): string | undefined {
  let url: URL | undefined;
  try {
    url = new URL(baseUrl);
  } catch {
    url = undefined;
  }
  if (mode === "test") return isSandboxUrl(baseUrl) ? undefined : "A test-mode connection may only call its sandbox; nothing was sent.";
  if (url && isThisServer(url)) return "A live-mode connection may not call this server or its sandboxes; nothing was sent.";
  return undefined;
}

/** Why an invoice may not go through a connection in `connectionMode`, or undefined when it may. */
export function invoiceModeRefusal(invoiceTestMode: boolean, connectionMode: Mode): string | undefined {
  const invoiceMode: Mode = invoiceTestMode ? "test" : "live";
  if (invoiceMode === connectionMode) return undefined;
  return `A ${invoiceMode} invoice cannot go through a ${connectionMode}-mode connection; nothing was sent.`;
}
