import "server-only";
import { formatMinor, parseAmount } from "@/lib/money";
import type { SandboxContext } from "@/lib/providers/kit/provider-server";
import type { SandboxAccount } from "@/lib/sandbox/accounts";
import {
  CAPTURE_OPERATION,
  readSandboxAuthorizationRecord,
  takeSandboxCapture,
  takeSandboxVoid,
  VOID_OPERATION,
  type SandboxAuthorizationDecline,
} from "@/lib/sandbox/authorizations";
import type { SandboxRecord } from "@/lib/sandbox/records";
import { B_AUTHORIZATION_DECLINES } from "../mapping";
import { bCaptureSchema, bVoidSchema, type BCapture, type BVoid } from "../wire";
import { answerFromRecord, refuse, SLUG } from "./charges";

/** Provider B's captures and voids of authorizations (../wire.ts), decided by the shared engine (lib/sandbox/authorizations.ts). */

/** B grants an authorization when its charge answers `auth` (at once, or once 3-D Secure passed). */
const granted = (payment: SandboxRecord) => answerFromRecord(payment).result === "auth";

function readBody<T>(
  raw: string,
  schema: { safeParse(value: unknown): { success: true; data: T } | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } } },
): T | Response {
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    return refuse(400, "malformed_body", "The body must be JSON.");
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) return refuse(400, "invalid_request", parsed.error.issues.map((i) => `${i.path.map(String).join(".")}: ${i.message}`).join("; "));
  return parsed.data;
}

function captureAnswer(record: SandboxRecord, decline: SandboxAuthorizationDecline | undefined): BCapture {
  const request = record.request as { capture_ref: string; txn: string; sum: string; cur: string };
  const released = record.details.releasedMinor;
  return {
    result: decline ? "fail" : "ok",
    capture_txn: record.reference,
    capture_ref: request.capture_ref,
    txn: request.txn,
    sum: decline ? formatMinor(0n, request.cur) : request.sum,
    cur: request.cur,
    ...(typeof released === "string" ? { released_sum: formatMinor(BigInt(released), request.cur) } : {}),
    ...(decline ? B_AUTHORIZATION_DECLINES[decline] : {}),
  };
}

function voidAnswer(record: SandboxRecord, decline: SandboxAuthorizationDecline | undefined): BVoid {
  const request = record.request as { void_ref: string; txn: string };
  return {
    result: decline ? "fail" : "ok",
    void_txn: record.reference,
    void_ref: request.void_ref,
    txn: request.txn,
    ...(decline ? B_AUTHORIZATION_DECLINES[decline] : {}),
  };
}

export async function takeCapture(raw: string, account: SandboxAccount, context: SandboxContext): Promise<Response> {
  const body = readBody(raw, bCaptureSchema);
  if (body instanceof Response) return body;
  if (body.terminal_id !== account.credentials.terminal_id) return refuse(401, "unknown_terminal", "terminal_id differs from X-Terminal.");
  const amount = parseAmount(body.sum, body.cur);
  if (!amount.ok) return refuse(400, "invalid_request", `sum: ${amount.message}`);
  const result = await takeSandboxCapture(context.db, {
    provider: SLUG,
    account,
    paymentReference: body.txn,
    key: body.capture_ref,
    referencePrefix: "capB_",
    granted,
    amountMinor: amount.minor,
    currency: body.cur,
    partialAllowed: true,
    request: body,
  });
  if (result.kind === "refused") return refuse(result.status, result.code, result.text);
  return Response.json(captureAnswer(result.record, result.decline));
}

export async function takeVoid(raw: string, account: SandboxAccount, context: SandboxContext): Promise<Response> {
  const body = readBody(raw, bVoidSchema);
  if (body instanceof Response) return body;
  if (body.terminal_id !== account.credentials.terminal_id) return refuse(401, "unknown_terminal", "terminal_id differs from X-Terminal.");
  const result = await takeSandboxVoid(context.db, {
    provider: SLUG,
    account,
    paymentReference: body.txn,
    key: body.void_ref,
    referencePrefix: "voidB_",
    granted,
    request: body,
  });
  if (result.kind === "refused") return refuse(result.status, result.code, result.text);
  return Response.json(voidAnswer(result.record, result.decline));
}

export async function captureStatus(key: string, account: SandboxAccount, context: SandboxContext): Promise<Response> {
  const record = await readSandboxAuthorizationRecord(context.db, SLUG, account, CAPTURE_OPERATION, key);
  if (!record) return refuse(404, "not_found", "No capture with that capture_ref on this terminal.");
  return Response.json(captureAnswer(record, record.details.decline as SandboxAuthorizationDecline | undefined));
}

export async function voidStatus(key: string, account: SandboxAccount, context: SandboxContext): Promise<Response> {
  const record = await readSandboxAuthorizationRecord(context.db, SLUG, account, VOID_OPERATION, key);
  if (!record) return refuse(404, "not_found", "No void with that void_ref on this terminal.");
  return Response.json(voidAnswer(record, record.details.decline as SandboxAuthorizationDecline | undefined));
}
