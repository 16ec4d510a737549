import { POST } from "@/app/(public)/pay/[id]/pay/route";

/** "Pay" as the hosted page's script sends it: the card form as JSON to `/pay/{id}/pay`; the answer's status and JSON. */
export async function payOnHostedPage(invoiceId: string, card: unknown): Promise<Record<string, unknown> & { status: number }> {
  const request = new Request(`http://localhost/pay/${encodeURIComponent(invoiceId)}/pay`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify(card),
  });
  const response = await POST(request, { params: Promise.resolve({ id: invoiceId }) });
  return { status: response.status, ...((await response.json()) as Record<string, unknown>) };
}
