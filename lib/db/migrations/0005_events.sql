CREATE TABLE "provider_callbacks" (
	"id" text PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"connection_id" text NOT NULL,
	"merchant_id" text,
	"invoice_id" text,
	"attempt_id" text,
	"notification_id" text,
	"outcome" text NOT NULL,
	"reason" text,
	"reported" jsonb,
	"headers" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"body" text DEFAULT '' NOT NULL,
	"received_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_deliveries" (
	"id" text PRIMARY KEY NOT NULL,
	"event_id" text NOT NULL,
	"trigger" text NOT NULL,
	"url" text NOT NULL,
	"status_code" integer,
	"duration_ms" integer NOT NULL,
	"response_excerpt" text,
	"error" text,
	"succeeded" boolean NOT NULL,
	"at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_events" (
	"id" text PRIMARY KEY NOT NULL,
	"merchant_id" text NOT NULL,
	"invoice_id" text,
	"type" text NOT NULL,
	"invoice" jsonb,
	"delivery_state" text DEFAULT 'pending' NOT NULL,
	"tries" integer DEFAULT 0 NOT NULL,
	"next_try_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_secrets" (
	"id" text PRIMARY KEY NOT NULL,
	"merchant_id" text NOT NULL,
	"sealed" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"retires_at" timestamp (3) with time zone
);
--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "expires_at" timestamp (3) with time zone;--> statement-breakpoint
UPDATE "invoices" SET "expires_at" = "created_at" + interval '30 minutes';--> statement-breakpoint
ALTER TABLE "invoices" ALTER COLUMN "expires_at" SET DEFAULT now() + interval '30 minutes';--> statement-breakpoint
ALTER TABLE "invoices" ALTER COLUMN "expires_at" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "merchants" ADD COLUMN "invoice_lifetime_seconds" integer DEFAULT 1800 NOT NULL;--> statement-breakpoint
ALTER TABLE "merchants" ADD COLUMN "webhook_url" text;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_event_id_webhook_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."webhook_events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_events" ADD CONSTRAINT "webhook_events_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_secrets" ADD CONSTRAINT "webhook_secrets_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "provider_callbacks_notification_unique" ON "provider_callbacks" USING btree ("connection_id","notification_id") WHERE "provider_callbacks"."outcome" <> 'rejected';--> statement-breakpoint
CREATE INDEX "provider_callbacks_invoice_idx" ON "provider_callbacks" USING btree ("invoice_id","received_at");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_event_idx" ON "webhook_deliveries" USING btree ("event_id","at");--> statement-breakpoint
CREATE INDEX "webhook_events_invoice_idx" ON "webhook_events" USING btree ("invoice_id","created_at");--> statement-breakpoint
CREATE INDEX "webhook_events_pending_idx" ON "webhook_events" USING btree ("delivery_state","next_try_at");--> statement-breakpoint
CREATE INDEX "webhook_secrets_merchant_idx" ON "webhook_secrets" USING btree ("merchant_id","created_at");