CREATE TABLE "overview_rollups" (
	"merchant_id" text NOT NULL,
	"test_mode" boolean NOT NULL,
	"grain" text NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"source" text NOT NULL,
	"direction" text NOT NULL,
	"connection_id" text NOT NULL,
	"status" text NOT NULL,
	"resolution" text NOT NULL,
	"currency" text NOT NULL,
	"count" bigint NOT NULL,
	"amount_minor" bigint NOT NULL,
	"recovered_count" bigint NOT NULL,
	"recovered_amount_minor" bigint NOT NULL,
	"latency" integer[] NOT NULL,
	CONSTRAINT "overview_rollups_merchant_id_test_mode_grain_hour_source_direction_connection_id_status_resolution_currency_pk" PRIMARY KEY("merchant_id","test_mode","grain","hour","source","direction","connection_id","status","resolution","currency")
);
--> statement-breakpoint
ALTER TABLE "connections" ADD COLUMN "health" text DEFAULT 'healthy' NOT NULL;--> statement-breakpoint
ALTER TABLE "connections" ADD COLUMN "health_window" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "connections" ADD COLUMN "health_changed_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "connections" ADD COLUMN "last_error_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "connections" ADD COLUMN "last_error_resolution" text;--> statement-breakpoint
ALTER TABLE "connections" ADD COLUMN "last_error_message" text;--> statement-breakpoint
ALTER TABLE "invoice_attempts" ADD COLUMN "latency_ms" integer;--> statement-breakpoint
ALTER TABLE "webhook_events" ADD COLUMN "connection" jsonb;--> statement-breakpoint
ALTER TABLE "overview_rollups" ADD CONSTRAINT "overview_rollups_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE cascade ON UPDATE no action;