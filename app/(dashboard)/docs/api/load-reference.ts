import "server-only";
import { buildOpenApiDocument, SAVED_CARD_EXAMPLE_PROVIDER } from "@/lib/api/openapi";
import { apiReferenceFor } from "@/lib/api/openapi/reference";
import { requirePageViewer } from "@/lib/auth/viewer";
import { publicBaseUrl } from "@/lib/config";
import { getDb } from "@/lib/db/client";
import { canAnyMode } from "@/lib/identity/permissions";
import { newestChargeableCard } from "@/lib/payment-methods/store";

/** The query of the reference's search box (?q=), at most 200 characters. */
export async function searchQuery(searchParams: Promise<Record<string, string | string[] | undefined>>): Promise<string> {
  const raw = (await searchParams).q;
  return (Array.isArray(raw) ? raw[0] : raw)?.slice(0, 200).trim() ?? "";
}

/**
 * What the reference's pages (the index and each tag's page) share: the viewer, checked for
 * docs.read, and the reference with the examples written for the viewer's commerce account, so
 * Try it sends a body the API accepts from its keys.
 */
export async function loadReference() {
  const viewer = await requirePageViewer("docs.read");
  const baseUrl = publicBaseUrl();
  const account = viewer.merchant.commerceAccount;
  // The saved-card example names the merchant's newest test card of the example's provider, if any.
  const paymentMethodId = await newestChargeableCard(await getDb(), viewer.merchant.id, "test", SAVED_CARD_EXAMPLE_PROVIDER);
  const reference = apiReferenceFor(baseUrl, account, () => buildOpenApiDocument({ baseUrl, commerceAccount: account, paymentMethodId }), paymentMethodId);
  return {
    reference,
    seesKeys: canAnyMode(viewer.user.role, "keys.manage"),
    composes: canAnyMode(viewer.user.role, "invoices.compose"),
  };
}
