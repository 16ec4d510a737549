import "server-only";
import { createHmac } from "node:crypto";
import { z } from "zod";
import { formatMinor, toMinorUnits } from "@/lib/money";
import type { AdapterContext, HardDecline, PaymentInstruction, ProviderAdapter, ProviderOutcome } from "@/lib/providers/kit/adapter";
import { callProvider } from "@/lib/providers/kit/provider-http";
import { findErrorCode, hideFromLog, readHealth, readStatusTransport, readTransport, unreadableAnswer } from "../server/provider-answers";

/**
 * Provider B's terminal API v1: flat, form-like JSON (every value a string) naming the terminal,
 * authenticated by an HMAC-SHA256 of `${timestamp}.${raw body}` with the terminal's secret key,
 * sent as `X-Terminal` and `X-Signature: t=<unix seconds>,v1=<hex>`. `order_ref` is the
 * idempotency key. B echoes the customer it received (`received_customer`), so the attempt log
 * shows the defaults of spec 2.6 arriving.
 */

const answerSchema = z.object({
  result: z.enum(["ok", "partial", "fail", "3ds", "wait"]),
  txn: z.string(),
  cur: z.string(),
  captured_sum: z.string().optional(),
  error_code: z.string().optional(),
  error_text: z.string().optional(),
  acs_url: z.string().optional(),
});

/** Provider B's decline codes and what each means for the invoice. */
const DECLINES: Record<string, HardDecline> = {
  do_not_honor: "issuer_decline",
  nsf: "insufficient_funds",
  cvc_mismatch: "invalid_cvv",
  "3ds_failed": "auth_3ds_failed",
};

function credential(context: AdapterContext, id: string): string {
  const value = context.credentials[id];
  return typeof value === "string" ? value : "";
}

/** `t=…,v1=…`: the HMAC binds the body to a moment, so a captured request cannot be replayed later. */
export function signB(secret: string, timestamp: number, rawBody: string): string {
  return `t=${timestamp},v1=${createHmac("sha256", secret).update(`${timestamp}.${rawBody}`).digest("hex")}`;
}

function call(context: AdapterContext, method: "GET" | "POST", path: string, body?: Record<string, unknown>) {
  const rawBody = body === undefined ? "" : JSON.stringify({ terminal_id: credential(context, "terminal_id"), ...body });
  const timestamp = Math.floor(Date.now() / 1000);
  const headers = { "x-terminal": credential(context, "terminal_id"), "x-signature": signB(credential(context, "secret_key"), timestamp, rawBody) };
  return callProvider(context, { method, path: `/v1/${path}`, headers, ...(body === undefined ? {} : { rawBody }) });
}

function toOutcome(answer: z.infer<typeof answerSchema>): ProviderOutcome {
  const reference = answer.txn;
  switch (answer.result) {
    case "ok":
    case "partial":
      return { kind: "succeeded", providerReference: reference, processedAmountMinor: toMinorUnits(answer.captured_sum ?? "0", answer.cur) };
    case "3ds":
    case "wait":
      return { kind: "pending", providerReference: reference, ...(answer.acs_url ? { redirectUrl: answer.acs_url } : {}) };
    case "fail":
      return {
        kind: "declined",
        resolution: DECLINES[answer.error_code ?? ""] ?? "general_error",
        providerReference: reference,
        message: answer.error_text ?? `Declined by Provider B (${answer.error_code ?? "no code"}).`,
      };
  }
}

function readAnswer(read: ReturnType<typeof readTransport>): ProviderOutcome {
  if ("outcome" in read) return read.outcome;
  const parsed = answerSchema.safeParse(read.answer.body);
  return parsed.success ? toOutcome(parsed.data) : unreadableAnswer(read.answer);
}

/** Spec 2.6: B takes the language beside the customer, as `lang`. */
function splitLanguage(customer: Record<string, unknown>) {
  const { language, ...rest } = customer;
  return { customer: rest, lang: typeof language === "string" ? language : undefined };
}

async function createPayment(context: AdapterContext, instruction: PaymentInstruction): Promise<ProviderOutcome> {
  const { card } = instruction;
  hideFromLog(context.exchanges, [card.number, card.cvc]);
  const { customer, lang } = splitLanguage(instruction.customer);
  const body = {
    order_ref: instruction.idempotencyKey,
    description: instruction.invoiceId,
    sum: formatMinor(instruction.amountMinor, instruction.currency),
    cur: instruction.currency,
    partial: instruction.allowPartially ? "1" : "0",
    pan: card.number,
    exp: `${String(card.expiryMonth).padStart(2, "0")}/${String(card.expiryYear).slice(-2)}`,
    ...(card.cvc ? { cvc: card.cvc } : {}),
    holder_name: card.holder,
    ...(lang ? { lang } : {}),
    customer,
    back_url: instruction.returnUrl,
  };
  return readAnswer(readTransport(await call(context, "POST", "charges", body)));
}

/** Provider B's refusal codes say whether the terminal or its secret was wrong. */
function refusedField(body: unknown): string {
  return findErrorCode(body) === "unknown_terminal" ? "terminal_id" : "secret_key";
}

export const providerBAdapter: ProviderAdapter = {
  createPayment,
  getStatus: async (context, query) =>
    readAnswer(readStatusTransport(await call(context, "GET", `charges/${encodeURIComponent(query.idempotencyKey)}`))),
  healthCheck: async (context) => readHealth(await call(context, "GET", "auth-check"), refusedField),
};
