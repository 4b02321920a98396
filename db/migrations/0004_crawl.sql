-- Nothing wrote url_queue before this migration; rows without the identity columns cannot be kept.
DELETE FROM "url_queue";--> statement-breakpoint
CREATE TABLE "crawl_hosts" (
	"origin" text PRIMARY KEY NOT NULL,
	"lease_until" timestamp with time zone,
	"next_fetch_at" timestamp with time zone,
	"paused_until" timestamp with time zone,
	"robots_status" integer,
	"robots_body" text,
	"robots_fetched_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX "url_queue_status_idx";--> statement-breakpoint
DROP INDEX "url_queue_source_idx";--> statement-breakpoint
ALTER TABLE "sources" ADD COLUMN "last_discovery" jsonb;--> statement-breakpoint
ALTER TABLE "url_queue" ADD COLUMN "normalized_url" text NOT NULL;--> statement-breakpoint
ALTER TABLE "url_queue" ADD COLUMN "url_hash" text NOT NULL;--> statement-breakpoint
ALTER TABLE "url_queue" ADD COLUMN "attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "url_queue" ADD COLUMN "last_attempt_at" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "url_queue_url_hash_key" ON "url_queue" USING btree ("url_hash");--> statement-breakpoint
CREATE INDEX "url_queue_lastmod_idx" ON "url_queue" USING btree ("lastmod" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "url_queue_url_trgm_idx" ON "url_queue" USING gin ("url" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "url_queue_status_idx" ON "url_queue" USING btree ("status","lastmod" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "url_queue_source_idx" ON "url_queue" USING btree ("source_id","status","lastmod" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
ALTER TABLE "url_queue" ADD CONSTRAINT "url_queue_attempts_non_negative" CHECK ("url_queue"."attempts" >= 0);