import { z } from "zod";
import type { StoredRoutingRule } from "@/lib/db/routing-types";

/** More than any merchant has connections: an order is a short list. */
const ROUTING_ORDER_MAX = 200;

export const connectionIdsSchema = z
  .array(z.string().min(1, "A connection id is empty").max(100, "Not a connection id"), { error: "connection_ids must be a list of connection ids" })
  .max(ROUTING_ORDER_MAX, { error: `A routing order holds at most ${ROUTING_ORDER_MAX} connections` });

/** A version number as text (a path or a query parameter): a whole number from 1, at most 9 digits. */
export const VERSION_TEXT = /^[1-9]\d{0,8}$/;

/** A version number in a body or an action's input, its problem naming `what`. */
export function versionNumberSchema(what: string) {
  const message = `${what} must be a version number (a whole number from 1)`;
  return z.int({ error: message }).min(1, message).max(2_147_483_647, message);
}

/**
 * A routing order as the Routing page's form and the management API send it: the connections of
 * one service in one mode, first to last. Connections left out follow, oldest first.
 */
export const routingOrderInputSchema = z.object({
  service: z.string().min(1, "Choose a service").max(255),
  mode: z.enum(["test", "live"], { error: 'mode must be "test" or "live"' }),
  connectionIds: connectionIdsSchema,
});

/**
 * What saveRoutingOrder takes: the routing order (the default rule), the rules before it, or both;
 * what is left out stays as saved.
 */
export type RoutingOrderInput = {
  service: string;
  mode: "test" | "live";
  connectionIds?: string[];
  rules?: StoredRoutingRule[];
};

/** A routing order's id in the management API: `payment_card_eur_hpp:test`. */
export function routingOrderId(service: string, mode: string): string {
  return `${service}:${mode}`;
}

export function parseRoutingOrderId(id: string): { service: string; mode: "test" | "live" } | undefined {
  const match = /^([a-z0-9_]{1,255}):(test|live)$/.exec(id);
  return match ? { service: match[1]!, mode: match[2] as "test" | "live" } : undefined;
}
