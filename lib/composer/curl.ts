import type { InvoiceDirection } from "@/lib/providers";
import { invoiceCollectionPath } from "../api/invoice-resource";

const shellQuote = (value: string): string => `'${value.replace(/'/g, `'\\''`)}'`;

/**
 * The same request as a curl command. The key stays a shell variable: the composer never shows a
 * credential. The body goes through a quoted here-document, so it needs no escaping.
 */
export function curlCommand(baseUrl: string, direction: InvoiceDirection, body: string): string {
  return [
    `curl -X POST ${shellQuote(`${baseUrl}${invoiceCollectionPath(direction)}`)} \\`,
    `  -H "Authorization: Bearer $API_KEY" \\`,
    `  -H 'Content-Type: application/vnd.api+json' \\`,
    `  --data-binary @- <<'JSON'`,
    body,
    "JSON",
  ].join("\n");
}
