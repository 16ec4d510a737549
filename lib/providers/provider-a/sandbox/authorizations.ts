import "server-only";
import { formatMinor, parseAmount } from "@/lib/money";
import {
  CAPTURE_OPERATION,
  readSandboxAuthorizationRecord,
  takeSandboxCapture,
  takeSandboxVoid,
  VOID_OPERATION,
  type SandboxAuthorizationDecline,
} from "@/lib/sandbox/authorizations";
import type { SandboxRecord } from "@/lib/sandbox/records";
import { A_AUTHORIZATION_DECLINES } from "../mapping";
import { aCaptureRequestSchema, aVoidRequestSchema, type ACapture, type AVoid } from "../wire";
import { answerFromRecord } from "./answers";
import { invalidRequest, refuse, SLUG, type SignedRequest } from "./common";

/** Provider A's captures and voids of authorizations (../wire.ts), decided by the shared engine (lib/sandbox/authorizations.ts). */

/** A grants an authorization when its payment answers `authorized` (at once, or once 3-D Secure passed). */
const granted = (payment: SandboxRecord) => answerFromRecord(payment).status === "authorized";

const declineOf = (record: SandboxRecord) => record.details.decline as SandboxAuthorizationDecline | undefined;

function captureAnswer(record: SandboxRecord): ACapture {
  const request = record.request as { request_id: string; transaction_id: string; amount: string; currency: string };
  const decline = declineOf(record);
  const released = record.details.releasedMinor;
  return {
    status: decline ? "declined" : "captured",
    capture_id: record.reference,
    request_id: request.request_id,
    transaction_id: request.transaction_id,
    amount_captured: formatMinor(record.amountMinor ?? 0n, request.currency),
    ...(typeof released === "string" ? { amount_released: formatMinor(BigInt(released), request.currency) } : {}),
    currency: request.currency,
    ...(decline ? { decline_code: A_AUTHORIZATION_DECLINES[decline].code, decline_reason: A_AUTHORIZATION_DECLINES[decline].reason } : {}),
  };
}

function voidAnswer(record: SandboxRecord): AVoid {
  const request = record.request as { request_id: string; transaction_id: string };
  const decline = declineOf(record);
  return {
    status: decline ? "declined" : "voided",
    void_id: record.reference,
    request_id: request.request_id,
    transaction_id: request.transaction_id,
    ...(decline ? { decline_code: A_AUTHORIZATION_DECLINES[decline].code, decline_reason: A_AUTHORIZATION_DECLINES[decline].reason } : {}),
  };
}

/** POST /api/v2/captures: all or part of one of this merchant's authorizations, once per request_id. */
export async function takeCapture({ body, account, context }: SignedRequest): Promise<Response> {
  const parsed = aCaptureRequestSchema.safeParse(body);
  if (!parsed.success) return invalidRequest(parsed.error.issues);
  const capture = parsed.data;
  const amount = parseAmount(capture.amount, capture.currency);
  if (!amount.ok) return invalidRequest([{ path: ["amount"], message: amount.message }]);
  const result = await takeSandboxCapture(context.db, {
    provider: SLUG,
    account,
    paymentReference: capture.transaction_id,
    key: capture.request_id,
    referencePrefix: "A-CP-",
    granted,
    amountMinor: amount.minor,
    currency: capture.currency,
    partialAllowed: true,
    request: capture,
  });
  if (result.kind === "refused") return refuse(result.status, result.code, result.text);
  return Response.json(captureAnswer(result.record));
}

/** POST /api/v2/voids: releases one of this merchant's authorizations, once per request_id. */
export async function takeVoid({ body, account, context }: SignedRequest): Promise<Response> {
  const parsed = aVoidRequestSchema.safeParse(body);
  if (!parsed.success) return invalidRequest(parsed.error.issues);
  const voided = parsed.data;
  const result = await takeSandboxVoid(context.db, {
    provider: SLUG,
    account,
    paymentReference: voided.transaction_id,
    key: voided.request_id,
    referencePrefix: "A-VD-",
    granted,
    request: voided,
  });
  if (result.kind === "refused") return refuse(result.status, result.code, result.text);
  return Response.json(voidAnswer(result.record));
}

/** POST /api/v2/status with `operation: "capture"` or `"void"`: a capture or void of this merchant by its request_id. */
export async function authorizationStatus({ account, context }: SignedRequest, operation: "capture" | "void", requestId: string): Promise<Response> {
  const record = requestId
    ? await readSandboxAuthorizationRecord(context.db, SLUG, account, operation === "capture" ? CAPTURE_OPERATION : VOID_OPERATION, requestId)
    : undefined;
  if (!record) return refuse(404, "not_found", `No ${operation} with request_id ${requestId}.`);
  return Response.json(operation === "capture" ? captureAnswer(record) : voidAnswer(record));
}
