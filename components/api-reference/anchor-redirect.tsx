import { headers } from "next/headers";
import { NONCE_HEADER } from "@/proxy";

/**
 * Old links into the single-page reference (/docs/api#createRefund, #tag-routing,
 * #schema-InvoiceDocument) open the group's page at the same place. A fragment never reaches the
 * server, so this is a few lines of inline script (with the page's CSP nonce) that run as the index
 * is parsed, before any of the page's other scripts: no bundle, no hydration. Without JavaScript
 * the index itself carries each operation's id on its entry, linked to the operation.
 */
export async function AnchorRedirect({ targets }: { targets: Record<string, string> }) {
  const nonce = (await headers()).get(NONCE_HEADER) ?? undefined;
  // `<` escaped: the map is inside a script element.
  const map = JSON.stringify(targets).replace(/</g, "\\u003c");
  const script =
    `(function(t){function go(){if(location.pathname!=="/docs/api")return;var h=location.hash.slice(1);try{h=decodeURIComponent(h)}catch(e){}` +
    `if(Object.prototype.hasOwnProperty.call(t,h))location.replace(t[h])}go();addEventListener("hashchange",go)})(${map})`;
  return <script nonce={nonce} dangerouslySetInnerHTML={{ __html: script }} />;
}
