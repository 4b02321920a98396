ALTER TABLE "feed_processing_log" ADD COLUMN "items_duplicate" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "feed_processing_log" ADD COLUMN "items_rejected" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "feed_processing_log" ADD COLUMN "items_filtered" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "feed_processing_log" ADD COLUMN "items_failed" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "feed_processing_log" ADD COLUMN "not_modified" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "sources" ADD COLUMN "last_success_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sources" ADD COLUMN "last_http_status" integer;--> statement-breakpoint
ALTER TABLE "sources" ADD COLUMN "lease_until" timestamp with time zone;