/**
 * A path whose percent-escapes do not decode (`/pay/%`, `/invoices/%E0%A4%A`, a lone surrogate's
 * `%ED%A0%80`): no route can be told from it, so server.ts answers it 400 before any (proxy.ts does
 * the same for pages under `next dev`; API paths there reach their routes). Edge-safe: proxy.ts imports it.
 */
export function hasMalformedEscape(pathname: string): boolean {
  try {
    decodeURIComponent(pathname);
    return false;
  } catch {
    return true;
  }
}
