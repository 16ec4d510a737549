CREATE TABLE "invoice_attempts" (
	"id" text PRIMARY KEY NOT NULL,
	"invoice_id" text NOT NULL,
	"seq" integer NOT NULL,
	"connection_id" text NOT NULL,
	"reason" text NOT NULL,
	"status" text NOT NULL,
	"resolution" text,
	"provider_reference" text,
	"idempotency_key" text NOT NULL,
	"processed_amount_minor" bigint,
	"fee_minor" bigint,
	"redirect_url" text,
	"message" text,
	"exchanges" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"started_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "payout_parts" (
	"id" text PRIMARY KEY NOT NULL,
	"invoice_id" text NOT NULL,
	"attempt_id" text NOT NULL,
	"seq" integer NOT NULL,
	"amount_minor" bigint NOT NULL,
	"status" text NOT NULL,
	"provider_reference" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox_records" (
	"id" text PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"connection_id" text,
	"operation" text NOT NULL,
	"reference" text NOT NULL,
	"idempotency_key" text,
	"amount_minor" bigint,
	"currency" text,
	"status" text NOT NULL,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"request" jsonb,
	"response" jsonb,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "processed_amount_minor" bigint;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "attempts_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "return_url" text;--> statement-breakpoint
ALTER TABLE "invoice_attempts" ADD CONSTRAINT "invoice_attempts_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_attempts" ADD CONSTRAINT "invoice_attempts_connection_id_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."connections"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_parts" ADD CONSTRAINT "payout_parts_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_parts" ADD CONSTRAINT "payout_parts_attempt_id_invoice_attempts_id_fk" FOREIGN KEY ("attempt_id") REFERENCES "public"."invoice_attempts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "invoice_attempts_seq_unique" ON "invoice_attempts" USING btree ("invoice_id","seq");--> statement-breakpoint
CREATE UNIQUE INDEX "invoice_attempts_idempotency_unique" ON "invoice_attempts" USING btree ("idempotency_key");--> statement-breakpoint
CREATE UNIQUE INDEX "payout_parts_seq_unique" ON "payout_parts" USING btree ("attempt_id","seq");--> statement-breakpoint
CREATE UNIQUE INDEX "sandbox_records_reference_unique" ON "sandbox_records" USING btree ("provider","reference");--> statement-breakpoint
CREATE UNIQUE INDEX "sandbox_records_idempotency_unique" ON "sandbox_records" USING btree ("provider","idempotency_key");--> statement-breakpoint
CREATE INDEX "sandbox_records_connection_idx" ON "sandbox_records" USING btree ("connection_id","created_at");