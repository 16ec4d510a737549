CREATE TABLE "alert_rules" (
	"merchant_id" text NOT NULL,
	"rule" text NOT NULL,
	"enabled" boolean NOT NULL,
	"threshold" integer,
	"window_minutes" integer,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "alert_rules_pk" PRIMARY KEY("merchant_id","rule")
);
--> statement-breakpoint
CREATE TABLE "alerts" (
	"id" text PRIMARY KEY NOT NULL,
	"merchant_id" text NOT NULL,
	"rule" text NOT NULL,
	"subject" text NOT NULL,
	"mode" text,
	"title" text NOT NULL,
	"detail" text NOT NULL,
	"link" text,
	"opened_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"resolved_at" timestamp (3) with time zone,
	"resolved_detail" text
);
--> statement-breakpoint
ALTER TABLE "webhook_events" ADD COLUMN "alert" jsonb;--> statement-breakpoint
ALTER TABLE "alert_rules" ADD CONSTRAINT "alert_rules_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "alerts_open_unique" ON "alerts" USING btree ("merchant_id","rule","subject") WHERE "alerts"."resolved_at" is null;--> statement-breakpoint
CREATE INDEX "alerts_merchant_idx" ON "alerts" USING btree ("merchant_id","opened_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "webhook_deliveries_endpoint_idx" ON "webhook_deliveries" USING btree ("endpoint_id","at" DESC NULLS LAST);