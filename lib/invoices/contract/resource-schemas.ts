import { z } from "zod";
import { ATTEMPT_STATUSES, INVOICE_FLOWS, PAYOUT_PART_STATUSES, REFUND_STATUSES, ROUTING_REASONS } from "@/lib/db/enums";
import { customerSchema } from "./customer-schema";
import { amountSchema, REFERENCE_ID_MAX } from "./field-schemas";
import { INVOICE_TYPES } from "./resource-types";
import { INVOICE_STATUSES, RESOLUTIONS } from "../state-machine";
import { INVOICE_ID } from "@/lib/ids/patterns";

/**
 * Response shapes (REFERENCE "Resources", "Errors"), for the API layer and the OpenAPI document.
 * Plain (non-strict) objects: REFERENCE "Versioning" adds fields over time and clients must
 * ignore unknown ones, so the published schemas must not forbid extra members.
 */

export const INVOICE_ID_PREFIXES = { payment: "cpi_", payout: "cpoi_" } as const;
const PAGE_SIZE_DEFAULT = 20;
export const PAGE_SIZE_MAX = 100;

const timestamp = (description: string) => z.iso.datetime().meta({ description });

const invoiceStatusSchema = z.enum(INVOICE_STATUSES).meta({ description: "Invoice status (REFERENCE Statuses)" });
const resolutionSchema = z.enum(RESOLUTIONS).meta({ description: "Why the invoice ended where it did" });

export const invoiceResourceSchema = z
  .object({
    id: z.string().regex(INVOICE_ID).meta({ description: "cpi_… for payment invoices, cpoi_… for payout invoices" }),
    type: z.enum([INVOICE_TYPES.payment, INVOICE_TYPES.payout]),
    attributes: z.object({
      status: invoiceStatusSchema,
      resolution: resolutionSchema.nullable(),
      amount: amountSchema,
      currency: z.string(),
      service: z.string(),
      reference_id: z.string().max(REFERENCE_ID_MAX),
      test_mode: z.boolean(),
      flow: z.enum(INVOICE_FLOWS).nullable().meta({ description: "null on payout invoices" }),
      options: z.record(z.string(), z.unknown()).meta({ description: "Options as sent" }),
      fields: z
        .object({ card_number: z.string().meta({ description: "Masked, e.g. 411111******1111; never the full number" }) })
        .optional()
        .meta({ description: "Payout destination, masked" }),
      customer: customerSchema.nullable().meta({ description: "Customer as sent" }),
      resolved_customer: z
        .record(z.string(), z.unknown())
        .nullable()
        .meta({ description: "Customer as the provider receives it: request, then constants, then defaults" }),
      resolved_customer_sources: z
        .record(
          z.string(),
          z.object({
            source: z.enum(["request", "constant", "default"]),
            constant: z.string().optional().meta({ description: "The connection constant's name; only when source is constant" }),
          }),
        )
        .nullable()
        .meta({
          description:
            "Where each resolved_customer value came from, keyed by spec path (customer.address.city, language): " +
            "the request, a connection constant, or the provider's default. Recorded at creation; null for invoices " +
            "created before sources were recorded",
        }),
      hpp_url: z
        .url()
        .nullable()
        .meta({
          description:
            "For _hpp services: where to send the customer, a page of this service at /pay/{id} that hands over to " +
            "the provider's hosted page (the page opens with invoice processing; the URL is stable from creation). " +
            "null for other services",
        }),
      routing: z
        .object({
          reason: z.enum(ROUTING_REASONS).meta({
            description:
              "pinned: the request named the connection (relationships.connection); routing_order: the first enabled " +
              "connection of the merchant's routing order for the service and mode; cascaded: a later one of that order, " +
              "after a soft failure of an earlier one",
          }),
          explanation: z.string().meta({
            description:
              "One sentence saying why the invoice went where it went: which rule matched (or the default rule, the " +
              "routing order), which branch a split drew, the resulting order, connections skipped and why, and whether " +
              "it was routed again at Pay once the card was known",
          }),
          rule: z
            .object({ position: z.int().min(1), name: z.string() })
            .nullable()
            .meta({ description: "The routing rule that decided (1-based among the rules before the default); null for the default rule or a pin" }),
          branch: z
            .object({ position: z.int().min(1), weight: z.int().min(1).max(100) })
            .nullable()
            .meta({ description: "For a rule that splits by percentage: the branch drawn and its share; else null" }),
          order: z.array(z.string()).meta({
            description:
              "The connection ids in the order routing chose: the first took the invoice, the rest are its cascade; empty for a pin or an invoice routed before rules existed",
          }),
          decided_at: z
            .enum(["creation", "pay"])
            .nullable()
            .meta({ description: "creation, or pay when the hosted page's Pay routed it again once the card was known; null for a pin or an older invoice" }),
          success_rate: z
            .object({
              window_hours: z.int().min(1).meta({ description: "The sliding window the rates were counted over" }),
              min_sample: z.int().min(1).meta({ description: "Attempts within the window before a connection's rate was trusted" }),
              exploration_percent: z.int().min(0).max(100).meta({ description: "The share of invoices that try another connection first" }),
              connections: z.array(z.object({ id: z.string(), attempts: z.int().min(0), successes: z.int().min(0), trusted: z.boolean() })).meta({
                description:
                  "The outcome's connections as listed, each with its counted attempts and successes at the time; untrusted ones kept their listed place",
              }),
              explored: z.string().nullable().meta({ description: "The connection exploration put first; null when the invoice did not explore" }),
            })
            .nullable()
            .meta({ description: "When the rule's outcome orders its connections by success rate: the rates used and whether exploration drew; else null" }),
        })
        .nullable()
        .meta({ description: "Why the invoice went to relationships.connection; null while it has none" }),
      processed_amount: amountSchema.nullable().meta({
        description:
          "What the provider actually collected or paid out, in the same form as amount (a string when amount was sent " +
          "as one, else a number); lower than amount on partially_processed; null until a provider says",
      }),
      refunded_amount: z
        .union([z.number().min(0), z.string().regex(/^(?:0|[1-9][0-9]{0,11})(?:\.[0-9]{1,2})?$/)])
        .optional()
        .meta({
          description:
            "Payments only: what succeeded refunds have given back, in the same form as amount; refunds still on their way " +
            "are not counted (relationships.refunds.links.related lists every refund)",
        }),
      disputed_amount: z
        .union([z.number().min(0), z.string().regex(/^(?:0|[1-9][0-9]{0,11})(?:\.[0-9]{1,2})?$/)])
        .optional()
        .meta({
          description:
            "Payments only: what its disputes hold, in the same form as amount: open ones, and lost or accepted ones (a won " +
            "dispute gives it back); not refundable (relationships.disputes.links.related lists every dispute)",
        }),
      authorized_amount: z
        .union([z.number().min(0), z.string().regex(/^(?:0|[1-9][0-9]{0,11})(?:\.[0-9]{1,2})?$/)])
        .nullable()
        .optional()
        .meta({
          description: 'Payments of flow "authorize" only: what the provider reserved at Pay, in the same form as amount; null until authorized',
        }),
      capture_before: z.string().nullable().optional().meta({
        description:
          'Payments of flow "authorize" only: when the authorization lapses (ISO 8601); not captured by then, it is voided (resolution authorization_expired)',
      }),
      attempts: z.int().min(0).meta({ description: "Provider attempts made so far (relationships.attempts.links.related lists them)" }),
      description: z.string().nullable().optional().meta({ description: "Payments only: what the payment is for, as sent; null when not sent" }),
      return_url: z.url().nullable().meta({ description: "Where the hosted page sends the customer back; null when not sent" }),
      lifetime: z.int().min(0).meta({
        description: "Seconds from creation to expires_at: the lifetime attribute as sent, else the merchant's Invoice lifetime at creation",
      }),
      expires_at: timestamp("When the invoice expires if it is still unpaid (ISO 8601 UTC); an expired invoice accepts no payment"),
      created: timestamp("Creation time, ISO 8601 UTC"),
      updated: timestamp("Last change, ISO 8601 UTC; order webhook events by it"),
    }),
    relationships: z.object({
      connection: z.object({
        data: z
          .object({ type: z.literal("connection"), id: z.string().meta({ description: "conn_…" }) })
          .nullable()
          .meta({ description: "The connection that processes the invoice; null before routing" }),
      }),
      attempts: z
        .object({
          links: z.object({ related: z.url().meta({ description: "The invoice's attempts (GET, JSON:API list of invoice-attempt)" }) }),
        })
        .meta({ description: "The provider attempts made for the invoice, oldest first, at links.related" }),
      refunds: z
        .object({ links: z.object({ related: z.url().meta({ description: "The payment's refunds (GET, JSON:API list of refund)" }) }) })
        .optional()
        .meta({ description: "Payments only: the refunds of the invoice, oldest first, at links.related" }),
      disputes: z
        .object({ links: z.object({ related: z.url().meta({ description: "The payment's disputes (GET, JSON:API list of dispute)" }) }) })
        .optional()
        .meta({ description: "Payments only: the disputes of the invoice, newest first, at links.related" }),
      payment_method: z
        .object({
          data: z.object({ type: z.literal("payment-methods"), id: z.string().meta({ description: "pm_…" }) }),
          links: z.object({ related: z.url().meta({ description: "The payment method (GET)" }) }),
        })
        .optional()
        .meta({ description: "Payments only, when the invoice charged a saved card or its payment saved one: that payment method" }),
    }),
    links: z.object({ self: z.url() }),
  })
  .meta({ description: "Invoice resource (JSON:API)" });

const REFUND_TYPE = "refund";

/** A refund of a payment invoice (lib/refunds). */
export const refundResourceSchema = z
  .object({
    id: z.string().meta({ description: "rf_…; also the idempotency key sent to the provider" }),
    type: z.literal(REFUND_TYPE),
    attributes: z.object({
      status: z.enum(REFUND_STATUSES).meta({
        description: "created (stored, being sent), pending (the provider will settle it), then succeeded or failed",
      }),
      resolution: resolutionSchema.nullable().meta({ description: "ok when succeeded; why it failed otherwise; null while open" }),
      amount: z.string().meta({ description: "Decimal text in the invoice's currency" }),
      currency: z.string(),
      reference_id: z.string(),
      reason: z.string().nullable(),
      test_mode: z.boolean(),
      provider_reference: z.string().nullable(),
      message: z.string().nullable().meta({ description: "The provider's answer in plain words" }),
      created: timestamp("When the refund was asked for"),
      updated: timestamp("Its last change"),
      settled: z.iso.datetime().nullable().meta({ description: "When it succeeded or failed; null while open" }),
    }),
    relationships: z.object({
      invoice: z.object({ data: z.object({ type: z.literal("payment-invoice"), id: z.string() }) }),
      connection: z.object({ data: z.object({ type: z.literal("connection"), id: z.string() }) }),
    }),
    links: z.object({ self: z.url() }),
  })
  .meta({ description: "Refund (JSON:API)" });

export const refundDocumentSchema = z.object({ data: refundResourceSchema });
export const refundListDocumentSchema = z.object({ data: z.array(refundResourceSchema), links: z.object({ self: z.url() }) });

export const ATTEMPT_TYPE = "invoice-attempt";

/** One try of an invoice against one connection, oldest first in the list. */
export const attemptResourceSchema = z
  .object({
    id: z.string().meta({ description: "att_…; also the idempotency key sent to the provider" }),
    type: z.literal(ATTEMPT_TYPE),
    attributes: z.object({
      seq: z.int().min(1).meta({ description: "1 for the first attempt of the invoice" }),
      reason: z.enum(ROUTING_REASONS).meta({ description: "routing_order or pinned for the first attempt, cascaded for later ones" }),
      status: z.enum(ATTEMPT_STATUSES).meta({ description: "in_flight while the provider call runs, then the outcome" }),
      resolution: resolutionSchema.nullable(),
      provider_reference: z.string().nullable(),
      processed_amount: z.string().nullable().meta({ description: "Decimal text in the invoice's currency; null unless succeeded" }),
      message: z.string().nullable().meta({ description: "The provider's answer in plain words" }),
      started: timestamp("When the attempt started"),
      finished: z.iso.datetime().nullable().meta({ description: "null while in flight or pending" }),
      duration_ms: z.int().nullable(),
      // An attribute, not a relationship: the parts are no resources of their own (no type, no URL),
      // and JSON:API relationship data may hold resource identifiers only.
      payout_parts: z
        .array(
          z.object({
            id: z.string().meta({ description: "po_…" }),
            amount: z.string(),
            status: z.enum(PAYOUT_PART_STATUSES),
            provider_reference: z.string().nullable(),
          }),
        )
        .optional()
        .meta({ description: "Payouts paid in parts (split_mode); absent otherwise" }),
    }),
    relationships: z.object({
      connection: z.object({ data: z.object({ type: z.literal("connection"), id: z.string() }) }),
    }),
  })
  .meta({ description: "Invoice attempt (JSON:API); the provider exchange log is shown on the invoice page only" });

export const attemptListDocumentSchema = z.object({ data: z.array(attemptResourceSchema), links: z.object({ self: z.url() }) });

export const invoiceDocumentSchema = z.object({ data: invoiceResourceSchema });

export const invoiceListDocumentSchema = z.object({
  data: z.array(invoiceResourceSchema),
  links: z.object({
    self: z.url(),
    next: z.url().nullable().meta({ description: "Next page; null on the last one" }),
  }),
  meta: z.object({ page_size: z.int() }),
});

const errorObjectSchema = z.object({
  status: z.string().meta({ description: 'HTTP status as a string, e.g. "422"' }),
  code: z.string().meta({ description: "Stable machine-readable code, e.g. currency_mismatch" }),
  title: z.string(),
  detail: z.string().optional(),
  source: z
    .object({
      pointer: z.string().optional().meta({ description: "JSON pointer into the request body, e.g. /data/attributes/currency" }),
      parameter: z.string().optional().meta({ description: "Query parameter at fault" }),
      header: z.string().optional(),
    })
    .optional(),
});

export const errorDocumentSchema = z
  .object({
    errors: z.array(errorObjectSchema).min(1).meta({ description: "Every problem of the request at once" }),
    meta: z.object({ request_id: z.string().meta({ description: "Same as the X-Request-Id header: quote it when asking for help" }) }),
  })
  .meta({ description: "JSON:API error document (REFERENCE Errors)" });

/** Query of the list endpoints; parses `URLSearchParams` entries (`Object.fromEntries`). */
export const invoiceListQuerySchema = z.object({
  "filter[reference_id]": z.string().min(1).max(REFERENCE_ID_MAX).optional().meta({ description: "Exact reference_id" }),
  "filter[status]": z.enum(INVOICE_STATUSES).optional().meta({ description: "Only invoices in this status" }),
  "filter[created_from]": z.iso.datetime().optional().meta({ description: "Created at or after (ISO 8601 UTC)" }),
  "filter[created_to]": z.iso.datetime().optional().meta({ description: "Created before (ISO 8601 UTC)" }),
  "page[size]": z.coerce
    .number()
    .int()
    .min(1)
    .max(PAGE_SIZE_MAX)
    .default(PAGE_SIZE_DEFAULT)
    .meta({ description: `Items per page, 1 to ${PAGE_SIZE_MAX}` }),
  "page[after]": z.string().min(1).max(512).optional().meta({ description: "Opaque cursor from links.next" }),
});

export type InvoiceResource = z.output<typeof invoiceResourceSchema>;
export type AttemptResource = z.output<typeof attemptResourceSchema>;
