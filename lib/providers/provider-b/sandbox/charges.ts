import "server-only";
import { randomBytes } from "node:crypto";
import { z } from "zod";
import { formatMinor, parseAmount } from "@/lib/money";
import type { SandboxContext } from "@/lib/providers/kit/provider-server";
import type { SandboxAccount } from "@/lib/sandbox/accounts";
import { decideAmount, decideCard, type DeclineReason } from "@/lib/sandbox/cards";
import { queueSandboxCallback } from "@/lib/sandbox/callback-send";
import { findRecordByIdempotencyKey, saveRecord, type SandboxRecord } from "@/lib/sandbox/records";
import { THREE_DS_PENDING_STATUS, THREE_DS_REQUIRED, threeDsUrl } from "@/lib/sandbox/three-ds";

export const SLUG = "provider-b";

export const refuse = (status: number, code: string, text: string) => Response.json({ result: "error", error_code: code, error_text: text }, { status });

const chargeSchema = z.object({
  terminal_id: z.string(),
  order_ref: z.string().min(1).max(255),
  description: z.string().optional(),
  sum: z.string(),
  cur: z.string().length(3),
  partial: z.enum(["0", "1"]).default("0"),
  pan: z.string().regex(/^\d{12,19}$/),
  exp: z.string().regex(/^\d{2}\/\d{2}$/),
  cvc: z.string().optional(),
  holder_name: z.string(),
  lang: z.string().optional(),
  customer: z.record(z.string(), z.unknown()).default({}),
  back_url: z.string().optional(),
});

export type BAnswer = {
  result: "ok" | "partial" | "fail" | "3ds";
  txn: string;
  order_ref: string;
  sum: string;
  cur: string;
  captured_sum?: string;
  error_code?: string;
  error_text?: string;
  acs_url?: string;
  /** What B received about the customer, echoed back (spec 2.6). */
  received_customer: Record<string, unknown>;
  received_lang: string | null;
};

const DECLINES: Record<DeclineReason | "auth_3ds_failed", { error_code: string; error_text: string }> = {
  issuer_decline: { error_code: "do_not_honor", error_text: "The issuer declined the card." },
  insufficient_funds: { error_code: "nsf", error_text: "Not sufficient funds." },
  invalid_cvv: { error_code: "cvc_mismatch", error_text: "The CVC does not match." },
  auth_3ds_failed: { error_code: "3ds_failed", error_text: "3-D Secure authentication failed." },
};

type Base = Pick<BAnswer, "txn" | "order_ref" | "sum" | "cur" | "received_customer" | "received_lang">;

function settle(base: Base, decision: ReturnType<typeof decideAmount>): BAnswer {
  if (decision.kind === "approve" || decision.kind === "partial") {
    return { ...base, result: decision.kind === "approve" ? "ok" : "partial", captured_sum: formatMinor(decision.capturedMinor, base.cur) };
  }
  return { ...base, result: "fail", ...DECLINES[decision.kind === "decline" ? decision.reason : "issuer_decline"] };
}

/** The answer now: as given, unless the customer answered the 3-D Secure step since (lib/sandbox/three-ds.ts). */
export function answerFromRecord(record: SandboxRecord): BAnswer {
  const stored = record.response as BAnswer;
  const { details } = record;
  if (details.threeDs === "failed") return { ...stored, result: "fail", acs_url: undefined, ...DECLINES.auth_3ds_failed };
  if (details.threeDs !== "passed") return stored;
  const amount = { amountText: stored.sum, amountMinor: record.amountMinor ?? 0n, allowPartially: details.allowPartially === true };
  return { ...settle(stored, decideAmount(amount)), acs_url: undefined };
}

/** A card charge. The same order_ref twice on one terminal account is one charge; the test card decides the outcome. */
export async function takeCharge(raw: string, account: SandboxAccount, context: SandboxContext): Promise<Response> {
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    return refuse(400, "malformed_body", "The body must be JSON.");
  }
  const parsed = chargeSchema.safeParse(body);
  if (!parsed.success) return refuse(400, "invalid_request", parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; "));
  const charge = parsed.data;
  if (charge.terminal_id !== account.credentials.terminal_id) return refuse(401, "unknown_terminal", "terminal_id differs from X-Terminal.");
  const amount = parseAmount(charge.sum, charge.cur);
  if (!amount.ok) return refuse(400, "invalid_request", `sum: ${amount.message}`);

  const earlier = await findRecordByIdempotencyKey(context.db, SLUG, account.connectionId, charge.order_ref);
  if (earlier) return Response.json(answerFromRecord(earlier));

  const allowPartially = charge.partial === "1";
  const decision = decideCard({ cardNumber: charge.pan, amountText: amount.text, amountMinor: amount.minor, allowPartially, cvc: charge.cvc });
  if (decision.kind === "unavailable") return refuse(502, "upstream_timeout", "The card network did not answer in time.");
  const txn = `B${randomBytes(8).toString("hex")}`;
  const base: Base = { txn, order_ref: charge.order_ref, sum: amount.text, cur: charge.cur, received_customer: charge.customer, received_lang: charge.lang ?? null };
  const answer: BAnswer =
    decision.kind === "three_ds"
      ? { ...base, result: "3ds", acs_url: threeDsUrl(context.publicBaseUrl, SLUG, txn, charge.back_url ?? context.publicBaseUrl) }
      : settle(base, decision);
  const record = await saveRecord(context.db, {
    provider: SLUG,
    connectionId: account.connectionId,
    operation: "payment",
    reference: txn,
    idempotencyKey: charge.order_ref,
    amountMinor: answer.captured_sum === undefined ? amount.minor : parseAmountMinor(answer.captured_sum, charge.cur),
    currency: charge.cur,
    status: decision.kind === "three_ds" ? THREE_DS_PENDING_STATUS : answer.result,
    details: { ...(decision.kind === "three_ds" ? THREE_DS_REQUIRED : {}), allowPartially, card: charge.pan, receivedCustomer: charge.customer, receivedLang: charge.lang ?? null },
    request: { ...charge, cvc: undefined },
    response: answer,
  });
  if (record.reference === txn) await queueSandboxCallback(context.db, record);
  return Response.json(record.reference === txn ? answer : answerFromRecord(record));
}

function parseAmountMinor(text: string, currency: string): bigint {
  const parsed = parseAmount(text, currency);
  return parsed.ok ? parsed.minor : 0n;
}
