ALTER TABLE "social_media_posts" ADD COLUMN "link" text;--> statement-breakpoint
ALTER TABLE "social_media_posts" ADD COLUMN "permalink_url" text;--> statement-breakpoint
ALTER TABLE "social_media_posts" ADD COLUMN "error_code" integer;--> statement-breakpoint
ALTER TABLE "social_media_posts" ADD COLUMN "error_subcode" integer;--> statement-breakpoint
ALTER TABLE "social_media_posts" ADD COLUMN "fbtrace_id" text;--> statement-breakpoint
ALTER TABLE "social_media_posts" ADD COLUMN "requested_by" text;--> statement-breakpoint
ALTER TABLE "social_media_posts" ADD COLUMN "scheduled_for" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "social_media_posts" ADD COLUMN "attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "social_media_posts" ADD COLUMN "attempt_started_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "social_media_posts" ADD COLUMN "next_attempt_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "social_media_posts" ADD COLUMN "job_id" text;--> statement-breakpoint
ALTER TABLE "social_media_posts" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "social_media_posts" ADD CONSTRAINT "social_media_posts_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "social_media_posts_one_pending_key" ON "social_media_posts" USING btree ("story_id","platform") WHERE "social_media_posts"."status" = 'pending';