import { getDb } from "@/lib/db/client";
import { withPublic } from "@/lib/api/with-public";
import { findHostedInvoice } from "@/lib/pay/hosted-invoice";

export const dynamic = "force-dynamic";

/**
 * The hosted page's poll while a payment is being confirmed: the invoice's public view
 * (what the page already shows: amount, merchant name, outcome; never customer or card data),
 * read only. It asks the provider nothing: scheduled status requests settle the payment, so a
 * customer's open tab never adds provider traffic. Rate-limited per address like every public route.
 */
export const GET = withPublic<{ id: string }>(async ({ params }) => {
  const invoice = await findHostedInvoice(await getDb(), params.id);
  if (!invoice) return Response.json({ error: "not_found" }, { status: 404, headers: { "Cache-Control": "no-store" } });
  return Response.json({ invoice }, { headers: { "Cache-Control": "no-store" } });
});
