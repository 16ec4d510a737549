import { singleErrorResponse } from "@/lib/api/errors";
import { withSession } from "@/lib/api/with-session";
import { publicKeyFile } from "@/lib/connections/public-key-file";

/**
 * GET /connections/<id>/public-key?field=public_key: the connection's stored PUBLIC key as a .pem
 * download (owners only, the merchant's own connections only). Private keys are never served.
 */
export const GET = withSession<{ id: string }>(
  async ({ request, params, viewer, db, requestId }) => {
    const field = new URL(request.url).searchParams.get("field") ?? "public_key";
    const file = await publicKeyFile(db, viewer.merchant.id, params.id, field);
    if (!file) {
      return singleErrorResponse(404, "not_found", "Not found", "This connection has no public key to download.", requestId);
    }
    return new Response(file.pem, {
      headers: {
        "Content-Type": "application/x-pem-file",
        "Content-Disposition": `attachment; filename="${file.fileName}"`,
        "X-Request-Id": requestId,
      },
    });
  },
  { can: "connections.write" },
);
