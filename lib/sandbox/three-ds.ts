import "server-only";
import type { Db } from "@/lib/db/client";
import { queueSandboxCallback } from "./callback-send";
import { findRecordByReference, updateRecord, type SandboxRecord } from "./records";

/**
 * The sandboxes' 3-D Secure step (test card 4000 0000 0000 3220): a page of this server
 * (`app/sandbox/3ds/[provider]/[reference]/page.tsx`) where the customer passes or fails, which
 * then sends them to the return URL the provider was given (the hosted page's return route).
 *
 * A provider's sandbox that decides `three_ds` saves its record with `THREE_DS_REQUIRED` in the
 * details and answers with `threeDsUrl(…)`; its status endpoint later reads the record: succeeded
 * after a pass, failed with resolution auth_3ds_failed after a fail, still waiting otherwise.
 */
export const THREE_DS_REQUIRED = { threeDs: "required" } as const;

/** The status a sandbox record has while its 3-D Secure step is unanswered. */
export const THREE_DS_PENDING_STATUS = "pending_3ds";

export function threeDsUrl(publicBaseUrl: string, provider: string, reference: string, returnUrl: string): string {
  const base = publicBaseUrl.replace(/\/+$/, "");
  const path = `/sandbox/3ds/${encodeURIComponent(provider)}/${encodeURIComponent(reference)}`;
  return `${base}${path}?return=${encodeURIComponent(returnUrl)}`;
}

export function isAwaitingThreeDs(record: Pick<SandboxRecord, "details">): boolean {
  return record.details.threeDs === THREE_DS_REQUIRED.threeDs;
}

export type ThreeDsAnswer = "pass" | "fail";

export type ThreeDsCompletion =
  | { kind: "completed"; record: SandboxRecord }
  /** Answered before (a second click, the back button): the first answer stands. */
  | { kind: "already_answered"; record: SandboxRecord }
  | { kind: "not_found" };

/** Records the customer's answer once: succeeded on a pass, failed (auth_3ds_failed) on a fail. */
export async function completeThreeDs(db: Db, provider: string, reference: string, answer: ThreeDsAnswer): Promise<ThreeDsCompletion> {
  const record = await findRecordByReference(db, provider, reference);
  if (!record) return { kind: "not_found" };
  if (!isAwaitingThreeDs(record)) return { kind: "already_answered", record };
  const patch =
    answer === "pass"
      ? { status: "succeeded", details: { threeDs: "passed" } }
      : { status: "failed", details: { threeDs: "failed", resolution: "auth_3ds_failed" } };
  const updated = await updateRecord(db, provider, reference, patch);
  if (!updated) return { kind: "not_found" };
  // The provider tells the service too, asynchronously, besides the customer's return.
  await queueSandboxCallback(db, updated);
  return { kind: "completed", record: updated };
}

/**
 * Where the 3-D Secure page may send the customer: a path on this server ("/pay/…") or an
 * absolute URL on this server's public address. Anything else (another host, "//host",
 * backslashes, javascript:) is refused, so the page is no open redirect.
 */
export function safeReturnUrl(returnUrl: string | undefined | null, appUrl: string): string | undefined {
  if (!returnUrl || /[\\\u0000-\u001f\u007f]/.test(returnUrl)) return undefined;
  if (returnUrl.startsWith("/")) {
    if (returnUrl.startsWith("//")) return undefined;
    return returnUrl;
  }
  let target: URL;
  let own: URL;
  try {
    target = new URL(returnUrl);
    own = new URL(appUrl);
  } catch {
    return undefined;
  }
  if (target.protocol !== "http:" && target.protocol !== "https:") return undefined;
  if (target.username || target.password) return undefined;
  return target.origin === own.origin ? target.toString() : undefined;
}

export type ThreeDsSubmission = { provider: string; reference: string; answer: string; returnUrl: string };

/**
 * The 3-D Secure page's Pass / Fail: refused (nothing recorded) unless the answer is one of the
 * two and the return URL is this server's; otherwise recorded once, and where to go next.
 */
export async function answerThreeDs(
  db: Db,
  submission: ThreeDsSubmission,
  appUrl: string,
): Promise<{ ok: true; redirectTo: string; completion: ThreeDsCompletion } | { ok: false; reason: "bad_answer" | "bad_return_url" }> {
  const redirectTo = safeReturnUrl(submission.returnUrl, appUrl);
  if (!redirectTo) return { ok: false, reason: "bad_return_url" };
  if (submission.answer !== "pass" && submission.answer !== "fail") return { ok: false, reason: "bad_answer" };
  const completion = await completeThreeDs(db, submission.provider, submission.reference, submission.answer);
  return { ok: true, redirectTo, completion };
}
