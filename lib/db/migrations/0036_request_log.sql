CREATE TABLE "request_log" (
	"id" text PRIMARY KEY NOT NULL,
	"merchant_id" text NOT NULL,
	"test_mode" boolean NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"method" text NOT NULL,
	"path" text NOT NULL,
	"status" integer NOT NULL,
	"duration_ms" integer NOT NULL,
	"api_key_id" text NOT NULL,
	"key_prefix" text NOT NULL,
	"key_last_four" text NOT NULL,
	"request_id" text NOT NULL,
	"idempotency_key" text,
	"invoice_id" text,
	"refund_id" text,
	"request_body" text DEFAULT '' NOT NULL,
	"request_truncated" boolean DEFAULT false NOT NULL,
	"response_body" text DEFAULT '' NOT NULL,
	"response_truncated" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
ALTER TABLE "request_log" ADD CONSTRAINT "request_log_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "request_log_list_idx" ON "request_log" USING btree ("merchant_id","test_mode","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "request_log_invoice_idx" ON "request_log" USING btree ("merchant_id","invoice_id","created_at" DESC NULLS FIRST) WHERE invoice_id is not null;--> statement-breakpoint
CREATE INDEX "request_log_created_idx" ON "request_log" USING btree ("created_at");