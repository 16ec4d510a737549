/**
 * A path whose percent-escapes do not decode (`/pay/%`, `/invoices/%E0%A4%A`, a lone surrogate's
 * `%ED%A0%80`): no route can be told from it, so it is answered 400 before any (server.ts, and
 * proxy.ts under `next dev`). Edge-safe: proxy.ts imports it.
 */
export function hasMalformedEscape(pathname: string): boolean {
  try {
    decodeURIComponent(pathname);
    return false;
  } catch {
    return true;
  }
}
