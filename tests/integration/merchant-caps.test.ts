import { count, eq } from "drizzle-orm";
import { beforeEach, describe, expect, it, vi } from "vitest";

const session = vi.hoisted(() => ({ userId: undefined as string | undefined }));
vi.mock("@/lib/auth", () => ({ auth: async () => (session.userId ? { user: { id: session.userId } } : null) }));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));

import { createWebhookEndpointAction } from "@/lib/actions/webhooks";
import { webhookEndpoints, webhookSecrets } from "@/lib/db/schema";
import { logger } from "@/lib/logger";
import { MAX_ENDPOINTS } from "@/lib/webhooks/endpoints";
import { setUpTestDb } from "./helpers/db";
import { teamMerchant } from "./helpers/invoice-fixtures";

/**
 * Per-merchant caps hold when the same create arrives many times at once: the count and the
 * insert share one locked transaction (lib/db/caps.ts), so simultaneous requests cannot all see
 * room. Runs on PGlite and, with DATABASE_URL, on PostgreSQL, where the requests really overlap.
 */
const t = setUpTestDb();
const SIMULTANEOUS = 100;

beforeEach(() => {
  for (const level of ["info", "warn"] as const) vi.spyOn(logger, level).mockImplementation(() => {});
});

describe("the webhook endpoint cap", () => {
  it(`keeps ${MAX_ENDPOINTS} endpoints when ${SIMULTANEOUS} owners' Add endpoint arrive at once, and refuses the rest with the cap's message`, async () => {
    const m = await teamMerchant(t.db);
    session.userId = m.ownerId;
    const answers = await Promise.all(
      Array.from({ length: SIMULTANEOUS }, (_, i) =>
        createWebhookEndpointAction({ url: `http://127.0.0.1:9/hooks/${i}`, description: "", enabled: true, allEvents: true, eventTypes: [] }),
      ),
    );

    expect(answers.filter((answer) => answer.ok)).toHaveLength(MAX_ENDPOINTS);
    const refused = answers.filter((answer) => !answer.ok);
    expect(refused).toHaveLength(SIMULTANEOUS - MAX_ENDPOINTS);
    for (const answer of refused)
      expect(answer).toMatchObject({ ok: false, message: `You have ${MAX_ENDPOINTS} endpoints, the most one merchant may have: delete one first.` });
    const [stored] = await t.db.select({ n: count() }).from(webhookEndpoints).where(eq(webhookEndpoints.merchantId, m.merchantId));
    expect(stored?.n).toBe(MAX_ENDPOINTS);
    const [secrets] = await t.db.select({ n: count() }).from(webhookSecrets).where(eq(webhookSecrets.merchantId, m.merchantId));
    expect(secrets?.n).toBe(MAX_ENDPOINTS);
  });
});
