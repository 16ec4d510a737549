/**
 * What the OWASP REST Security Cheat Sheet lists for JSON APIs, on every answer under /api: an API
 * answer is data, never a document to render, frame or keep. A browser that opens one directly runs
 * and loads nothing from it and shows it in no frame; no cache (browser or shared) stores it (answers
 * carry merchants' invoices and connections); and no MIME sniffing turns JSON into something a
 * browser would run.
 */
export const API_SECURITY_HEADERS: readonly (readonly [string, string])[] = [
  ["Content-Security-Policy", "default-src 'none'; frame-ancestors 'none'"],
  ["X-Frame-Options", "DENY"],
  ["Cache-Control", "no-store"],
  ["X-Content-Type-Options", "nosniff"],
];

/** Sets the API's security headers on an answer (a copy when its headers are immutable, e.g. Response.redirect). */
export function secureApiResponse(response: Response): Response {
  try {
    for (const [name, value] of API_SECURITY_HEADERS) response.headers.set(name, value);
    return response;
  } catch {
    const copy = new Response(response.body, response);
    for (const [name, value] of API_SECURITY_HEADERS) copy.headers.set(name, value);
    return copy;
  }
}
