CREATE TABLE "disputes" (
	"id" text PRIMARY KEY NOT NULL,
	"merchant_id" text NOT NULL,
	"invoice_id" text NOT NULL,
	"connection_id" text NOT NULL,
	"test_mode" boolean NOT NULL,
	"provider_reference" text NOT NULL,
	"amount" text NOT NULL,
	"amount_minor" bigint NOT NULL,
	"currency" text NOT NULL,
	"reason" text NOT NULL,
	"provider_reason" text DEFAULT '' NOT NULL,
	"status" text NOT NULL,
	"evidence_due_by" timestamp (3) with time zone NOT NULL,
	"evidence" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"evidence_updated_at" timestamp (3) with time zone,
	"submitted_at" timestamp (3) with time zone,
	"submitted_by" text,
	"accepted_at" timestamp (3) with time zone,
	"accepted_by" text,
	"reminder_sent_at" timestamp (3) with time zone,
	"closed_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "merchant_files" (
	"id" text PRIMARY KEY NOT NULL,
	"merchant_id" text NOT NULL,
	"test_mode" boolean NOT NULL,
	"purpose" text NOT NULL,
	"filename" text NOT NULL,
	"content_type" text NOT NULL,
	"size_bytes" integer NOT NULL,
	"sha256" text NOT NULL,
	"data" "bytea" NOT NULL,
	"created_by" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "disputed_amount_minor" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "disputes" ADD CONSTRAINT "disputes_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "disputes" ADD CONSTRAINT "disputes_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "disputes" ADD CONSTRAINT "disputes_connection_id_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."connections"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "merchant_files" ADD CONSTRAINT "merchant_files_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "disputes_provider_unique" ON "disputes" USING btree ("connection_id","provider_reference");--> statement-breakpoint
CREATE INDEX "disputes_list_idx" ON "disputes" USING btree ("merchant_id","test_mode","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "disputes_invoice_idx" ON "disputes" USING btree ("invoice_id","created_at");--> statement-breakpoint
CREATE INDEX "disputes_open_idx" ON "disputes" USING btree ("merchant_id","test_mode","evidence_due_by") WHERE status in ('needs_response', 'under_review');--> statement-breakpoint
CREATE INDEX "disputes_open_due_idx" ON "disputes" USING btree ("evidence_due_by") WHERE status in ('needs_response', 'under_review');--> statement-breakpoint
CREATE INDEX "merchant_files_merchant_idx" ON "merchant_files" USING btree ("merchant_id","created_at");