import "server-only";
import type { JobHandler, JobSweep } from "@/lib/jobs/registry";

// PLACEHOLDER (owned by the reconciliation/expiry work): replaced by the real handlers.
const notBuilt = (name: string) => async () => {
  throw new Error(`${name} is not built yet`);
};
export const reconcileJob: JobHandler<"invoice-reconcile"> = notBuilt("invoice-reconcile");
export const expireJob: JobHandler<"invoice-expire"> = notBuilt("invoice-expire");
export const payoutProcessJob: JobHandler<"payout-process"> = notBuilt("payout-process");
export const processingSweeps: JobSweep[] = [];
