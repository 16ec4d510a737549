import "server-only";
import { randomBytes } from "node:crypto";
import { formatMinor, parseAmount } from "@/lib/money";
import type { SandboxContext } from "@/lib/providers/kit/provider-server";
import type { SandboxAccount } from "@/lib/sandbox/accounts";
import { decideAmount, decideCard } from "@/lib/sandbox/cards";
import { queueSandboxCallback } from "@/lib/sandbox/callback-send";
import { disputePlanDetails, scheduleSandboxDispute } from "@/lib/sandbox/disputes";
import { findRecordByIdempotencyKey, saveRecord, type SandboxRecord } from "@/lib/sandbox/records";
import { THREE_DS_PENDING_STATUS, THREE_DS_REQUIRED, threeDsUrl } from "@/lib/sandbox/three-ds";
import { heldDetails, sandboxAuthorizationUntil } from "@/lib/sandbox/authorizations";
import { B_DECLINES } from "../mapping";
import { findKeptCard, forgetCard, keepCard, newCardToken, savedCardDetails, savedCardOfRecord } from "@/lib/sandbox/card-tokens";
import { B_CARD_TOKEN_PREFIX, bChargeSchema, bForgetCardSchema, type BAnswer } from "../wire";

export const SLUG = "provider-b";

export const refuse = (status: number, code: string, text: string) => Response.json({ result: "error", error_code: code, error_text: text }, { status });

type Base = Pick<BAnswer, "txn" | "order_ref" | "sum" | "cur" | "received_customer" | "received_lang">;

function settle(base: Base, decision: ReturnType<typeof decideAmount>, holdUntil?: string): BAnswer {
  if ((decision.kind === "approve" || decision.kind === "partial") && holdUntil) {
    // Authorize only: the sum is reserved, nothing captured.
    return { ...base, result: "auth", authorized_sum: formatMinor(decision.capturedMinor, base.cur), auth_until: holdUntil };
  }
  if (decision.kind === "approve" || decision.kind === "partial") {
    return { ...base, result: decision.kind === "approve" ? "ok" : "partial", captured_sum: formatMinor(decision.capturedMinor, base.cur) };
  }
  return { ...base, result: "fail", ...B_DECLINES[decision.kind === "decline" ? decision.reason : "issuer_decline"] };
}

/** The answer now: as given, unless the customer answered the 3-D Secure step since (lib/sandbox/three-ds.ts). */
export function answerFromRecord(record: SandboxRecord): BAnswer {
  const stored = record.response as BAnswer;
  const { details } = record;
  if (details.threeDs === "failed") return { ...stored, result: "fail", acs_url: undefined, ...B_DECLINES.auth_3ds_failed };
  if (details.threeDs !== "passed") return withSavedCard(stored, record);
  const amount = { amountText: stored.sum, amountMinor: record.amountMinor ?? 0n, allowPartially: details.allowPartially === true };
  const holdUntil = typeof details.authorizedUntil === "string" ? details.authorizedUntil : undefined;
  return withSavedCard({ ...settle(stored, decideAmount(amount), holdUntil), acs_url: undefined }, record);
}

/** A card charge. The same order_ref twice on one terminal account is one charge; the test card decides the outcome. */
export async function takeCharge(raw: string, account: SandboxAccount, context: SandboxContext): Promise<Response> {
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    return refuse(400, "malformed_body", "The body must be JSON.");
  }
  const parsed = bChargeSchema.safeParse(body);
  if (!parsed.success) return refuse(400, "invalid_request", parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; "));
  const charge = parsed.data;
  if (charge.terminal_id !== account.credentials.terminal_id) return refuse(401, "unknown_terminal", "terminal_id differs from X-Terminal.");
  const card = await cardOfCharge(charge, account, context);
  if (card instanceof Response) return card;
  const amount = parseAmount(charge.sum, charge.cur);
  if (!amount.ok) return refuse(400, "invalid_request", `sum: ${amount.message}`);

  const earlier = await findRecordByIdempotencyKey(context.db, SLUG, account.connectionId, charge.order_ref);
  if (earlier && earlier.operation !== "payment") return refuse(409, "key_in_use", "That order_ref names another request of this terminal.");
  if (earlier) return Response.json(answerFromRecord(earlier));

  const allowPartially = charge.partial === "1";
  const hold = charge.capture === "0" ? heldDetails(await sandboxAuthorizationUntil(context.db, account.connectionId)) : undefined;
  const decision = decideCard({
    cardNumber: card.number,
    amountText: amount.text,
    amountMinor: amount.minor,
    allowPartially,
    cvc: charge.cvc,
    threeDsRequested: charge.force_3ds === "1",
  });
  if (decision.kind === "unavailable") return refuse(502, "upstream_timeout", "The card network did not answer in time.");
  const txn = `B${randomBytes(8).toString("hex")}`;
  const base: Base = {
    txn,
    order_ref: charge.order_ref,
    sum: amount.text,
    cur: charge.cur,
    received_customer: charge.customer,
    received_lang: charge.lang ?? null,
  };
  const answer: BAnswer =
    decision.kind === "three_ds"
      ? { ...base, result: "3ds", acs_url: threeDsUrl(context.publicBaseUrl, SLUG, txn, charge.back_url ?? context.publicBaseUrl) }
      : settle(base, decision, hold?.authorizedUntil);
  const savedToken = charge.save_card === "1" && !charge.card_token ? newCardToken(B_CARD_TOKEN_PREFIX) : undefined;
  const record = await saveRecord(context.db, {
    provider: SLUG,
    connectionId: account.connectionId,
    operation: "payment",
    reference: txn,
    idempotencyKey: charge.order_ref,
    amountMinor:
      answer.authorized_sum !== undefined
        ? parseAmountMinor(answer.authorized_sum, charge.cur)
        : answer.captured_sum === undefined
          ? amount.minor
          : parseAmountMinor(answer.captured_sum, charge.cur),
    currency: charge.cur,
    status: decision.kind === "three_ds" ? THREE_DS_PENDING_STATUS : answer.result,
    details: {
      ...(decision.kind === "three_ds" ? THREE_DS_REQUIRED : {}),
      ...(hold ?? {}),
      allowPartially,
      card: card.number,
      receivedCustomer: charge.customer,
      receivedLang: charge.lang ?? null,
      ...savedCardDetails(savedToken, card),
      ...disputePlanDetails(card.number, decision, "dpB"),
    },
    request: { ...charge, cvc: undefined },
    response: answer,
  });
  if (record.reference === txn && savedToken) {
    await keepCard(context.db, { provider: SLUG, connectionId: account.connectionId, token: savedToken, card, paymentReference: txn });
  }
  if (record.reference === txn) {
    await queueSandboxCallback(context.db, record);
    await scheduleSandboxDispute(context.db, record);
  }
  return Response.json(record.reference === txn ? withSavedCard(answer, record) : answerFromRecord(record));
}

function parseAmountMinor(text: string, currency: string): bigint {
  const parsed = parseAmount(text, currency);
  return parsed.ok ? parsed.minor : 0n;
}

type ChargeCard = { number: string; expiryMonth: number; expiryYear: number; holder: string };

/** The card a charge names: typed (`pan`, `exp`, `holder_name`) or kept behind `card_token`; a refusal when neither is usable. */
async function cardOfCharge(charge: ReturnType<typeof bChargeSchema.parse>, account: SandboxAccount, context: SandboxContext): Promise<ChargeCard | Response> {
  if (charge.card_token) {
    const kept = await findKeptCard(context.db, SLUG, account.connectionId, charge.card_token);
    if (!kept || kept.detached) return refuse(404, "unknown_card_token", "This terminal keeps no card behind that card_token.");
    return { number: kept.cardNumber, expiryMonth: kept.expiryMonth, expiryYear: kept.expiryYear, holder: kept.holder };
  }
  if (!charge.pan || !charge.exp || charge.holder_name === undefined)
    return refuse(400, "invalid_request", "pan, exp and holder_name, or card_token, are required.");
  const [month, year] = charge.exp.split("/");
  return { number: charge.pan, expiryMonth: Number(month), expiryYear: 2000 + Number(year), holder: charge.holder_name };
}

/** The answer with the saved card's fields, once the charge took money (a kept card is answered only then). */
function withSavedCard(answer: BAnswer, record: SandboxRecord): BAnswer {
  const saved = savedCardOfRecord(record);
  if (!saved || (answer.result !== "ok" && answer.result !== "partial")) return answer;
  const exp = `${String(saved.expiryMonth).padStart(2, "0")}/${String(saved.expiryYear).slice(-2)}`;
  return { ...answer, card_token: saved.token, card_last4: saved.lastFour, card_exp: exp, ...(saved.brand ? { card_brand: saved.brand } : {}) };
}

/** `POST /v1/cards/forget`: the terminal forgets the card behind `card_token`. */
export async function forgetCardToken(raw: string, account: SandboxAccount, context: SandboxContext): Promise<Response> {
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    return refuse(400, "malformed_body", "The body must be JSON.");
  }
  const parsed = bForgetCardSchema.safeParse(body);
  if (!parsed.success) return refuse(400, "invalid_request", parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; "));
  const forgotten = await forgetCard(context.db, SLUG, account.connectionId, parsed.data.card_token);
  if (forgotten === "unknown") return refuse(404, "unknown_card_token", "This terminal keeps no card behind that card_token.");
  return Response.json({ result: "ok" });
}
