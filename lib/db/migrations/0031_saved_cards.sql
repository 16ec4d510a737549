CREATE TABLE "payment_methods" (
	"id" text PRIMARY KEY NOT NULL,
	"merchant_id" text NOT NULL,
	"test_mode" boolean NOT NULL,
	"customer_reference" text NOT NULL,
	"brand" text,
	"last_four" text NOT NULL,
	"expiry_month" integer NOT NULL,
	"expiry_year" integer NOT NULL,
	"provider" text NOT NULL,
	"connection_id" text NOT NULL,
	"token_sealed" text NOT NULL,
	"source_invoice_id" text NOT NULL,
	"detached_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "payment_method_id" text;--> statement-breakpoint
ALTER TABLE "webhook_events" ADD COLUMN "payment_method" jsonb;--> statement-breakpoint
ALTER TABLE "payment_methods" ADD CONSTRAINT "payment_methods_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_methods" ADD CONSTRAINT "payment_methods_connection_id_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."connections"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_methods" ADD CONSTRAINT "payment_methods_source_invoice_id_invoices_id_fk" FOREIGN KEY ("source_invoice_id") REFERENCES "public"."invoices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "payment_methods_source_invoice_unique" ON "payment_methods" USING btree ("source_invoice_id");--> statement-breakpoint
CREATE INDEX "payment_methods_list_idx" ON "payment_methods" USING btree ("merchant_id","test_mode","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "payment_methods_customer_idx" ON "payment_methods" USING btree ("merchant_id","test_mode","customer_reference","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "payment_methods_connection_idx" ON "payment_methods" USING btree ("connection_id");