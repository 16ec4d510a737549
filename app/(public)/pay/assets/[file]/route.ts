import { payAssetResponse } from "@/lib/pay/page/assets";

export const dynamic = "force-dynamic";

/** The hosted page's stylesheet and script (lib/pay/page/assets.ts); under `npm start`, server/serve-pay-assets.ts answers first, compressed. */
export async function GET(request: Request, context: { params: Promise<{ file: string }> }): Promise<Response> {
  const { file } = await context.params;
  return payAssetResponse(file, request.headers.get("accept-encoding"), false);
}
