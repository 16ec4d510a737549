/**
 * Where the composer posts invoices: `INVOICE_API_BASE_URL` when set, else this very server over
 * loopback (`http://127.0.0.1:$PORT`). Never the request's Host header: a forged Host would make
 * the server send the composer's credential to someone else's machine.
 */
export type BaseUrlResult = { ok: true; baseUrl: string } | { ok: false; message: string };

export function invoiceApiBaseUrl(configured: string | undefined, port: string | undefined): BaseUrlResult {
  const setting = configured?.trim();
  if (setting) {
    let url: URL;
    try {
      url = new URL(setting);
    } catch {
      return { ok: false, message: "INVOICE_API_BASE_URL is not a URL; set it to e.g. https://pay.example.com" };
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      return { ok: false, message: "INVOICE_API_BASE_URL must start with http:// or https://" };
    }
    return { ok: true, baseUrl: `${url.origin}${url.pathname}`.replace(/\/+$/, "") };
  }
  const own = port?.trim() || "3000";
  if (!/^\d{1,5}$/.test(own)) return { ok: false, message: "PORT is not a port number; set INVOICE_API_BASE_URL instead" };
  return { ok: true, baseUrl: `http://127.0.0.1:${own}` };
}
