DROP INDEX "webhook_events_pending_idx";--> statement-breakpoint
ALTER TABLE "webhook_events" DROP COLUMN "delivery_state";--> statement-breakpoint
ALTER TABLE "webhook_events" DROP COLUMN "tries";--> statement-breakpoint
ALTER TABLE "webhook_events" DROP COLUMN "next_try_at";