import "server-only";
import type { z } from "zod";
import { formatMinor } from "@/lib/money";
import type {
  AdapterContext,
  CaptureInstruction,
  CaptureOutcome,
  DisputeActionOutcome,
  HealthResult,
  PaymentInstruction,
  ProviderAdapter,
  ProviderOutcome,
  RefundInstruction,
  RefundOutcome,
  VoidInstruction,
  VoidOutcome,
} from "@/lib/providers/kit/adapter";
import { readAuthorizationAnswer, readAuthorizationTransport } from "../server/authorization-answers";
import { callProvider, type ProviderResponse } from "@/lib/providers/kit/provider-http";
import { credentialOf, hideFromLog, readRefundStatusTransport, readRefundTransport, unreadableRefundAnswer } from "../server/provider-answers";
import { readDisputeAction, readDisputeStatus } from "../server/dispute-answers";
import { captureOutcomeOf, disputeRefusalOf, disputeReportOf, outcomeOfPayment, refundOutcomeOf, voidOutcomeOf } from "./mapping";
import {
  authorizationHeader,
  E_PATHS,
  eCancelAnswerSchema,
  eCaptureAnswerSchema,
  eDisputeSchema,
  eRefundAnswerSchema,
  signE,
  signingText,
  type eCancelSchema,
  type eCaptureSchema,
  type eDisputeAcceptSchema,
  type eDisputeDefenseSchema,
  type EError,
  type EPayment,
  type EPaymentRequest,
  type ERefundRequest,
  type EShopper,
} from "./wire";

/**
 * Provider E's client: every request signed with the merchant's own private key (spec 5.1 note 5,
 * scheme in ./wire.ts), refunds included; the customer, date of birth included, goes along as the
 * shopper.
 */

/** The stored private key cannot sign (not a private key PEM): nothing was sent. */
class CannotSignError extends Error {}

function sign(context: AdapterContext, textToSign: string): string {
  const privateKey = credentialOf(context, "private_key");
  // A pair generated in the dashboard becomes the connection's private key when the connection is saved.
  if (privateKey === "")
    throw new CannotSignError("There is no private key to sign with yet: upload one, or save the connection with the generated key pair first.");
  try {
    return signE(privateKey, textToSign);
  } catch {
    throw new CannotSignError("The private key cannot sign: it is not a valid private key.");
  }
}

function send(context: AdapterContext, method: "GET" | "POST", path: string, body?: unknown): Promise<ProviderResponse> {
  const rawBody = body === undefined ? "" : JSON.stringify(body);
  const url = new URL(context.baseUrl.replace(/\/$/, "") + path);
  const timestamp = String(Math.floor(Date.now() / 1000));
  const signature = sign(context, signingText(method, url.pathname + url.search, timestamp, rawBody));
  const headers = {
    Authorization: authorizationHeader(credentialOf(context, "merchant_id"), signature),
    "X-Timestamp": timestamp,
    Date: new Date().toUTCString(),
  };
  return callProvider(context, { method, path, headers, ...(body === undefined ? {} : { rawBody }) });
}

const str = (value: unknown): string | undefined => (typeof value === "string" && value !== "" ? value : undefined);

/** The resolved customer in E's words; absent fields stay out. */
export function shopperOf(customer: Record<string, unknown>): EShopper {
  const address = (customer.address ?? {}) as Record<string, unknown>;
  const shopperAddress = { country: str(address.country), city: str(address.city), fullAddress: str(address.full_address) };
  const hasAddress = Object.values(shopperAddress).some((value) => value !== undefined);
  return JSON.parse(
    JSON.stringify({
      reference: str(customer.reference_id),
      name: str(customer.name),
      email: str(customer.email),
      phone: str(customer.phone),
      dateOfBirth: str(customer.date_of_birth),
      address: hasAddress ? shopperAddress : undefined,
    }),
  ) as EShopper;
}

function paymentRequestOf(instruction: PaymentInstruction): EPaymentRequest {
  const { card } = instruction;
  return {
    merchantReference: instruction.idempotencyKey,
    amount: { value: formatMinor(instruction.amountMinor, instruction.currency), currency: instruction.currency },
    allowPartialCapture: instruction.allowPartially,
    paymentMethod: {
      type: "scheme",
      number: card.number.replace(/\D/g, ""),
      expiryMonth: String(card.expiryMonth).padStart(2, "0"),
      expiryYear: String(card.expiryYear),
      ...(card.cvc ? { cvc: card.cvc } : {}),
      holderName: card.holder,
    },
    shopper: shopperOf(instruction.customer),
    returnUrl: instruction.returnUrl,
    metadata: { invoiceId: instruction.invoiceId },
    ...(instruction.authorizeOnly ? { captureMode: "manual" as const } : {}),
    ...(instruction.requireThreeDs ? { authenticationData: { attemptAuthentication: "always" as const } } : {}),
  };
}

const errorOf = (body: unknown): Partial<EError> => (body && typeof body === "object" ? (body as Partial<EError>) : {});

export function outcomeOf(response: ProviderResponse): ProviderOutcome {
  if (response.kind === "not_sent") return { kind: "soft_failed", resolution: "provider_unavailable", message: response.message };
  if (response.kind === "timed_out") return { kind: "unknown", message: response.message };
  const error = errorOf(response.body);
  const detail = error.errorCode ? `${error.errorCode}: ${error.message ?? ""}` : `HTTP ${response.status}`;
  if (response.status === 401 || response.status === 403)
    return { kind: "soft_failed", resolution: "provider_auth_error", message: `Provider E refused the signature (${detail})` };
  if (response.status === 429 || response.status >= 500)
    return { kind: "soft_failed", resolution: "provider_unavailable", message: `Provider E is unavailable (${detail})` };
  const payment = response.body as Partial<EPayment> | null;
  if (response.status >= 200 && response.status < 300 && payment?.paymentId && payment.resultCode) return outcomeOfPayment(payment as EPayment);
  return { kind: "declined", resolution: "general_error", message: `Provider E refused the request (${detail})` };
}

/** A signed request, or why it could not be signed (nothing was sent). */
async function sendSigned(context: AdapterContext, method: "GET" | "POST", path: string, body?: unknown): Promise<ProviderResponse | { cannotSign: string }> {
  try {
    return await send(context, method, path, body);
  } catch (error) {
    if (error instanceof CannotSignError) return { cannotSign: error.message };
    throw error;
  }
}

/** A key that cannot sign is the merchant's credential problem: a soft failure, like E's 401. */
async function sendForOutcome(context: AdapterContext, method: "GET" | "POST", path: string, body?: unknown): Promise<ProviderResponse | ProviderOutcome> {
  const response = await sendSigned(context, method, path, body);
  return "cannotSign" in response ? { kind: "soft_failed", resolution: "provider_auth_error", message: response.cannotSign } : response;
}

const isOutcome = (value: ProviderResponse | ProviderOutcome): value is ProviderOutcome => !["answered", "not_sent", "timed_out"].includes(value.kind);

async function createPayment(context: AdapterContext, instruction: PaymentInstruction): Promise<ProviderOutcome> {
  hideFromLog(context.exchanges, [instruction.card.number.replace(/\D/g, ""), instruction.card.cvc]);
  const response = await sendForOutcome(context, "POST", E_PATHS.payments, paymentRequestOf(instruction));
  return isOutcome(response) ? response : outcomeOf(response);
}

/** By E's payment id when known, else by the idempotency key sent as merchantReference. */
async function getStatus(context: AdapterContext, query: { providerReference?: string; idempotencyKey: string }): Promise<ProviderOutcome> {
  const path = query.providerReference ? E_PATHS.payment(query.providerReference) : E_PATHS.byReference(query.idempotencyKey);
  const response = await sendForOutcome(context, "GET", path);
  if (isOutcome(response)) return response;
  if (response.kind === "answered" && response.status === 404) {
    // E never saw the payment: nothing was charged, so another connection may be tried.
    return { kind: "soft_failed", resolution: "provider_unavailable", message: "Provider E has no record of this payment" };
  }
  return outcomeOf(response);
}

/**
 * The credential E's refusal points at. Its sign-in refusal (`E_SIGN_IN_REFUSAL` in ./wire.ts)
 * does not say whether it knew the merchant ID or could not verify the signature, so it blames
 * neither alone (the kind's `refusedTogether` names both).
 */
const HEALTH_FIELDS: Readonly<Record<string, string>> = { missing_signature: "private_key" };

async function healthCheck(context: AdapterContext): Promise<HealthResult> {
  let response: ProviderResponse;
  try {
    response = await send(context, "GET", E_PATHS.merchant);
  } catch (error) {
    if (error instanceof CannotSignError) return { kind: "credentials_refused", field: "private_key", message: error.message };
    throw error;
  }
  if (response.kind !== "answered") return { kind: "unreachable", message: `Provider E is unreachable: ${response.message}` };
  const error = errorOf(response.body);
  if (response.status === 200)
    return { kind: "ok", message: "Provider E is reachable and verified the signature with the public key it holds for this merchant ID." };
  if (response.status === 401 || response.status === 403) {
    const field = HEALTH_FIELDS[error.errorCode ?? ""];
    return {
      kind: "credentials_refused",
      ...(field ? { field } : {}),
      message: `Provider E refused the request: ${error.message ?? `HTTP ${response.status}`}`,
    };
  }
  return { kind: "unreachable", message: `Provider E answered HTTP ${response.status}${error.message ? ` (${error.message})` : ""}` };
}

function refundRequestOf(instruction: RefundInstruction): ERefundRequest {
  return {
    paymentId: instruction.paymentReference,
    merchantReference: instruction.refundId,
    amount: { value: formatMinor(instruction.amountMinor, instruction.currency), currency: instruction.currency },
    ...(instruction.reason ? { reason: instruction.reason.slice(0, 255) } : {}),
  };
}

/** The outcome of a refund's (or its status request's) transport, with E's errorCode and words when E gave them. */
function readRefundAnswer(response: ProviderResponse, read: ReturnType<typeof readRefundTransport>): RefundOutcome {
  if ("outcome" in read) {
    const error = response.kind === "answered" ? errorOf(response.body) : {};
    if (!error.errorCode || read.outcome.kind === "succeeded" || read.outcome.kind === "pending") return read.outcome;
    return { ...read.outcome, message: `${read.outcome.message} Provider E: ${error.errorCode}${error.message ? `: ${error.message}` : ""}` };
  }
  const parsed = eRefundAnswerSchema.safeParse(read.answer.body);
  return parsed.success ? refundOutcomeOf(parsed.data) : unreadableRefundAnswer(read.answer);
}

/** A key that cannot sign refunds nothing: refused, like E's 401. */
async function refund(context: AdapterContext, instruction: RefundInstruction): Promise<RefundOutcome> {
  const response = await sendSigned(context, "POST", E_PATHS.refunds, refundRequestOf(instruction));
  if ("cannotSign" in response) return { kind: "refused", resolution: "provider_auth_error", message: response.cannotSign };
  return readRefundAnswer(response, readRefundTransport(response));
}

/** By E's refund id when known, else by the refund id sent as merchantReference; a status request not sent says nothing. */
async function getRefundStatus(context: AdapterContext, query: { refundId: string; providerReference?: string }): Promise<RefundOutcome> {
  const path = query.providerReference ? E_PATHS.refund(query.providerReference) : E_PATHS.refundByReference(query.refundId);
  const response = await sendSigned(context, "GET", path);
  if ("cannotSign" in response) return { kind: "unknown", message: `The status request was not sent (${response.cannotSign}); asking again later.` };
  return readRefundAnswer(response, readRefundStatusTransport(response));
}

/**
 * Authorize now, capture later (./wire.ts): a capture or cancel, or its status request, read like a
 * refund's exchange. A key that cannot sign sends nothing: refused (a status request: not known yet).
 */
async function sendAuthorizationCall(
  context: AdapterContext,
  method: "GET" | "POST",
  path: string,
  body: unknown,
  statusRequest: boolean,
): Promise<ReturnType<typeof readAuthorizationTransport>> {
  const response = await sendSigned(context, method, path, body);
  if ("cannotSign" in response) return { outcome: { kind: statusRequest ? "unknown" : "refused", message: response.cannotSign } };
  const read = readAuthorizationTransport(response, statusRequest);
  if (!("outcome" in read) || response.kind !== "answered") return read;
  const error = errorOf(response.body);
  return error.errorCode
    ? { outcome: { ...read.outcome, message: `${read.outcome.message} Provider E: ${error.errorCode}: ${error.message ?? ""}`.trim() } }
    : read;
}

function readCapture(read: ReturnType<typeof readAuthorizationTransport>): CaptureOutcome {
  return readAuthorizationAnswer(read, eCaptureAnswerSchema, captureOutcomeOf);
}

function readCancel(read: ReturnType<typeof readAuthorizationTransport>): VoidOutcome {
  return readAuthorizationAnswer(read, eCancelAnswerSchema, voidOutcomeOf);
}

async function capture(context: AdapterContext, instruction: CaptureInstruction): Promise<CaptureOutcome> {
  const body: z.input<typeof eCaptureSchema> = {
    merchantReference: instruction.captureId,
    amount: { value: formatMinor(instruction.amountMinor, instruction.currency), currency: instruction.currency },
  };
  return readCapture(await sendAuthorizationCall(context, "POST", E_PATHS.captures(instruction.paymentReference), body, false));
}

async function voidAuthorization(context: AdapterContext, instruction: VoidInstruction): Promise<VoidOutcome> {
  const body: z.input<typeof eCancelSchema> = { merchantReference: instruction.voidId };
  return readCancel(await sendAuthorizationCall(context, "POST", E_PATHS.cancels(instruction.paymentReference), body, false));
}

export const providerEAdapter: ProviderAdapter = {
  createPayment,
  getStatus,
  healthCheck,
  refund,
  getRefundStatus,
  capture,
  getCaptureStatus: async (context, query) =>
    readCapture(await sendAuthorizationCall(context, "GET", E_PATHS.captureByReference(query.captureId), undefined, true)),
  voidAuthorization,
  getVoidStatus: async (context, query) => readCancel(await sendAuthorizationCall(context, "GET", E_PATHS.cancelByReference(query.voidId), undefined, true)),
  disputes: {
    getDispute: async (context, query) => {
      const response = await sendSigned(context, "GET", E_PATHS.dispute(query.disputeReference));
      if ("cannotSign" in response) return { kind: "failed", message: response.cannotSign };
      return readDisputeStatus(response, eDisputeSchema, disputeReportOf);
    },
    submitEvidence: (context, instruction) => {
      const body: z.input<typeof eDisputeDefenseSchema> = {
        merchantReference: instruction.disputeId,
        defenseText: {
          productDescription: instruction.text.product_description,
          customerCommunication: instruction.text.customer_communication,
          shippingTracking: instruction.text.shipping_tracking,
          refundPolicy: instruction.text.refund_policy,
          explanation: instruction.text.explanation,
        },
        defenseDocuments: instruction.files.map((file) => ({ fileName: file.filename, contentType: file.contentType, content: file.data.toString("base64") })),
      };
      return sendDisputeAction(context, E_PATHS.disputeDefend(instruction.disputeReference), body);
    },
    accept: (context, query) => {
      const body: z.input<typeof eDisputeAcceptSchema> = { merchantReference: query.disputeId };
      return sendDisputeAction(context, E_PATHS.disputeAccept(query.disputeReference), body);
    },
  },
};

/** Disputes (./wire.ts): a defense or an acceptance, signed like every request; a key that cannot sign sent nothing. */
async function sendDisputeAction(context: AdapterContext, path: string, body: unknown): Promise<DisputeActionOutcome> {
  const response = await sendSigned(context, "POST", path, body);
  if ("cannotSign" in response) return { kind: "failed", message: response.cannotSign };
  return readDisputeAction(response, eDisputeSchema, disputeReportOf, disputeRefusalOf);
}
