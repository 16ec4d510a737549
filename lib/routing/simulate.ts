import { z } from "zod";
import { INVOICE_FLOWS } from "@/lib/db/enums";
import { capabilityAsksOf } from "@/lib/providers/capabilities";
import type { Db } from "@/lib/db/client";
import { parseAmount } from "@/lib/money";
import { fail, ok, problem, type Result } from "@/lib/problems";
import { findService, type Mode } from "@/lib/providers";
import { cardFactsOf, type CardBrand } from "../cards/bin";
import { loadRouteSetup } from "./candidates";
import { compileRules, decideRoute, tableUsesSuccessRate, type RoutingDecision } from "./decide";
import { successSnapshotFor } from "./success-stats";
import { routingRulesSchema } from "./rules";

/**
 * The routing simulator: the Routing page's panel and `POST /api/routing/simulate`. It takes an
 * invoice's attributes and answers what routing would do, with the very function invoice creation
 * uses (decideRoute over the same cached setup), and creates nothing. `rules` tries a draft
 * instead of the saved rules. A card is given by its first digits only (card_bin).
 */
export const simulationInputSchema = z.strictObject({
  service: z.string({ error: "Choose a service" }).min(1, "Choose a service").max(255).meta({ description: "The invoice's service" }),
  test_mode: z.boolean({ error: "test_mode must be true or false" }).optional().meta({ description: "true for a test invoice; absent or false for live" }),
  amount: z
    .union([z.string(), z.number()], { error: "amount must be a decimal amount such as 10.00" })
    .meta({ description: "The invoice's amount in the service's currency, as the invoice API takes it" }),
  customer_country: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{2}$/, "customer_country is a two-letter ISO 3166-1 code such as GB")
    .optional()
    .meta({ description: "customer.address.country" }),
  card_bin: z
    .string()
    .regex(/^\d{6,9}$/, "card_bin is the card number's first 6 to 9 digits")
    .optional()
    .meta({ description: "The card's first digits (never the whole number); absent: a payment before Pay, the card not known yet" }),
  draw: z
    .number({ error: "draw must be a number from 0 to below 100" })
    .min(0, "draw must be a number from 0 to below 100")
    .lt(100, "draw must be a number from 0 to below 100")
    .optional()
    .meta({ description: "The split's draw in [0, 100); absent: a random one, as a real invoice gets" }),
  exploration_draw: z
    .number({ error: "exploration_draw must be a number from 0 to below 100" })
    .min(0, "exploration_draw must be a number from 0 to below 100")
    .lt(100, "exploration_draw must be a number from 0 to below 100")
    .optional()
    .meta({ description: "For a rule ordered by success rate: the exploration draw in [0, 100) (below the exploration share explores); absent: a random one" }),
  rules: routingRulesSchema.optional().meta({ description: "Draft rules to try instead of the saved ones" }),
  flow: z
    .enum(INVOICE_FLOWS, { error: 'flow must be "charge" or "authorize"' })
    .optional()
    .meta({ description: 'The payment\'s flow: "authorize" considers only connections whose provider can authorize now and capture later; absent: charge' }),
  tokenize: z
    .boolean({ error: "tokenize must be true or false" })
    .optional()
    .meta({ description: "true: the payment sends gateway_options.cardgate.tokenize, so only connections whose provider can save cards are considered" }),
});

export type SimulationInput = z.output<typeof simulationInputSchema>;

export type Simulation = {
  service: string;
  mode: Mode;
  /** The saved version simulated, or null for a draft. */
  version: number | null;
  decision: RoutingDecision;
  /** The order with each connection's label. */
  order: { id: string; label: string }[];
  card: { brand: CardBrand | null; country: string | null } | null;
};

export async function simulateRouting(db: Db, merchantId: string, input: SimulationInput): Promise<Result<Simulation>> {
  const spec = findService(input.service);
  if (!spec) return fail([problem("unknown_service", `Unknown service "${input.service}"`, ["service"])]);
  const amount = parseAmount(input.amount, spec.currency);
  if (!amount.ok) return fail([problem("invalid_amount", amount.message, ["amount"])]);
  const mode: Mode = input.test_mode === true ? "test" : "live";
  const setup = await loadRouteSetup(db, merchantId, { service: input.service, mode });
  const table = input.rules ? { ...setup.table, rules: compileRules(input.rules, spec.currency) } : setup.table;
  const card = input.card_bin === undefined ? undefined : cardFactsOf(input.card_bin);
  const draw = input.draw;
  const explore = input.exploration_draw;
  const success = await successSnapshotFor(
    db,
    merchantId,
    input.service,
    { usesSuccessRate: tableUsesSuccessRate(table), success: setup.success },
    explore === undefined ? Math.random : () => explore / 100,
  );
  const decision = decideRoute(
    table,
    {
      amountMinor: amount.minor,
      customerCountry: input.customer_country ?? null,
      card,
      asks: capabilityAsksOf({ flow: input.flow, gatewayOptions: input.tokenize === true ? { cardgate: { tokenize: "" } } : undefined }),
    },
    draw === undefined ? Math.random : () => draw / 100,
    success,
  );
  return ok({
    service: input.service,
    mode,
    version: input.rules ? null : setup.version,
    decision,
    order: decision.connectionIds.map((id) => ({ id, label: table.labels.get(id) ?? id })),
    card: card ? { brand: card.brand, country: card.country } : null,
  });
}
