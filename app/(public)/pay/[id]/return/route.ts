import { getDb } from "@/lib/db/client";
import { resumeHostedInvoice } from "@/lib/pay/resume";

export const dynamic = "force-dynamic";

/**
 * Where the customer comes back after 3-D Secure: the waiting attempt's status is asked once,
 * then the hosted page shows the result (a redirect, so a reload never asks again).
 */
export async function GET(request: Request, context: { params: Promise<{ id: string }> }): Promise<Response> {
  const { id } = await context.params;
  const invoice = await resumeHostedInvoice(await getDb(), id);
  if (!invoice) return new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  return new Response(null, { status: 303, headers: { Location: new URL(`/pay/${invoice.id}`, request.url).pathname } });
}
