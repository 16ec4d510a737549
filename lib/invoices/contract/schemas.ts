import { z } from "zod";
import { INVOICE_FLOWS } from "@/lib/db/enums";
import type { InvoiceDirection } from "@/lib/providers";
import { customerSchema } from "./customer-schema";
import {
  amountSchema,
  currencySchema,
  lifetimeSchema,
  nonBlankText,
  paymentOptionsSchema,
  payoutFieldsSchema,
  payoutOptionsSchema,
  referenceIdSchema,
  SERVICE_FIELDS_MAX,
  DESCRIPTION_MAX,
} from "./field-schemas";
import type { Problem } from "@/lib/problems";
import { ATTRIBUTES_PATH, checkCustomerPlacement, checkInvoiceRules, checkJsonLimits } from "./rules";
import { strictObjectOf } from "./strict-object";
import { paymentMethodRelationshipSchema } from "./saved-cards";
import { isWebUrl } from "@/lib/http/web-url";

export { type Customer } from "./customer-schema";
import { INVOICE_TYPES } from "./resource-types";

type Ctx = z.core.$RefinementCtx<unknown>;

function report(ctx: Ctx, problems: readonly Problem[], drop: readonly string[] = []): void {
  for (const problem of problems) {
    ctx.addIssue({ code: "custom", message: problem.message, path: problem.path.slice(drop.length), params: { code: problem.code } });
  }
}

/**
 * `when: () => true` makes the cross-field rules run even when a field failed its own check,
 * so the client sees every problem at once (REFERENCE "Errors"), not one round trip per field.
 */
const ALWAYS = { when: () => true };

const attributeRules = (direction: InvoiceDirection) => (value: unknown, ctx: Ctx) => report(ctx, checkInvoiceRules(direction, value), ATTRIBUTES_PATH);

const sharedAttributes = {
  service: nonBlankText("service", "Payment method and currency, e.g. payment_card_eur_hpp"),
  commerce_account: nonBlankText("commerce_account", "Name of the merchant's commerce account"),
  currency: currencySchema,
  amount: amountSchema,
  reference_id: referenceIdSchema,
  test_mode: z.boolean().optional().meta({ description: "true for a test invoice; omitted or false means live, as in the minimum examples" }),
  customer: customerSchema.nullish(),
  lifetime: lifetimeSchema.optional(),
};

const gatewayOptionsSchema = z
  .looseObject({
    cardgate: z.looseObject({ tokenize: z.string().optional().meta({ description: "Sent as an empty string in the examples" }) }).optional(),
    customer: customerSchema.nullish(),
  })
  .meta({ description: "Gateway options; provider-specific keys are passed on" });

const RETURN_URL_MAX = 2048;

/** What the payment is for, in the merchant's words: the hosted page and the payment link's e-mail show it to the customer. */
const descriptionSchema = z
  .string({ error: "description must be a string" })
  .max(DESCRIPTION_MAX, { error: `description may be at most ${DESCRIPTION_MAX} characters` })
  .refine((value) => value.trim() !== "", { error: "description must not be blank; leave it out instead" })
  .meta({ description: "Optional. What the payment is for, shown to the customer on the hosted payment page" });

/** Where the hosted page links the customer back to after paying. */
const returnUrlSchema = z
  .string({ error: "return_url must be a URL string" })
  .max(RETURN_URL_MAX, { error: `return_url may be at most ${RETURN_URL_MAX} characters` })
  .refine(isWebUrl, { error: "return_url must be an absolute http or https URL, e.g. https://shop.example.com/thanks" })
  .meta({
    description: "Optional. The hosted payment page's link back to the merchant after paying (absolute http or https URL)",
    format: "uri",
    pattern: "^[Hh][Tt][Tt][Pp][Ss]?://[^/?#]",
  });

/**
 * Unknown attributes are rejected: a typo such as `test_mod` would otherwise be dropped silently
 * and create a live invoice. Nested customer and gateway objects stay open for provider extras.
 */
export const paymentInvoiceAttributesSchema = strictObjectOf(
  {
    ...sharedAttributes,
    flow: z
      .enum(INVOICE_FLOWS, { error: 'flow must be "charge" or "authorize"' })
      .meta({ description: '"charge" takes the money at Pay; "authorize" reserves it (status authorized) until a capture or void' }),
    options: paymentOptionsSchema.optional(),
    gateway_options: gatewayOptionsSchema.optional(),
    return_url: returnUrlSchema.optional(),
    description: descriptionSchema.optional(),
    service_fields: z
      .array(z.unknown())
      .max(SERVICE_FIELDS_MAX, { error: `service_fields may hold at most ${SERVICE_FIELDS_MAX} items` })
      .optional()
      .meta({ description: "Provider-specific fields; sent as an empty array in the examples" }),
  },
  "attribute",
)
  .superRefine(attributeRules("payment"), ALWAYS)
  .meta({ description: "Attributes of a payment invoice" });

const payoutInvoiceAttributesSchema = strictObjectOf(
  {
    ...sharedAttributes,
    fields: payoutFieldsSchema,
    options: payoutOptionsSchema.optional(),
  },
  "attribute",
)
  .superRefine(attributeRules("payout"), ALWAYS)
  .meta({ description: "Attributes of a payout invoice" });

/**
 * An invoice may name its connection (a "pin"), so support staff can test one provider
 * on purpose; without it the merchant's routing order decides. JSON:API's to-one relationship,
 * the same member the invoice resource returns.
 */
const connectionPinSchema = strictObjectOf(
  {
    connection: strictObjectOf(
      {
        data: strictObjectOf(
          {
            type: z.literal("connection", { error: 'The related resource\'s type must be "connection"' }),
            id: z.string().min(1).max(100).meta({ description: "The connection's id, conn_…" }),
          },
          "member of a resource identifier",
        )
          .nullable()
          .meta({ description: "The connection to pin to; null or absent routes by the routing order" }),
      },
      "member of the connection relationship",
    ).optional(),
    payment_method: paymentMethodRelationshipSchema.optional(),
  },
  "relationship",
).meta({
  description:
    "Optional. relationships.connection pins the invoice to one of your connections instead of your routing order: it must be " +
    "enabled, of the invoice's mode and offer its service (422 connection_not_found, connection_disabled, mode_mismatch, " +
    "service_not_offered at /data/relationships/connection/data/id). Test invoices may always be pinned; a live invoice only " +
    'when the merchant turned on "Allow pinning live invoices" in Settings (else 422 live_pin_not_allowed at ' +
    "/data/relationships/connection). A pinned invoice never cascades to another connection. attributes.routing.reason of " +
    "the created invoice says pinned",
});

export type ConnectionPin = z.output<typeof connectionPinSchema>;

/** The pinned connection's id, if the request names one. */
export function pinnedConnectionId(envelope: { data: { relationships?: ConnectionPin } }): string | undefined {
  return envelope.data.relationships?.connection?.data?.id;
}

function envelopeOf<A extends z.ZodType>(type: string, attributes: A, description: string) {
  const data = strictObjectOf(
    {
      type: z.literal(type, { error: `data.type must be "${type}" on this endpoint` }),
      attributes,
      customer: customerSchema.nullish(),
      relationships: connectionPinSchema.optional(),
      // JSON:API: a resource object may carry non-standard meta information; it is accepted and ignored.
      meta: z
        .record(z.string(), z.unknown(), { error: "data.meta must be an object" })
        .optional()
        .meta({ description: "Optional. Free-form meta information (JSON:API); accepted and ignored" }),
    },
    "member of data",
  );
  // JSON:API documents may carry top-level `meta` or `jsonapi`; only `data` matters here. `data.id` never
  // reaches this schema: the create routes answer 403 for a client-generated id first.
  return z
    .looseObject({ data })
    .superRefine((value, ctx) => report(ctx, [...checkJsonLimits(value), ...checkCustomerPlacement(value)]), ALWAYS)
    .meta({ description });
}

export const paymentInvoiceEnvelopeSchema = envelopeOf(
  INVOICE_TYPES.payment,
  paymentInvoiceAttributesSchema,
  "Request body of POST /api/commerce/payment-invoices",
);

export const payoutInvoiceEnvelopeSchema = envelopeOf(
  INVOICE_TYPES.payout,
  payoutInvoiceAttributesSchema,
  "Request body of POST /api/commerce/payout-invoices",
);

export const ENVELOPE_SCHEMAS = {
  payment: paymentInvoiceEnvelopeSchema,
  payout: payoutInvoiceEnvelopeSchema,
} as const;

export type InvoiceEnvelope<D extends InvoiceDirection> = z.output<(typeof ENVELOPE_SCHEMAS)[D]>;
