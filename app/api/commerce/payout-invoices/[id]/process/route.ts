import { processPayoutResponse } from "@/lib/api/attempt-responses";
import { publicBaseUrl } from "@/lib/config";
import { withApiKey } from "@/lib/api/with-api-key";

type Params = { id: string };

/** Spec 4.2: sends a payout created without auto_process to the provider; answers with the invoice after it. */
export const POST = withApiKey<Params>(async ({ params, merchant, db, keyMode }) =>
  processPayoutResponse(db, merchant.id, params.id, publicBaseUrl(), keyMode),
);
