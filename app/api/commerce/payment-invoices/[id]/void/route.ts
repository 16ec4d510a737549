import { voidResponse } from "@/lib/api/authorization-responses";
import { idempotencyKeyOf } from "@/lib/api/idempotency-key";
import { readJsonBody } from "@/lib/api/request";
import { composerMayCall, withApiKey } from "@/lib/api/with-api-key";
import { publicBaseUrl } from "@/lib/config";

type Params = { id: string };

/** Voids an authorized payment, nothing taken (lib/processing/authorization.ts); the body may be left out. Support credentials void test invoices only. */
export const POST = withApiKey<Params>(async ({ request, params, merchant, db, testOnly, keyMode }) => {
  const idempotencyKey = idempotencyKeyOf(request);
  const hasBody = request.headers.get("content-length") !== null && request.headers.get("content-length") !== "0";
  const body = hasBody ? await readJsonBody(request) : undefined;
  return voidResponse(db, merchant.id, params.id, body, publicBaseUrl(), { testOnly, keyMode, idempotencyKey });
}, composerMayCall("money.capture"));
