import "server-only";
import { defineTask } from "@/lib/jobs/task";
import { settleSandboxRefund } from "../refunds";

/**
 * `sandbox-refund-settle`: a sandbox settles a test refund it took as pending (amounts ending in
 * .31), a few seconds after taking it, and queues its provider's callback about it. A refund a
 * status request settled first is left as it is.
 */
export const sandboxRefundSettleTask = defineTask("sandbox-refund-settle", async (db, data) => {
  await settleSandboxRefund(db, data.provider, data.reference);
});
