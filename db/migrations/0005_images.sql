ALTER TABLE "jobs" ADD COLUMN "counts" jsonb;--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "cancel_requested_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "stories" ADD COLUMN "image_error" text;--> statement-breakpoint
ALTER TABLE "stories" ADD COLUMN "image_checked_at" timestamp with time zone;