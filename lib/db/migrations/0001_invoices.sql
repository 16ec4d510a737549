CREATE TABLE "connection_service_defaults" (
	"merchant_id" text NOT NULL,
	"service" text NOT NULL,
	"mode" text NOT NULL,
	"connection_id" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "connection_service_defaults_pk" PRIMARY KEY("merchant_id","service","mode")
);
--> statement-breakpoint
CREATE TABLE "invoice_status_history" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "invoice_status_history_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"invoice_id" text NOT NULL,
	"from_status" text,
	"to_status" text NOT NULL,
	"resolution" text,
	"reason" text NOT NULL,
	"request_id" text,
	"at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "invoices" (
	"id" text PRIMARY KEY NOT NULL,
	"merchant_id" text NOT NULL,
	"direction" text NOT NULL,
	"reference_id" text NOT NULL,
	"request_hash" text NOT NULL,
	"connection_id" text,
	"status" text NOT NULL,
	"resolution" text,
	"service" text NOT NULL,
	"currency" text NOT NULL,
	"amount" text NOT NULL,
	"amount_is_number" boolean NOT NULL,
	"amount_minor" bigint NOT NULL,
	"test_mode" boolean NOT NULL,
	"flow" text,
	"options" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"customer" jsonb,
	"resolved_customer" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"gateway_options" jsonb,
	"service_fields" jsonb,
	"card_number_masked" text,
	"request_id" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "connection_service_defaults" ADD CONSTRAINT "connection_service_defaults_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "connection_service_defaults" ADD CONSTRAINT "connection_service_defaults_connection_id_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_status_history" ADD CONSTRAINT "invoice_status_history_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_connection_id_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."connections"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "invoice_status_history_invoice_idx" ON "invoice_status_history" USING btree ("invoice_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_reference_unique" ON "invoices" USING btree ("merchant_id","direction","reference_id");--> statement-breakpoint
CREATE INDEX "invoices_list_idx" ON "invoices" USING btree ("merchant_id","direction","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);