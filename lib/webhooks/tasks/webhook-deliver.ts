import "server-only";
import { defineTask, type JobSweep } from "@/lib/jobs/task";
import { deliverAutomaticTry, deliverAutomaticTryToAll, queueDueTries } from "../deliver";

/**
 * `webhook-deliver`: one automatic try of a merchant event to one endpoint. A failed try is not a
 * failed job: the next try is its own job (with its own key), scheduled by the try itself, so
 * pg-boss's retries are only for crashes.
 */
export const webhookDeliverTask = defineTask("webhook-deliver", async (db, data) => {
  if (data.endpointId) await deliverAutomaticTry(db, data.eventId, data.endpointId, data.tryNo);
  else await deliverAutomaticTryToAll(db, data.eventId, data.tryNo);
});

/** Re-queues due tries a crash left without a job. */
export const webhookDueTriesSweep: JobSweep = { name: "webhook-due-tries", run: (db) => queueDueTries(db) };
