ALTER TABLE "invoice_attempts" ADD COLUMN "three_ds" text;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "description" text;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "card_brand" text;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "card_country" text;