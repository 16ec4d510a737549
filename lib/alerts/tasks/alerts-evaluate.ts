import "server-only";
import type { JobSweep } from "@/lib/jobs/task";
import { evaluateAlerts } from "../evaluate";

/** How often each worker process evaluates the alert rules: ALERTS_SWEEP_SECONDS (1 to 60), 60 by default. */
function alertsSweepMs(): number {
  const value = Number(process.env.ALERTS_SWEEP_SECONDS?.trim() || Number.NaN);
  return (Number.isInteger(value) && value >= 1 && value <= 60 ? value : 60) * 1000;
}

/**
 * Every worker evaluates the alert rules (lib/server-jobs.ts). Several instances may evaluate at
 * once: the open-alert index and the compare-and-set in ../evaluate.ts make each alert fire and
 * resolve once whoever runs it.
 */
export const alertsEvaluateSweep: JobSweep = { name: "alerts-evaluate", run: (db) => evaluateAlerts(db), everyMs: alertsSweepMs() };
