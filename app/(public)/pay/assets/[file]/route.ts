import { findAsset } from "@/lib/pay/page/assets";

export const dynamic = "force-dynamic";

/** The hosted page's stylesheet and script (lib/pay/page/assets.ts): content-hashed names, kept a year. */
export async function GET(_request: Request, context: { params: Promise<{ file: string }> }): Promise<Response> {
  const { file } = await context.params;
  const asset = await findAsset(file);
  if (!asset) return new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
  return new Response(asset.body, { headers: { "Content-Type": asset.contentType, "Cache-Control": "public, max-age=31536000, immutable" } });
}
