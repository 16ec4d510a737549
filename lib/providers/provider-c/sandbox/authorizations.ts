import "server-only";
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
import { findRecordByIdempotencyKey, type SandboxRecord } from "@/lib/sandbox/records";
import { C_AUTHORIZATION_REJECTIONS } from "../mapping";
import { cCancellationRequestSchema, cCaptureRequestSchema, type CCancellation, type CCapture } from "../wire";
import { orderFromRecord, refuse, SLUG } from "./orders";

/**
 * Provider C's captures and cancellations of authorized orders (../wire.ts), decided by the shared
 * engine (lib/sandbox/authorizations.ts). C captures only the whole authorization: a part is
 * REJECTED with PARTIAL_CAPTURE_NOT_SUPPORTED.
 */

/** C grants an authorization when its order is AUTHORIZED (at once, or once 3-D Secure passed). */
const granted = (payment: SandboxRecord) => orderFromRecord(payment).order.state === "AUTHORIZED";

const rejectionOf = (record: SandboxRecord) => {
  const decline = record.details.decline as SandboxAuthorizationDecline | undefined;
  return decline ? { rejection_reason: C_AUTHORIZATION_REJECTIONS[decline] } : {};
};

function captureFromRecord(record: SandboxRecord): { capture: CCapture } {
  const request = record.request as { shop_capture_id: string; order_id: string; currency_code: string };
  const rejection = rejectionOf(record);
  return {
    capture: {
      id: record.reference,
      shop_capture_id: request.shop_capture_id,
      order_id: request.order_id,
      state: rejection.rejection_reason ? "REJECTED" : "CAPTURED",
      amount_minor: Number(record.amountMinor ?? 0n),
      currency_code: request.currency_code,
      ...rejection,
    },
  };
}

function cancellationFromRecord(record: SandboxRecord): { cancellation: CCancellation } {
  const request = record.request as { shop_cancellation_id: string; order_id: string };
  const rejection = rejectionOf(record);
  return {
    cancellation: {
      id: record.reference,
      shop_cancellation_id: request.shop_cancellation_id,
      order_id: request.order_id,
      state: rejection.rejection_reason ? "REJECTED" : "CANCELLED",
      ...rejection,
    },
  };
}

function readJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}

const issuesText = (issues: readonly { path: PropertyKey[]; message: string }[]) =>
  issues.map((i) => `${i.path.map(String).join(".")}: ${i.message}`).join("; ");

/** POST /shop/captures: the whole of one of this shop's authorized orders, once per shop_capture_id (201; 200 when taken before). */
export async function takeCapture(raw: string, account: SandboxAccount, context: SandboxContext): Promise<Response> {
  const body = readJson(raw);
  if (body === undefined) return refuse(400, "malformed_body", "The body must be JSON.");
  const parsed = cCaptureRequestSchema.safeParse(body);
  if (!parsed.success) return refuse(422, "invalid_capture", issuesText(parsed.error.issues));
  const input = parsed.data;
  const takenBefore = await findRecordByIdempotencyKey(context.db, SLUG, account.connectionId, input.shop_capture_id);
  const result = await takeSandboxCapture(context.db, {
    provider: SLUG,
    account,
    paymentReference: input.order_id,
    key: input.shop_capture_id,
    referencePrefix: "C-CAP-",
    granted,
    amountMinor: BigInt(input.amount_minor),
    currency: input.currency_code,
    partialAllowed: false,
    request: input,
  });
  // C words what it cannot take as 422, like an order it cannot take.
  if (result.kind === "refused") return refuse(result.status === 400 ? 422 : result.status, result.code, result.text);
  return Response.json(captureFromRecord(result.record), { status: takenBefore ? 200 : 201 });
}

/** POST /shop/cancellations: releases one of this shop's authorized orders, once per shop_cancellation_id. */
export async function takeCancellation(raw: string, account: SandboxAccount, context: SandboxContext): Promise<Response> {
  const body = readJson(raw);
  if (body === undefined) return refuse(400, "malformed_body", "The body must be JSON.");
  const parsed = cCancellationRequestSchema.safeParse(body);
  if (!parsed.success) return refuse(422, "invalid_cancellation", issuesText(parsed.error.issues));
  const input = parsed.data;
  const takenBefore = await findRecordByIdempotencyKey(context.db, SLUG, account.connectionId, input.shop_cancellation_id);
  const result = await takeSandboxVoid(context.db, {
    provider: SLUG,
    account,
    paymentReference: input.order_id,
    key: input.shop_cancellation_id,
    referencePrefix: "C-CAN-",
    granted,
    request: input,
  });
  if (result.kind === "refused") return refuse(result.status === 400 ? 422 : result.status, result.code, result.text);
  return Response.json(cancellationFromRecord(result.record), { status: takenBefore ? 200 : 201 });
}

/** GET /shop/captures/{shop_capture_id}. */
export async function captureStatus(key: string, account: SandboxAccount, context: SandboxContext): Promise<Response> {
  const record = await readSandboxAuthorizationRecord(context.db, SLUG, account, CAPTURE_OPERATION, key);
  if (!record) return refuse(404, "capture_not_found", "The shop has no capture with that shop_capture_id.");
  return Response.json(captureFromRecord(record));
}

/** GET /shop/cancellations/{shop_cancellation_id}. */
export async function cancellationStatus(key: string, account: SandboxAccount, context: SandboxContext): Promise<Response> {
  const record = await readSandboxAuthorizationRecord(context.db, SLUG, account, VOID_OPERATION, key);
  if (!record) return refuse(404, "cancellation_not_found", "The shop has no cancellation with that shop_cancellation_id.");
  return Response.json(cancellationFromRecord(record));
}
