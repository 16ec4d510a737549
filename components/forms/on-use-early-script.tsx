import { headers } from "next/headers";
import { NONCE_HEADER } from "@/proxy";
import { earlyUseScript } from "./on-use-early";

/** Rendered first in the root layout's body: see on-use-early.ts. Carries the page's CSP nonce. */
export async function OnUseEarlyScript() {
  const nonce = (await headers()).get(NONCE_HEADER) ?? undefined;
  return <script nonce={nonce} dangerouslySetInnerHTML={{ __html: earlyUseScript }} />;
}
