import { publicBaseUrl } from "@/lib/config";

/**
 * Where a provider sends its callbacks about one connection: the merchant registers it
 * with the provider, the sandboxes post to it. From APP_URL, never the request's Host.
 */
export function callbackUrl(provider: string, connectionId: string): string {
  return `${publicBaseUrl()}/api/callbacks/${encodeURIComponent(provider)}/${encodeURIComponent(connectionId)}`;
}
