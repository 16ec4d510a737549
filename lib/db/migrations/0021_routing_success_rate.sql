CREATE TABLE "routing_stats" (
	"merchant_id" text NOT NULL,
	"service" text NOT NULL,
	"connection_id" text NOT NULL,
	"bucket" timestamp with time zone NOT NULL,
	"attempts" integer NOT NULL,
	"successes" integer NOT NULL,
	CONSTRAINT "routing_stats_pk" PRIMARY KEY("merchant_id","service","bucket","connection_id")
);
--> statement-breakpoint
ALTER TABLE "merchants" ADD COLUMN "success_window_hours" integer DEFAULT 24 NOT NULL;--> statement-breakpoint
ALTER TABLE "merchants" ADD COLUMN "success_min_sample" integer DEFAULT 20 NOT NULL;--> statement-breakpoint
ALTER TABLE "merchants" ADD COLUMN "success_exploration_percent" integer DEFAULT 5 NOT NULL;--> statement-breakpoint
ALTER TABLE "routing_stats" ADD CONSTRAINT "routing_stats_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "routing_stats" ADD CONSTRAINT "routing_stats_connection_id_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Backfill: the last 7 days (the longest window) of attempts, counted as the settle transaction counts them from now on
-- (lib/analytics/health.ts windowMark). An attempt that was unknown and settled since counts by its final status here.
INSERT INTO "routing_stats" ("merchant_id", "service", "connection_id", "bucket", "attempts", "successes")
SELECT i."merchant_id", i."service", a."connection_id",
  to_timestamp(floor(extract(epoch from a."started_at") / 300) * 300) AS "bucket",
  count(*)::int, (count(*) FILTER (WHERE a."status" = 'succeeded'))::int
FROM "invoice_attempts" a JOIN "invoices" i ON i."id" = a."invoice_id"
WHERE a."started_at" >= now() - interval '7 days'
  AND (a."status" IN ('succeeded', 'unknown')
    OR (a."status" IN ('declined', 'soft_failed') AND a."resolution" IN ('provider_unavailable', 'provider_auth_error', 'mode_mismatch', 'unable_to_reconcile', 'general_error')))
GROUP BY 1, 2, 3, 4;
