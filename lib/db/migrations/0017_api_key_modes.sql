ALTER TABLE "api_keys" ADD COLUMN "prefix" text DEFAULT 'pok_' NOT NULL;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "mode" text DEFAULT 'test' NOT NULL;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "scope" text DEFAULT 'full' NOT NULL;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "rolled_to" text;--> statement-breakpoint
-- Backfill (carried by the column defaults above, stated here so a regenerated migration keeps it):
-- keys made before modes existed become TEST keys with full scope and their old visible prefix
-- 'pok_'. They keep authenticating, but create and read test invoices only: a key whose mode nobody
-- chose must not keep moving live money. Owners make a live key (pok_live_…) on the API keys page.
UPDATE "api_keys" SET "mode" = 'test', "scope" = 'full', "prefix" = 'pok_' WHERE "prefix" = 'pok_';
