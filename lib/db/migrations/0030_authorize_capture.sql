ALTER TABLE "invoices" ADD COLUMN "authorized_amount_minor" bigint;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "capture_before" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "capture_amount_minor" bigint;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "authorization_request_key" text;--> statement-breakpoint
CREATE INDEX "invoices_capture_before_idx" ON "invoices" USING btree ("capture_before") WHERE status = 'authorized';