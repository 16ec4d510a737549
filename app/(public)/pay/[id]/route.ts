import { runLogged } from "@/lib/api/run-logged";
import { getDb } from "@/lib/db/client";
import { renderHostedPage } from "@/lib/pay/page/render";
import { hostedPage, htmlResponse, notFoundPage } from "@/lib/pay/page/respond";
import { resumeHostedInvoice } from "@/lib/pay/resume";

export const dynamic = "force-dynamic";

/**
 * The public hosted payment page of an `_hpp` invoice: no sign-in, found by its id
 * only. Server-rendered HTML with one small script (lib/pay/page), not the React runtime: the
 * page is for phones. Coming back from 3-D Secure, it settles the payment first.
 */
export async function GET(request: Request, context: { params: Promise<{ id: string }> }): Promise<Response> {
  return runLogged(request, async (requestId) => {
    const { id } = await context.params;
    return hostedPage(request, requestId, id, async (assets) => {
      const invoice = await resumeHostedInvoice(await getDb(), id);
      return invoice ? htmlResponse(renderHostedPage(invoice, assets)) : notFoundPage(assets);
    });
  });
}
