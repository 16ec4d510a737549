import "server-only";
import type { JobHandler, JobSweep } from "@/lib/jobs/registry";

// PLACEHOLDER (owned by the merchant webhooks work): replaced by the real handler.
export const deliverWebhookJob: JobHandler<"webhook-deliver"> = async () => {
  throw new Error("webhook-deliver is not built yet");
};
export const webhookSweeps: JobSweep[] = [];
