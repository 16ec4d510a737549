import "server-only";
import { and, asc, eq, sql } from "drizzle-orm";
import type { z } from "zod";
import { insertWithinCap } from "@/lib/db/caps";
import type { Db } from "@/lib/db/client";
import { webhookEndpoints } from "@/lib/db/schema";
import { checkWebhookUrl } from "@/lib/http/url-check";
import { newId } from "@/lib/ids";
import { refuse, type Result } from "@/lib/problems";
import type { webhookEndpointSchema } from "./schemas";
import { insertSecret, secretStatuses } from "./secrets";
import type { WebhookEndpointView } from "./views";

/**
 * A merchant's webhook endpoints: each with its URL (checked as the single callback URL was:
 * scheme for production, every resolved address, WEBHOOKS_ALLOW_PRIVATE_URLS), description,
 * enabled switch, chosen event types (null: all) and its own signing secret.
 */
export type EndpointFields = z.output<typeof webhookEndpointSchema>;
export type EndpointRow = typeof webhookEndpoints.$inferSelect;

/** At most this many endpoints per merchant: each event is sent to every one that takes it. */
export const MAX_ENDPOINTS = 20;
const ENDPOINTS_CAP = { table: webhookEndpoints, merchantColumn: webhookEndpoints.merchantId, max: MAX_ENDPOINTS };

const eventTypesOf = (input: EndpointFields): string[] | null => (input.allEvents ? null : [...new Set(input.eventTypes)]);

/** The merchant's endpoints, oldest first, with when their secrets were made: never a secret. */
export async function listEndpoints(db: Db, merchantId: string): Promise<WebhookEndpointView[]> {
  const [rows, secrets] = await Promise.all([
    db.select().from(webhookEndpoints).where(eq(webhookEndpoints.merchantId, merchantId)).orderBy(asc(webhookEndpoints.createdAt), asc(webhookEndpoints.id)),
    secretStatuses(db, merchantId),
  ]);
  return rows.map((row) => {
    const secret = secrets.get(row.id);
    return {
      id: row.id,
      url: row.url,
      description: row.description,
      enabled: row.enabled,
      eventTypes: row.eventTypes,
      createdAt: row.createdAt.toISOString(),
      secretCreatedAt: secret?.currentCreatedAt?.toISOString() ?? null,
      retiringSecrets: (secret?.retiring ?? []).map((at) => at.toISOString()),
    };
  });
}

/** One endpoint of the merchant, or undefined. */
export async function findEndpoint(db: Db, merchantId: string, endpointId: string): Promise<EndpointRow | undefined> {
  const [row] = await db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.merchantId, merchantId)))
    .limit(1);
  return row;
}

/** Adds an endpoint after the URL check, with its first signing secret: returned here, the only time it is shown. */
export async function createEndpoint(db: Db, merchantId: string, input: EndpointFields): Promise<Result<{ id: string; url: string; secret: string }>> {
  const checked = await checkWebhookUrl(input.url);
  if (!checked.ok) return checked;
  const url = checked.value.toString();
  const id = newId("whe");
  const inserted = await insertWithinCap(db, merchantId, ENDPOINTS_CAP, async (tx) => {
    await tx.insert(webhookEndpoints).values({ id, merchantId, url, description: input.description, enabled: input.enabled, eventTypes: eventTypesOf(input) });
    return insertSecret(tx, merchantId, id);
  });
  if (!inserted.ok) return refuse("too_many_endpoints", `You have ${MAX_ENDPOINTS} endpoints, the most one merchant may have: delete one first.`);
  return { ok: true, value: { id, url, secret: inserted.value } };
}

/** Changes an endpoint (URL checked again); its secret stays. Null when it is not the merchant's. */
export async function updateEndpoint(
  db: Db,
  merchantId: string,
  endpointId: string,
  input: EndpointFields,
): Promise<Result<{ id: string; url: string }> | null> {
  if (!(await findEndpoint(db, merchantId, endpointId))) return null;
  const checked = await checkWebhookUrl(input.url);
  if (!checked.ok) return checked;
  const url = checked.value.toString();
  const updated = await db
    .update(webhookEndpoints)
    .set({ url, description: input.description, enabled: input.enabled, eventTypes: eventTypesOf(input), updatedAt: sql`now()` })
    .where(and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.merchantId, merchantId)))
    .returning({ id: webhookEndpoints.id });
  return updated.length > 0 ? { ok: true, value: { id: endpointId, url } } : null;
}

/**
 * Deletes an endpoint with its secrets and pending deliveries (nothing more is sent to it); the
 * log keeps its past tries, with the URL they went to. False when it is not the merchant's.
 */
export async function deleteEndpoint(db: Db, merchantId: string, endpointId: string): Promise<boolean> {
  const deleted = await db
    .delete(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.merchantId, merchantId)))
    .returning({ id: webhookEndpoints.id });
  return deleted.length > 0;
}
