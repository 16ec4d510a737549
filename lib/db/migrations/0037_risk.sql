CREATE TABLE "risk_attempts" (
	"id" text PRIMARY KEY NOT NULL,
	"merchant_id" text NOT NULL,
	"test_mode" boolean NOT NULL,
	"invoice_id" text NOT NULL,
	"card_fingerprint" text,
	"card_label" text,
	"card_bin" text,
	"address_hash" text,
	"email_hash" text,
	"outcome" text NOT NULL,
	"rule" text,
	"amount" text NOT NULL,
	"currency" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "risk_blocklist" (
	"id" text PRIMARY KEY NOT NULL,
	"merchant_id" text NOT NULL,
	"test_mode" boolean NOT NULL,
	"kind" text NOT NULL,
	"value" text NOT NULL,
	"label" text NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "risk_settings" (
	"merchant_id" text PRIMARY KEY NOT NULL,
	"settings" jsonb NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "webhook_events" ADD COLUMN "risk" jsonb;--> statement-breakpoint
ALTER TABLE "risk_attempts" ADD CONSTRAINT "risk_attempts_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "risk_attempts" ADD CONSTRAINT "risk_attempts_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "risk_blocklist" ADD CONSTRAINT "risk_blocklist_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "risk_settings" ADD CONSTRAINT "risk_settings_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "risk_attempts_address_idx" ON "risk_attempts" USING btree ("merchant_id","test_mode","address_hash","created_at");--> statement-breakpoint
CREATE INDEX "risk_attempts_card_idx" ON "risk_attempts" USING btree ("merchant_id","test_mode","card_fingerprint","created_at");--> statement-breakpoint
CREATE INDEX "risk_attempts_email_idx" ON "risk_attempts" USING btree ("merchant_id","test_mode","email_hash","created_at");--> statement-breakpoint
CREATE INDEX "risk_attempts_invoice_idx" ON "risk_attempts" USING btree ("invoice_id","created_at");--> statement-breakpoint
CREATE INDEX "risk_attempts_blocked_idx" ON "risk_attempts" USING btree ("merchant_id","test_mode","created_at") WHERE "risk_attempts"."outcome" = 'blocked';--> statement-breakpoint
CREATE UNIQUE INDEX "risk_blocklist_unique" ON "risk_blocklist" USING btree ("merchant_id","test_mode","kind","value");--> statement-breakpoint
CREATE INDEX "risk_blocklist_list_idx" ON "risk_blocklist" USING btree ("merchant_id","test_mode","created_at");