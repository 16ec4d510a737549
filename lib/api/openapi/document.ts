import type { z } from "zod";
import {
  attemptListDocumentSchema,
  errorDocumentSchema,
  invoiceDocumentSchema,
  invoiceListDocumentSchema,
  invoiceListQuerySchema,
  refundDocumentSchema,
  refundListDocumentSchema,
} from "@/lib/invoices/contract/resource-schemas";
import { PAYMENT_INVOICE_ID, PAYOUT_INVOICE_ID, REFUND_ID } from "@/lib/ids/patterns";
import { refundRequestSchema } from "@/lib/refunds/contract";
import { TEST_REFUNDS } from "@/lib/sandbox/refund-triggers";
import { PAYOUT_IN_PROGRESS_CENTS } from "@/lib/sandbox/cards";
import { paymentInvoiceEnvelopeSchema, payoutInvoiceEnvelopeSchema } from "@/lib/invoices/contract/schemas";
import { listServices, type InvoiceDirection } from "@/lib/providers";
import { captureRequestSchema, voidRequestSchema } from "@/lib/invoices/contract/capture-schemas";
import { INVOICE_CSV_COLUMNS } from "@/lib/invoices/export/invoice-csv";
import { getProvider } from "@/lib/providers/lookup";
import { listTemplates, templateEnvelope } from "@/lib/composer/templates";
import { JSON_API, REQUEST_TYPES, ref, responseRef, toSchema, type Json } from "./json-schema";
import { PAYMENT_METHOD_SCHEMAS, paymentMethodPaths } from "./payment-methods";
import { RISK_SCHEMAS, riskPaths } from "./risk";
import { managementPaths, managementSchemas } from "./management";
import { DISPUTE_SCHEMAS, disputePaths } from "./disputes";

/**
 * A request body schema with the registry's services of that direction as the enum of `service`:
 * the registry, read when the document is built, is the one list (providers registered at run time
 * included), so a service the document offers is one the server knows.
 */
function requestSchema(schema: z.ZodType, direction: InvoiceDirection): Json {
  const json = toSchema(schema);
  const attributes = (((json.properties as Json).data as Json).properties as Json).attributes as Json;
  const service = (attributes.properties as Record<string, Json>).service!;
  service.enum = listServices()
    .filter((entry) => entry.direction === direction)
    .map((entry) => entry.code);
  return json;
}

const REQUEST_ID_HEADER: Json = {
  "X-Request-Id": {
    description: "The request's id (the client's own X-Request-Id when it sent a valid one); also meta.request_id",
    required: true,
    schema: { type: "string" },
  },
};

function errorResponse(description: string, headers?: Json): Json {
  return { description, content: { [JSON_API]: { schema: ref("ErrorDocument") } }, headers: { ...REQUEST_ID_HEADER, ...headers } };
}

const ERROR_RESPONSES: Readonly<Record<string, Json>> = {
  BadRequest: errorResponse(
    "Malformed JSON, or a query parameter the operation does not document (include, sort, fields[…] and any other " +
      "name: code unsupported_parameter or unknown_parameter, source.parameter names it)",
  ),
  QueryRefused: errorResponse(
    "A query parameter the operation does not document (include, sort, fields[…] and any other name): code " +
      "unsupported_parameter or unknown_parameter, source.parameter names it",
  ),
  Unauthorized: errorResponse("Missing, unknown or revoked API key, or a rolled key past its grace period (invalid_api_key)"),
  Forbidden: errorResponse(
    "commerce_account is not the API key's merchant's account (code forbidden_commerce_account), the invoice is in the " +
      "other mode than the API key's (key_mode_mismatch, pointer /data/attributes/test_mode: a pok_test_ key creates test " +
      "invoices only, a pok_live_ key live ones only), a read-only key sent anything but GET (insufficient_scope), a support " +
      "member's credential sent a live invoice (test_mode_only), or the body carries data.id: ids are assigned by the server " +
      "(client_generated_id, pointer /data/id)",
  ),
  NotFound: errorResponse("No such invoice for this merchant (another merchant's invoice is not found either, nor one of the other mode than the API key's)"),
  NotAcceptable: errorResponse(
    "Every application/vnd.api+json in Accept carries a media type parameter other than profile (ext included: no " + "extension is implemented)",
  ),
  Conflict: errorResponse("reference_id already used with a different body (code reference_reused); the same body again returns the original with 200"),
  PayloadTooLarge: errorResponse("Body over 64 KiB, declared or streamed (chunked)"),
  UnsupportedMediaType: errorResponse(
    "Content-Type is not application/json or application/vnd.api+json, or application/vnd.api+json carries a media " +
      "type parameter other than profile (JSON:API 1.1)",
  ),
  ReadOnlyKey: errorResponse("The API key is read-only: it may only GET (insufficient_scope)"),
  ResourceNotFound: errorResponse(
    "No such resource for this merchant in the API key's mode: another merchant's is not found either, nor a connection or " +
      "routing order of the other mode (the detail then says which mode the key manages and which key to use)",
  ),
  KeyModeMismatch: errorResponse(
    "The request names the other mode than the API key's (key_mode_mismatch): a pok_test_ key manages test connections and " +
      "routing only, a pok_live_ key live ones; source names the attribute or parameter, the detail says which key to use",
  ),
  SettingsForbidden: errorResponse(
    "A read-only key (insufficient_scope), or a test key (key_mode_mismatch): the settings steer live routing as well, so " +
      "only a pok_live_ key changes them",
  ),
  ManagementForbidden: errorResponse(
    "A read-only key sent anything but GET (insufficient_scope), the body carries data.id (client_generated_id, pointer " +
      "/data/id), or the connection is of the other mode than the API key's (key_mode_mismatch, pointer /data/attributes/mode: " +
      "a pok_test_ key creates test connections only, a pok_live_ key live ones)",
  ),
  ManagementUnprocessable: errorResponse(
    "Validation failed: every problem listed with its JSON pointer (unknown provider or kind, unknown or bad credential, constant, label, …)",
  ),
  InternalError: errorResponse("The server failed; quote meta.request_id (also the X-Request-Id header) when asking for help"),
  UnprocessableEntity: errorResponse(
    "Validation failed, every problem listed with its JSON pointer; or no_connection: no enabled connection in the " +
      "invoice's mode (test_mode) offers the service; or the pinned connection (data.relationships.connection) cannot " +
      "take the invoice: connection_not_found, connection_disabled, mode_mismatch, service_not_offered (pointer " +
      "/data/relationships/connection/data/id), or live_pin_not_allowed (pointer /data/relationships/connection: the " +
      'merchant has not turned on "Allow pinning live invoices")',
  ),
  TooManyRequests: errorResponse(
    "Rate limit reached: rate_limited (this API key's limit) or merchant_rate_limited (the limit for all of the merchant's keys together: more keys do not help)",
    {
      "Retry-After": { description: "Seconds to wait", schema: { type: "integer", minimum: 1 } },
    },
  ),
};

/** Answers any operation may give: negotiation, authentication, rate limit, failure. */
const COMMON_ERRORS: [string, string][] = [
  ["401", "Unauthorized"],
  ["406", "NotAcceptable"],
  ["415", "UnsupportedMediaType"],
  ["429", "TooManyRequests"],
  ["500", "InternalError"],
];

const errorRefs = (...codes: [string, string][]): Json => Object.fromEntries([...COMMON_ERRORS, ...codes].map(([status, name]) => [status, responseRef(name)]));

const invoiceResponse = (description: string): Json => ({
  description,
  content: { [JSON_API]: { schema: ref("InvoiceDocument") } },
});

/** One group per resource, so a reader of the reference finds an operation by what it acts on. */
const OPERATION_TAGS = [
  { name: "payments", description: "Payment invoices: create, read, list, attempts, capture, void", prefix: "/api/commerce/payment-invoices" },
  { name: "payouts", description: "Payout invoices: create, read, list, attempts, process, cancel", prefix: "/api/commerce/payout-invoices" },
  { name: "refunds", description: "Refunds of processed payments", prefix: "/api/commerce/refunds" },
  {
    name: "payment-methods",
    description: "Saved cards: list, read, detach (charge one with data.relationships.payment_method on a payment)",
    prefix: "/api/commerce/payment-methods",
  },
  { name: "disputes", description: "Disputes (chargebacks) of payments: the inbox, evidence, submit, accept", prefix: "/api/commerce/disputes" },
  { name: "files", description: "Evidence files: upload (multipart) and download", prefix: "/api/commerce/files" },
  { name: "connections", description: "Provider connections of the merchant", prefix: "/api/connections" },
  { name: "routing", description: "Routing orders: where new invoices go, and the cascade order", prefix: "/api/routing" },
  { name: "providers", description: "The providers and their connection forms", prefix: "/api/providers" },
  { name: "risk", description: "The blocklist checked at Pay and at creation, per mode", prefix: "/api/risk" },
] as const;

const HTTP_METHODS = new Set(["get", "put", "post", "delete", "options", "head", "patch", "trace"]);

function tagOperations(paths: Json): void {
  for (const [path, item] of Object.entries(paths)) {
    const tag = OPERATION_TAGS.find(({ prefix }) => path === prefix || path.startsWith(`${prefix}/`));
    if (!tag) throw new Error(`No OpenAPI tag for ${path}`);
    for (const [method, operation] of Object.entries(item as Record<string, Json>)) {
      if (HTTP_METHODS.has(method)) operation.tags = [tag.name];
    }
  }
}

/** The commerce account the examples carry when the document is not made for one merchant. */
const EXAMPLE_COMMERCE_ACCOUNT = "your-commerce-account";

/**
 * Each provider's example invoices of this direction (the composer's templates: the spec's section 4
 * bodies), as whole request bodies for `commerceAccount`, keyed by template id: what the reference page's
 * Try it starts from, and what a reader copies.
 */
function invoiceExamples(direction: InvoiceDirection, commerceAccount: string): Json {
  return Object.fromEntries(
    listTemplates()
      .filter((template) => template.direction === direction)
      .map((template) => [
        template.id,
        {
          summary: `${getProvider(template.provider)?.name ?? template.provider}: ${template.label}`,
          description: template.description,
          value: templateEnvelope(template, { commerceAccount, referenceId: `order-${template.id}-0001` }),
        },
      ]),
  );
}

/** The payment method id the saved-card example names when the document is not made with one of the merchant's. */
const EXAMPLE_PAYMENT_METHOD = "pm_your_saved_card";

/** The provider example the lifecycle examples start from (Provider B's: it authorizes and saves cards), in test mode. */
const LIFECYCLE_TEMPLATE = "b-payment";

/** Whose saved card the saved-card example can name: the provider of the template it starts from. */
export const SAVED_CARD_EXAMPLE_PROVIDER = "provider-b";

/**
 * Payment examples beyond the providers' own: authorize now and capture later, save the card, and
 * charge a saved card (`paymentMethodId`: one of the merchant's, so the example is accepted as shown).
 * Each starts from Provider B's example, whose provider can do all three.
 */
function lifecycleExamples(commerceAccount: string, paymentMethodId: string): Json {
  const template = listTemplates().find((candidate) => candidate.id === LIFECYCLE_TEMPLATE);
  if (!template) return {};
  const body = (referenceId: string, attributes: Json, data: Json = {}) => {
    const envelope = templateEnvelope(template, { commerceAccount, referenceId }) as { data: Json & { attributes: Json } };
    return { data: { ...envelope.data, attributes: { ...envelope.data.attributes, ...attributes }, ...data } };
  };
  return {
    "authorize-only": {
      summary: "Authorize now, capture later",
      description:
        'flow "authorize": after Pay the payment is authorized (authorized_amount, capture_before); POST …/capture takes it, POST …/void releases it. Only providers that authorize are routed to.',
      value: body("order-authorize-0001", { flow: "authorize", options: { allow_partially: false } }),
    },
    "save-card": {
      summary: "Save the card for later charges",
      description:
        "gateway_options.cardgate.tokenize with customer.reference_id: once Pay succeeds the card is saved as a payment method (GET /api/commerce/payment-methods).",
      value: body("order-save-card-0001", { gateway_options: { cardgate: { tokenize: "" } }, customer: { reference_id: "customer-0001" } }),
    },
    "saved-card-charge": {
      summary: "Charge a saved card (no hosted page)",
      description:
        "data.relationships.payment_method names a saved card: the payment is sent at creation, server to server, and the answer carries its outcome (process_pending with hpp_url when 3-D Secure is asked).",
      value: body(
        "order-saved-card-0001",
        { customer: { reference_id: "customer-0001" } },
        { relationships: { payment_method: { data: { type: "payment-methods", id: paymentMethodId } } } },
      ),
    },
  };
}

const REFUND_EXAMPLES: Json = {
  partial: {
    summary: "Refund part of a payment",
    value: { data: { type: "refund", attributes: { reference_id: "refund-0001", amount: "10.00", reason: "One item returned" } } },
  },
  rest: { summary: "Refund all that is left (no amount)", value: { data: { type: "refund", attributes: { reference_id: "refund-0002" } } } },
};

function createOperation(kind: "payment" | "payout", requestSchema: string, commerceAccount: string, paymentMethodId: string): Json {
  const examples =
    kind === "payment"
      ? { ...invoiceExamples(kind, commerceAccount), ...lifecycleExamples(commerceAccount, paymentMethodId) }
      : invoiceExamples(kind, commerceAccount);
  return {
    operationId: `create${kind === "payment" ? "Payment" : "Payout"}Invoice`,
    summary: `Create a ${kind} invoice`,
    description:
      "The invoice goes where the merchant's routing rules for its service and mode send it (the first rule whose conditions " +
      "hold: a cascade, ordered as listed or by success rate (GET/PATCH /api/routing/settings), or a percentage split), else to " +
      "the first enabled connection of the routing order (the Routing page, " +
      "GET/PATCH /api/routing, POST /api/routing/simulate), unless data.relationships.connection pins it to one connection; " +
      "attributes.routing says which happened and why (explanation). Rules on the card decide once the card is known: a payout's " +
      "at creation, a payment's at the hosted page's Pay. A pinned invoice does not cascade to other connections.",
    requestBody: {
      required: true,
      content: Object.fromEntries(REQUEST_TYPES.map((type) => [type, { schema: ref(requestSchema), examples }])),
    },
    responses: {
      "200": invoiceResponse("Replay: an invoice with this reference_id and the same body already exists"),
      "201": invoiceResponse("Created"),
      ...errorRefs(["400", "BadRequest"], ["403", "Forbidden"], ["409", "Conflict"], ["413", "PayloadTooLarge"], ["422", "UnprocessableEntity"]),
    },
  };
}

function queryParameters(): Json[] {
  const schema = toSchema(invoiceListQuerySchema);
  const properties = (schema.properties ?? {}) as Record<string, Json>;
  return Object.entries(properties).map(([name, property]) => {
    const { description, ...rest } = property;
    return { name, in: "query", required: false, description, schema: rest };
  });
}

function listOperation(kind: "payment" | "payout"): Json {
  return {
    operationId: `list${kind === "payment" ? "Payment" : "Payout"}Invoices`,
    summary: `List ${kind} invoices, newest first`,
    description:
      "One page as JSON:API by default. With `Accept: text/csv` the same filters answer CSV instead (RFC 4180, CRLF lines, a header " +
      "line first): every invoice they select, not one page (page[size] does not cut it; page[after] starts after that invoice), " +
      "streamed newest first, as an attachment. Columns: " +
      `${INVOICE_CSV_COLUMNS.map((column) => column.header).join(", ")}. Amounts are exact decimals in the currency's minor units; ` +
      "a text cell starting with =, +, -, @, tab or CR gets a leading ' so a spreadsheet does not run it as a formula. " +
      "created_at and updated_at are ISO 8601 in the merchant's time zone (Settings) with its offset, e.g. 2026-12-06T02:13:05.120+01:00; " +
      "Bad parameters answer the same 400 errors as the JSON list.",
    parameters: queryParameters(),
    responses: {
      "200": {
        description: "One page (JSON:API), or every matching invoice as CSV when Accept asks for text/csv",
        content: {
          [JSON_API]: { schema: ref("InvoiceList") },
          "text/csv": { schema: { type: "string", description: `CSV with the header line ${INVOICE_CSV_COLUMNS.map((column) => column.header).join(",")}` } },
        },
      },
      ...errorRefs(["400", "BadRequest"]),
    },
  };
}

/** A path's `{id}`, with the pattern the server's lookups take (lib/ids/patterns.ts). */
const pathId = (pattern: RegExp): Json => ({ name: "id", in: "path", required: true, schema: { type: "string", pattern: pattern.source } });

const idParameter = (kind: "payment" | "payout"): Json => pathId(kind === "payment" ? PAYMENT_INVOICE_ID : PAYOUT_INVOICE_ID);

function getOperation(kind: "payment" | "payout"): Json {
  return {
    operationId: `get${kind === "payment" ? "Payment" : "Payout"}Invoice`,
    summary: `Read one ${kind} invoice`,
    parameters: [idParameter(kind)],
    responses: {
      "200": invoiceResponse("The invoice"),
      ...errorRefs(["400", "QueryRefused"], ["404", "NotFound"]),
    },
  };
}

function attemptsOperation(kind: "payment" | "payout"): Json {
  return {
    operationId: `list${kind === "payment" ? "Payment" : "Payout"}InvoiceAttempts`,
    summary: `The ${kind} invoice's attempts, oldest first`,
    description:
      "The invoice's relationships.attempts.links.related. Each attempt is one try against one connection: the first goes where routing sent the invoice (reason " +
      "routing_order or pinned); after a soft failure the next goes to the next connection of the routing order " +
      "(reason cascaded), up to the attempts limit. A hard decline ends the invoice; an unknown outcome is settled " +
      "by a status request first.",
    parameters: [idParameter(kind)],
    responses: {
      "200": { description: "The attempts", content: { [JSON_API]: { schema: ref("AttemptList") } } },
      ...errorRefs(["400", "QueryRefused"], ["404", "NotFound"]),
    },
  };
}

function processOperation(): Json {
  return {
    operationId: "processPayoutInvoice",
    summary: "Send a payout created without auto_process to the provider",
    description:
      "Answers with the invoice after the provider's answer (processed, partially_processed, process_failed, " +
      "process_pending or process_error). 409 when the payout cannot go now: invoice_processing (already being " +
      "sent), invoice_final, attempts_exhausted, outcome_unknown, invoice_expired (its lifetime is over: attributes.expires_at). " +
      "A pending or unknown outcome is settled by scheduled status requests (10 s, 30 s, 2 min, 10 min, then hourly until " +
      "the lifetime ends; then process_error with resolution unable_to_reconcile), never by a second attempt.",
    parameters: [idParameter("payout")],
    responses: {
      "200": invoiceResponse("The payout after the attempt"),
      "409": errorResponse("The payout cannot be sent now; the code says why"),
      ...errorRefs(["400", "QueryRefused"], ["403", "Forbidden"], ["404", "NotFound"]),
    },
  };
}

function cancelOperation(): Json {
  return {
    operationId: "cancelPayoutInvoice",
    summary: "Stop a payout the provider has not completed",
    description:
      "A payout never sent (created) is canceled at once. A payout the provider is still paying (process_pending) moves to " +
      "canceling while the provider is asked to stop it: canceled when nothing was paid, partially_canceled when some parts of " +
      "a split payout were already paid (processed_amount says how much; those stay paid). payout.canceled is sent to your " +
      "webhook. 409 with the reason otherwise: not_cancelable (processed, failed, already canceled, being sent), payout_final (the " +
      "provider had finished it: the invoice shows how), cancel_refused or cancel_unknown (the provider did not confirm: the payout " +
      "is still in progress), mode_mismatch (the payout's connection is not in the payout's mode: nothing was asked of any provider)." +
      ` Test mode: a payout amount ending in .${PAYOUT_IN_PROGRESS_CENTS} stays in progress in Provider A's sandbox for a minute (its first part paid when split), so it can be canceled.`,
    parameters: [idParameter("payout")],
    responses: {
      "200": invoiceResponse("The payout after the cancel"),
      "409": errorResponse("The payout cannot be canceled now; the code says why"),
      ...errorRefs(["400", "QueryRefused"], ["403", "Forbidden"], ["404", "NotFound"]),
    },
  };
}

const CAPTURE_EXAMPLES: Json = {
  partial: { summary: "Capture part of the authorization (the rest is released)", value: { data: { type: "capture", attributes: { amount: "60.00" } } } },
};
const VOID_EXAMPLES: Json = { void: { summary: "Void the authorization (the body may also be left out)", value: { data: { type: "void" } } } };

const IDEMPOTENCY_KEY_PARAMETER: Json = {
  name: "Idempotency-Key",
  in: "header",
  required: false,
  description: "Up to 255 visible ASCII characters. The same key again answers with the invoice as the first request left it, instead of 409.",
  schema: { type: "string", maxLength: 255 },
};

function captureOperation(): Json {
  return {
    operationId: "capturePaymentInvoice",
    summary: "Capture an authorized payment (flow authorize), all or part",
    description:
      "Once per payment, from status authorized, before capture_before. amount (the invoice's money format) at most " +
      "authorized_amount; left out, all of it. Less releases the rest, where the provider captures part (GET /api/providers: " +
      "capabilities.partialCapture); elsewhere a part is refused 422 partial_capture_not_offered at amount. Answers with the " +
      "invoice: processed or partially_processed with processed_amount, and invoice.captured is sent to your webhook. 202 with " +
      "status capturing when the provider has not answered yet: status requests settle it. 409 when it cannot be captured: " +
      "not_authorized, authorization_busy (a capture or void is in progress: of two sent at once only one takes effect), " +
      "already_captured, authorization_voided, capture_declined. 502 capture_refused: the provider did not take it; the " +
      "authorization is still held. A refund (…/refunds) follows a capture only.",
    parameters: [idParameter("payment"), IDEMPOTENCY_KEY_PARAMETER],
    requestBody: {
      required: true,
      content: Object.fromEntries(REQUEST_TYPES.map((type) => [type, { schema: ref("CaptureRequest"), examples: CAPTURE_EXAMPLES }])),
    },
    responses: {
      "200": invoiceResponse("The payment after the capture"),
      "202": invoiceResponse("The capture was sent and its outcome is not known yet (status capturing)"),
      "409": errorResponse("The payment cannot be captured now; the code says why"),
      "502": errorResponse("The provider did not take the capture (capture_refused); nothing changed"),
      ...errorRefs(["400", "BadRequest"], ["403", "Forbidden"], ["404", "NotFound"], ["413", "PayloadTooLarge"], ["422", "UnprocessableEntity"]),
    },
  };
}

function voidOperation(): Json {
  return {
    operationId: "voidPaymentInvoice",
    summary: "Void an authorized payment (flow authorize): nothing is taken",
    description:
      "From status authorized: the provider releases the authorization and the invoice is voided (resolution voided); " +
      "invoice.voided is sent to your webhook. An authorization not captured before capture_before is voided by the service " +
      "itself, with resolution authorization_expired. 202 with status voiding when the provider has not answered yet. 409 " +
      "when it cannot be voided: not_authorized, authorization_busy, already_captured, authorization_voided, void_refused.",
    parameters: [idParameter("payment"), IDEMPOTENCY_KEY_PARAMETER],
    requestBody: { required: false, content: Object.fromEntries(REQUEST_TYPES.map((type) => [type, { schema: ref("VoidRequest"), examples: VOID_EXAMPLES }])) },
    responses: {
      "200": invoiceResponse("The payment after the void"),
      "202": invoiceResponse("The void was sent and its outcome is not known yet (status voiding)"),
      "409": errorResponse("The payment cannot be voided now; the code says why"),
      "502": errorResponse("The provider did not take the void; nothing changed"),
      ...errorRefs(["400", "BadRequest"], ["403", "Forbidden"], ["404", "NotFound"], ["413", "PayloadTooLarge"], ["422", "UnprocessableEntity"]),
    },
  };
}

const refundResponse = (description: string): Json => ({
  description,
  content: { [JSON_API]: { schema: ref("RefundDocument") } },
  headers: { ...REQUEST_ID_HEADER, Location: { description: "The refund's URL", schema: { type: "string", format: "uri" } } },
});

function createRefundOperation(): Json {
  const triggers = TEST_REFUNDS.map((trigger) => `${trigger.cents === "any other" ? "any other cents" : `.${trigger.cents}`}: ${trigger.outcome}`).join(" ");
  return {
    operationId: "createRefund",
    summary: "Refund a processed payment, in full or in part",
    description:
      "Sent at once to the connection that took the payment (never another one), with the refund's id as the provider's " +
      "idempotency key; the answer is the refund after the provider's answer: succeeded, failed, or pending (the provider " +
      "settles it later; scheduled status requests follow it, and refund.succeeded or refund.failed is sent to your " +
      "webhook). amount left out refunds the whole rest: processed_amount less what is refunded or on its way back. Several " +
      "partial refunds may follow each other until nothing is left. The invoice moves to refunding while a refund is open, " +
      "then to partially_refunded, refunded, or back to processed when every refund failed. 409 when the payment cannot be " +
      "refunded: not_processed (never processed, or already refunded in full), fully_refunded (refunds on their way " +
      `already take all of it), reference_reused. Test mode: the refund amount's cents decide the sandbox's answer. ${triggers}`,
    parameters: [idParameter("payment")],
    requestBody: {
      required: true,
      content: Object.fromEntries(REQUEST_TYPES.map((type) => [type, { schema: ref("RefundRequest"), examples: REFUND_EXAMPLES }])),
    },
    responses: {
      "200": refundResponse("Replay: a refund with this reference_id and the same body already exists"),
      "201": refundResponse("Created and sent"),
      "409": errorResponse("The payment cannot be refunded now (the code says why), or reference_id was used with another body"),
      ...errorRefs(["400", "BadRequest"], ["403", "Forbidden"], ["404", "NotFound"], ["413", "PayloadTooLarge"], ["422", "UnprocessableEntity"]),
    },
  };
}

function listRefundsOperation(): Json {
  return {
    operationId: "listPaymentInvoiceRefunds",
    summary: "The payment invoice's refunds, oldest first",
    description: "The invoice's relationships.refunds.links.related.",
    parameters: [idParameter("payment")],
    responses: {
      "200": { description: "The refunds", content: { [JSON_API]: { schema: ref("RefundList") } } },
      ...errorRefs(["400", "QueryRefused"], ["404", "NotFound"]),
    },
  };
}

function getRefundOperation(): Json {
  return {
    operationId: "getRefund",
    summary: "Read one refund",
    parameters: [pathId(REFUND_ID)],
    responses: {
      "200": refundResponse("The refund"),
      ...errorRefs(["400", "QueryRefused"], ["404", "NotFound"]),
    },
  };
}

/**
 * OpenAPI 3.1 description of the whole API under /api (invoices, connections, routing, providers),
 * generated from the zod schemas the routes validate with and describe their answers by.
 */
/**
 * The OpenAPI document. `commerceAccount`: the merchant the examples are written for (the dashboard's
 * reference page, so "Try it out" sends a body the API accepts for that merchant); the public
 * document uses EXAMPLE_COMMERCE_ACCOUNT. `paymentMethodId`: a saved card of that merchant, for the
 * saved-card charge's example (else a stand-in id the reader replaces).
 */
export function buildOpenApiDocument({
  baseUrl,
  commerceAccount = EXAMPLE_COMMERCE_ACCOUNT,
  paymentMethodId = EXAMPLE_PAYMENT_METHOD,
  evidenceFileId,
}: {
  baseUrl: string;
  commerceAccount?: string;
  paymentMethodId?: string;
  /** One of the merchant's uploaded files, for the evidence example (else a stand-in id the reader replaces). */
  evidenceFileId?: string;
}): Json {
  const paths: Json = {};
  for (const [kind, request] of [
    ["payment", "PaymentInvoiceRequest"],
    ["payout", "PayoutInvoiceRequest"],
  ] as const) {
    const collection = `/api/commerce/${kind}-invoices`;
    paths[collection] = { post: createOperation(kind, request, commerceAccount, paymentMethodId), get: listOperation(kind) };
    paths[`${collection}/{id}`] = { get: getOperation(kind) };
    paths[`${collection}/{id}/attempts`] = { get: attemptsOperation(kind) };
  }
  paths["/api/commerce/payout-invoices/{id}/process"] = { post: processOperation() };
  paths["/api/commerce/payout-invoices/{id}/cancel"] = { post: cancelOperation() };
  paths["/api/commerce/payment-invoices/{id}/refunds"] = { post: createRefundOperation(), get: listRefundsOperation() };
  paths["/api/commerce/refunds/{id}"] = { get: getRefundOperation() };
  paths["/api/commerce/payment-invoices/{id}/capture"] = { post: captureOperation() };
  paths["/api/commerce/payment-invoices/{id}/void"] = { post: voidOperation() };
  Object.assign(paths, paymentMethodPaths(errorRefs));
  Object.assign(paths, disputePaths(errorRefs, evidenceFileId));
  Object.assign(paths, managementPaths());
  Object.assign(paths, riskPaths(errorRefs));
  tagOperations(paths);
  return {
    openapi: "3.1.0",
    info: {
      title: "Payment orchestration API",
      version: "1.0.0",
      description:
        "No version in the path; fields are only ever added, so clients must ignore unknown ones. Every answer " +
        "carries X-Request-Id, and every error document meta.request_id. Every answer is marked as data a browser " +
        "must not render, frame, sniff or store: Content-Security-Policy: default-src 'none'; frame-ancestors 'none', " +
        "X-Frame-Options: DENY, X-Content-Type-Options: nosniff, Cache-Control: no-store. A method a path does not list answers 405 " +
        "with Allow (OPTIONS: 204 with Allow); HEAD answers as GET without a body. A path whose percent-escapes do not " +
        "decode answers 400 malformed_path whatever its method (no route can be told from it), and a trailing slash names " +
        "the same resource as the path without it. Request headers over 16 KiB answer 431 headers_too_large on any path. Links and Location are absolute, on the server's configured public address.",
    },
    servers: [{ url: baseUrl.replace(/\/+$/, "") }],
    tags: OPERATION_TAGS.map(({ name, description }) => ({ name, description })),
    security: [{ bearerAuth: [] }],
    paths,
    components: {
      securitySchemes: {
        bearerAuth: {
          type: "http",
          scheme: "bearer",
          description:
            "The merchant's API key: Authorization: Bearer <key>. A key's mode shows in its start: pok_test_… creates and reads " +
            "test invoices only, pok_live_… live ones only (plain pok_… keys, made before modes, are test keys); an invoice of the " +
            "other mode answers 404, lists hold the key's mode only, and a create in the other mode answers 403 key_mode_mismatch. " +
            "The management API follows the same rule: a test key manages test connections and test routing only, a live key live " +
            "ones; the routing settings, which both modes share, are changed with a live key only. " +
            "A read-only key may only GET (403 insufficient_scope otherwise). A rolled key keeps working for the grace period " +
            "chosen, then answers 401 invalid_api_key like a revoked one.",
        },
      },
      schemas: {
        PaymentInvoiceRequest: requestSchema(paymentInvoiceEnvelopeSchema, "payment"),
        PayoutInvoiceRequest: requestSchema(payoutInvoiceEnvelopeSchema, "payout"),
        InvoiceDocument: toSchema(invoiceDocumentSchema),
        InvoiceList: toSchema(invoiceListDocumentSchema),
        AttemptList: toSchema(attemptListDocumentSchema),
        RefundRequest: toSchema(refundRequestSchema),
        CaptureRequest: toSchema(captureRequestSchema),
        VoidRequest: toSchema(voidRequestSchema),
        RefundDocument: toSchema(refundDocumentSchema),
        RefundList: toSchema(refundListDocumentSchema),
        ErrorDocument: toSchema(errorDocumentSchema),
        ...PAYMENT_METHOD_SCHEMAS,
        ...RISK_SCHEMAS,
        ...DISPUTE_SCHEMAS,
        ...managementSchemas(),
      },
      responses: ERROR_RESPONSES,
    },
  };
}
