CREATE TABLE "routing_versions" (
	"merchant_id" text NOT NULL,
	"service" text NOT NULL,
	"mode" text NOT NULL,
	"version" integer NOT NULL,
	"connection_ids" text[] NOT NULL,
	"rules" jsonb NOT NULL,
	"saved_by" text,
	"saved_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "routing_versions_pk" PRIMARY KEY("merchant_id","service","mode","version")
);
--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "routing_detail" jsonb;--> statement-breakpoint
ALTER TABLE "routing_orders" ADD COLUMN "rules" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "routing_orders" ADD COLUMN "version" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "routing_versions" ADD CONSTRAINT "routing_versions_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Hand-written backfill (issue 27): each saved routing order is the default rule of a rule list
-- with no rules before it, so routing is unchanged for every merchant; it becomes version 1 of
-- that list's history, saved by whoever saved the order last.
UPDATE "routing_orders" SET "version" = 1;--> statement-breakpoint
INSERT INTO "routing_versions" ("merchant_id", "service", "mode", "version", "connection_ids", "rules", "saved_by", "saved_at")
  SELECT "merchant_id", "service", "mode", 1, "connection_ids", '[]'::jsonb, "updated_by", "updated_at" FROM "routing_orders";
