import "server-only";
import type { JobHandler } from "@/lib/jobs/registry";

// PLACEHOLDER (owned by the provider callbacks work): replaced by the real handler.
export const sandboxCallbackJob: JobHandler<"sandbox-callback"> = async () => {
  throw new Error("sandbox-callback is not built yet");
};
