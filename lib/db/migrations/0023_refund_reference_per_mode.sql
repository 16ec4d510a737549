DROP INDEX "refunds_reference_unique";--> statement-breakpoint
CREATE UNIQUE INDEX "refunds_reference_unique" ON "refunds" USING btree ("merchant_id","test_mode","reference_id");