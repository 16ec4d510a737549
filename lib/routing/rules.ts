import { z } from "zod";
import { CARD_BRANDS } from "../cards/bin";
import type { StoredRoutingRule } from "@/lib/db/routing-types";
import { isCountryCode, unknownCountryMessage } from "./rule-checks";
import { connectionIdsSchema } from "./schemas";

/**
 * Routing rules: per service and mode an ordered list of rules, each with conditions
 * and an outcome, before the default rule (the routing order, `routing_orders.connection_ids`).
 * One schema for the Routing page's form, its server action, `PATCH /api/routing/{id}` and the
 * OpenAPI document. Field names are the API's (snake_case) everywhere.
 *
 * Not conditions on purpose: the currency (a service takes one currency, so every invoice of the
 * list has it) and test or live (each list belongs to one mode): the list a rule is in fixes both.
 */

const RULES_MAX = 50;
const SPLIT_BRANCHES_MAX = 4;
const RULE_CONNECTIONS_MAX = 20;

const decimal = (what: string) =>
  z
    .string({ error: `${what} must be a decimal amount such as 10.00` })
    .trim()
    .regex(/^(?:0|[1-9]\d{0,11})(?:\.\d{1,8})?$/, `${what} must be a decimal amount such as 10.00`);

const country = z
  .string({ error: "A country is a two-letter code such as GB" })
  .trim()
  .toUpperCase()
  .regex(/^[A-Z]{2}$/, "A country is a two-letter ISO 3166-1 code such as GB")
  .refine(isCountryCode, { error: (issue) => unknownCountryMessage(String(issue.input)) });

const countries = z.array(country, { error: "Countries must be a list of two-letter codes" }).max(250, "At most 250 countries");

const ruleConnectionIds = connectionIdsSchema.min(1, "Choose at least one connection").max(RULE_CONNECTIONS_MAX, `At most ${RULE_CONNECTIONS_MAX} connections`);

const ruleConditionsSchema = z.strictObject({
  amount_min: decimal("The lowest amount").optional().meta({ description: "Matches amounts at or above this, in the service's currency" }),
  amount_max: decimal("The highest amount").optional().meta({ description: "Matches amounts at or below this, in the service's currency" }),
  customer_countries: countries.optional().meta({ description: "Matches when customer.address.country is one of these" }),
  card_brands: z
    .array(z.enum(CARD_BRANDS, { error: `A card brand is one of ${CARD_BRANDS.join(", ")}` }))
    .max(CARD_BRANDS.length)
    .optional()
    .meta({ description: "Matches when the card's network (from its first digits) is one of these; decided once the card is known" }),
  card_countries: countries.optional().meta({ description: "Matches when the card's issuing country is one of these; decided once the card is known" }),
});

const ORDER_BY = ["as_listed", "success_rate"] as const;
export type OrderBy = (typeof ORDER_BY)[number];

/** How a cascade orders its connections; absent (rules saved before it existed) means as listed. */
const orderBySchema = z
  .enum(ORDER_BY, { error: 'order_by must be "as_listed" or "success_rate"' })
  .optional()
  .meta({
    description:
      "as_listed (the default): first to last as listed. success_rate: by each connection's success rate for the service over " +
      "the merchant's window (GET/PATCH /api/routing/settings), connections without the minimum sample keeping their listed place, " +
      "and a small exploration share of invoices trying another connection first",
  });

const cascadeOutcomeSchema = z.strictObject({
  kind: z.literal("cascade"),
  connection_ids: ruleConnectionIds.meta({ description: "Tried first to last; a soft failure moves to the next" }),
  order_by: orderBySchema,
});

const splitBranchSchema = z.strictObject({
  weight: z
    .int({ error: "A share is a whole percentage" })
    .min(1, "A share is at least 1%")
    .max(99, "A share is at most 99%")
    .meta({ description: "Percentage of the invoices this branch takes" }),
  connection_ids: ruleConnectionIds.meta({ description: "This branch's cascade, first to last" }),
  order_by: orderBySchema,
});

const splitOutcomeSchema = z.strictObject({
  kind: z.literal("split"),
  branches: z
    .array(splitBranchSchema)
    .min(2, "A split has at least two branches")
    .max(SPLIT_BRANCHES_MAX, `A split has at most ${SPLIT_BRANCHES_MAX} branches`),
});

const ruleOutcomeSchema = z.discriminatedUnion("kind", [cascadeOutcomeSchema, splitOutcomeSchema], {
  error: 'outcome.kind must be "cascade" or "split"',
});

export const routingRuleSchema = z.strictObject({
  name: z.string({ error: "Give the rule a name" }).trim().min(1, "Give the rule a name").max(80, "A rule's name is at most 80 characters"),
  conditions: ruleConditionsSchema.default({}),
  outcome: ruleOutcomeSchema,
  require_three_ds: z
    .boolean({ error: "require_three_ds must be true or false" })
    .optional()
    .meta({
      description:
        "true: the provider is asked to authenticate the customer with 3-D Secure (a challenge, or frictionless when the issuer allows); " +
        "connections whose provider cannot are passed over. Absent or false (the default): the provider decides.",
    }),
});

export const routingRulesSchema = z
  .array(routingRuleSchema, { error: "rules must be a list of rules" })
  .max(RULES_MAX, `At most ${RULES_MAX} rules before the default`);

type RuleConditions = z.output<typeof ruleConditionsSchema>;
/** A rule as stored and as routing reads it (the schema's output, with brands as plain text). */
export type RoutingRule = StoredRoutingRule;

/** Every connection id a rule names, in the order it names them. */
export function ruleConnectionIdsOf(rule: Pick<RoutingRule, "outcome">): string[] {
  return rule.outcome.kind === "cascade" ? rule.outcome.connection_ids : rule.outcome.branches.flatMap((branch) => branch.connection_ids);
}

/** Whether a rule waits for the card: it has a condition on the card's brand or issuing country. */
export function ruleNeedsCard(conditions: RoutingRule["conditions"]): boolean {
  return (conditions.card_brands?.length ?? 0) > 0 || (conditions.card_countries?.length ?? 0) > 0;
}

/** The stored column's type (lib/db/routing-types.ts) is exactly what this schema produces. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type ParsedRule = z.output<typeof routingRuleSchema>;
const _storedShape: Same<Omit<ParsedRule, "conditions"> & { conditions: Omit<RuleConditions, "card_brands"> & { card_brands?: string[] } }, StoredRoutingRule> =
  true;
void _storedShape;
