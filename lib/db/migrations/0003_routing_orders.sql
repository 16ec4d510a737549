CREATE TABLE "routing_orders" (
	"merchant_id" text NOT NULL,
	"service" text NOT NULL,
	"mode" text NOT NULL,
	"connection_ids" text[] NOT NULL,
	"updated_by" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "routing_orders_pk" PRIMARY KEY("merchant_id","service","mode")
);
--> statement-breakpoint
-- A service default was "first for this service and mode": it becomes a one-entry routing order.
INSERT INTO "routing_orders" ("merchant_id", "service", "mode", "connection_ids", "updated_at")
SELECT "merchant_id", "service", "mode", ARRAY["connection_id"], "updated_at" FROM "connection_service_defaults";--> statement-breakpoint
DROP TABLE "connection_service_defaults" CASCADE;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "routing_reason" text;--> statement-breakpoint
-- No pins existed before: every routed invoice went where the default-else-oldest rule sent it.
UPDATE "invoices" SET "routing_reason" = 'routing_order' WHERE "connection_id" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "merchants" ADD COLUMN "allow_live_pins" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "routing_orders" ADD CONSTRAINT "routing_orders_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE cascade ON UPDATE no action;