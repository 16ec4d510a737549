import { captureResponse } from "@/lib/api/authorization-responses";
import { refuseClientGeneratedId } from "@/lib/api/envelope";
import { idempotencyKeyOf } from "@/lib/api/idempotency-key";
import { readJsonBody } from "@/lib/api/request";
import { composerMayCall, withApiKey } from "@/lib/api/with-api-key";
import { publicBaseUrl } from "@/lib/config";

type Params = { id: string };

/** Captures an authorized payment, all or part (lib/processing/authorization.ts); support credentials capture test invoices only. */
export const POST = withApiKey<Params>(async ({ request, params, merchant, db, testOnly, keyMode }) => {
  const idempotencyKey = idempotencyKeyOf(request);
  const body = await readJsonBody(request, { exactNumbersAt: [["data", "attributes", "amount"]] });
  refuseClientGeneratedId(body);
  return captureResponse(db, merchant.id, params.id, body, publicBaseUrl(), { testOnly, keyMode, idempotencyKey });
}, composerMayCall("money.capture"));
