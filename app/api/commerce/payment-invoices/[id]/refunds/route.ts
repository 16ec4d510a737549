import { refuseClientGeneratedId } from "@/lib/api/envelope";
import { createRefundResponse, refundListResponse } from "@/lib/api/refund-responses";
import { readJsonBody } from "@/lib/api/request";
import { COMPOSER_MAY_CALL, composerMayCall, withApiKey } from "@/lib/api/with-api-key";
import { publicBaseUrl } from "@/lib/config";
import { createRefund } from "@/lib/refunds/create-refund";

type Params = { id: string };

/** Refunds a processed payment, in full or in part (lib/refunds); support credentials refund test invoices only. */
export const POST = withApiKey<Params>(async ({ request, params, merchant, db, requestId, keyId, testOnly, keyMode }) => {
  const body = await readJsonBody(request, { exactNumbersAt: [["data", "attributes", "amount"]] });
  refuseClientGeneratedId(body);
  const result = await createRefund(db, { merchantId: merchant.id, invoiceId: params.id, body, testOnly, mode: keyMode, createdBy: keyId, requestId });
  return createRefundResponse(result, params.id, publicBaseUrl());
}, composerMayCall("money.refund"));

/** The payment's refunds, oldest first. */
export const GET = withApiKey<Params>(
  async ({ params, merchant, db, keyMode }) => refundListResponse(db, merchant.id, params.id, publicBaseUrl(), keyMode),
  COMPOSER_MAY_CALL,
);
