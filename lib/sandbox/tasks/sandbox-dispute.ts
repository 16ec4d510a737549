import "server-only";
import { defineTask } from "@/lib/jobs/task";
import { decideSandboxDispute, openSandboxDispute } from "../disputes";

/**
 * `sandbox-dispute-open`: a sandbox opens the dispute of a captured test payment paid with a dispute
 * card (lib/sandbox/cards.ts), `SANDBOX_DISPUTE_OPENS_AFTER_SECONDS` after capture, and queues its
 * provider's callback about it. A payment already disputed is left as it is.
 */
export const sandboxDisputeOpenTask = defineTask("sandbox-dispute-open", async (db, data) => {
  await openSandboxDispute(db, data.provider, data.paymentReference);
});

/**
 * `sandbox-dispute-decide`: a sandbox decides a test dispute whose evidence it took, won or lost by
 * the evidence's words, and queues its provider's callback. One a status request decided first is
 * left as it is.
 */
export const sandboxDisputeDecideTask = defineTask("sandbox-dispute-decide", async (db, data) => {
  await decideSandboxDispute(db, data.provider, data.reference);
});
