/**
 * A web address: an absolute http: or https: URL with a host. The one check of lib/ for a URL that
 * a browser is sent to or shown as a link, so javascript:, data: and relative text never are.
 */
export function isWebUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === "https:" || url.protocol === "http:") && url.hostname !== "";
  } catch {
    return false;
  }
}
