import "server-only";
import { defineTask, type JobSweep } from "@/lib/jobs/task";
import { reconcileAuthorization, requeueAuthorizationFollowUps, voidExpiredAuthorizations } from "../authorization";

/** `authorization-reconcile`: status request number `step` for a capture or void without an answer; a settled invoice is left alone. */
export const authorizationReconcileTask = defineTask("authorization-reconcile", async (db, { invoiceId, step }) => {
  await reconcileAuthorization(db, invoiceId, step);
});

/** Authorizations past `capture_before` are voided (`authorization_expired`); each once, whichever instance sweeps. */
export const voidExpiredAuthorizationsSweep: JobSweep = { name: "void-expired-authorizations", run: (db) => voidExpiredAuthorizations(db) };

/** Captures and voids left in progress by a server that died, with no status request queued: one is queued. */
export const requeueAuthorizationFollowUpsSweep: JobSweep = { name: "requeue-authorization-follow-ups", run: (db) => requeueAuthorizationFollowUps(db) };
