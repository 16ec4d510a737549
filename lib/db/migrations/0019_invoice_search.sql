ALTER TABLE "invoices" ADD COLUMN "card_last_four" text;--> statement-breakpoint
CREATE INDEX "invoice_attempts_provider_reference_idx" ON "invoice_attempts" USING btree ("provider_reference") WHERE "invoice_attempts"."provider_reference" is not null;--> statement-breakpoint
CREATE INDEX "invoices_search_email_idx" ON "invoices" USING btree ("merchant_id","test_mode",lower(btrim("resolved_customer" ->> 'email')),"created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE ("invoices"."resolved_customer" ->> 'email') is not null;--> statement-breakpoint
CREATE INDEX "invoices_search_name_idx" ON "invoices" USING btree ("merchant_id","test_mode",lower(btrim("resolved_customer" ->> 'name')) text_pattern_ops) WHERE ("invoices"."resolved_customer" ->> 'name') is not null;--> statement-breakpoint
CREATE INDEX "invoices_search_last_four_idx" ON "invoices" USING btree ("merchant_id","test_mode","card_last_four","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "invoices"."card_last_four" is not null;--> statement-breakpoint
-- Hand-written backfill (keep at the end when regenerating): payouts already stored carry their
-- masked destination card, whose last four digits search reads from card_last_four. Payments made
-- before this migration stored no card and stay unfindable by last four.
UPDATE "invoices" SET "card_last_four" = right("card_number_masked", 4) WHERE "card_number_masked" ~ '[0-9]{4}$';
