/** How many rows one run of a processing sweep takes; the next run (a minute later) takes the rest. */
export const SWEEP_BATCH = 200;

/** Narrows a sweep (tests): one merchant's invoices, at most `limit` of them. */
export type SweepScope = { merchantId?: string; limit?: number };
