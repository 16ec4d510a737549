CREATE TABLE "webhook_endpoints" (
	"id" text PRIMARY KEY NOT NULL,
	"merchant_id" text NOT NULL,
	"url" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"event_types" jsonb,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_event_targets" (
	"event_id" text NOT NULL,
	"endpoint_id" text NOT NULL,
	"merchant_id" text NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"tries" integer DEFAULT 0 NOT NULL,
	"next_try_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "webhook_event_targets_event_id_endpoint_id_pk" PRIMARY KEY("event_id","endpoint_id")
);
--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "event_sequence" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD COLUMN "endpoint_id" text;--> statement-breakpoint
ALTER TABLE "webhook_events" ADD COLUMN "sequence" integer;--> statement-breakpoint
ALTER TABLE "webhook_secrets" ADD COLUMN "endpoint_id" text;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_event_targets" ADD CONSTRAINT "webhook_event_targets_event_id_webhook_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."webhook_events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_event_targets" ADD CONSTRAINT "webhook_event_targets_endpoint_id_webhook_endpoints_id_fk" FOREIGN KEY ("endpoint_id") REFERENCES "public"."webhook_endpoints"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_event_targets" ADD CONSTRAINT "webhook_event_targets_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "webhook_endpoints_merchant_idx" ON "webhook_endpoints" USING btree ("merchant_id","created_at");--> statement-breakpoint
CREATE INDEX "webhook_event_targets_due_idx" ON "webhook_event_targets" USING btree ("state","next_try_at");--> statement-breakpoint
CREATE INDEX "webhook_event_targets_endpoint_idx" ON "webhook_event_targets" USING btree ("endpoint_id","event_id");--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_endpoint_id_webhook_endpoints_id_fk" FOREIGN KEY ("endpoint_id") REFERENCES "public"."webhook_endpoints"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_secrets" ADD CONSTRAINT "webhook_secrets_endpoint_id_webhook_endpoints_id_fk" FOREIGN KEY ("endpoint_id") REFERENCES "public"."webhook_endpoints"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "webhook_events_merchant_idx" ON "webhook_events" USING btree ("merchant_id","created_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_events_invoice_sequence_unique" ON "webhook_events" USING btree ("invoice_id","sequence") WHERE "webhook_events"."sequence" is not null;--> statement-breakpoint
CREATE INDEX "webhook_secrets_endpoint_idx" ON "webhook_secrets" USING btree ("endpoint_id","created_at");--> statement-breakpoint
-- ===== Hand-written backfill (issue 25 item 7; carry over to the end of the regenerated migration) =====
-- 1. Each merchant's single callback URL becomes one endpoint, enabled, for every event type.
INSERT INTO "webhook_endpoints" ("id", "merchant_id", "url", "description", "enabled", "event_types")
SELECT 'whe_' || replace(gen_random_uuid()::text, '-', ''), "id", "webhook_url", 'Callback URL (from Settings)', true, NULL
FROM "merchants" WHERE "webhook_url" IS NOT NULL;--> statement-breakpoint
-- 2. The merchant's signing secrets (current and retiring) become that endpoint's; a merchant without a URL has no endpoint to sign for.
UPDATE "webhook_secrets" s SET "endpoint_id" = e."id" FROM "webhook_endpoints" e WHERE e."merchant_id" = s."merchant_id" AND s."endpoint_id" IS NULL;--> statement-breakpoint
DELETE FROM "webhook_secrets" WHERE "endpoint_id" IS NULL;--> statement-breakpoint
-- 3. Events that were waiting, delivered or failed keep that state and schedule, now per endpoint; their tries name the endpoint.
INSERT INTO "webhook_event_targets" ("event_id", "endpoint_id", "merchant_id", "state", "tries", "next_try_at", "created_at", "updated_at")
SELECT ev."id", e."id", ev."merchant_id", ev."delivery_state", ev."tries", ev."next_try_at", ev."created_at", ev."updated_at"
FROM "webhook_events" ev JOIN "webhook_endpoints" e ON e."merchant_id" = ev."merchant_id"
WHERE ev."delivery_state" IN ('pending', 'delivered', 'failed');--> statement-breakpoint
UPDATE "webhook_deliveries" d SET "endpoint_id" = e."id" FROM "webhook_events" ev JOIN "webhook_endpoints" e ON e."merchant_id" = ev."merchant_id" WHERE d."event_id" = ev."id";--> statement-breakpoint
-- 4. Sequence numbers for the events written so far, in the order they were made, and each invoice's counter after them.
WITH numbered AS (
  SELECT "id", row_number() OVER (PARTITION BY "invoice_id" ORDER BY "created_at", "id") AS n FROM "webhook_events" WHERE "invoice_id" IS NOT NULL
)
UPDATE "webhook_events" ev SET "sequence" = numbered.n FROM numbered WHERE ev."id" = numbered."id";--> statement-breakpoint
UPDATE "invoices" i SET "event_sequence" = c.n
FROM (SELECT "invoice_id", max("sequence") AS n FROM "webhook_events" WHERE "invoice_id" IS NOT NULL GROUP BY "invoice_id") c
WHERE c."invoice_id" = i."id";
