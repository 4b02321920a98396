CREATE TYPE "public"."candidate_outcome" AS ENUM('inserted', 'duplicate', 'previously_rejected', 'filtered_out', 'failed');--> statement-breakpoint
CREATE TYPE "public"."image_processing_status" AS ENUM('pending', 'processing', 'completed', 'skipped', 'failed');--> statement-breakpoint
CREATE TYPE "public"."job_status" AS ENUM('queued', 'running', 'succeeded', 'failed', 'cancelled');--> statement-breakpoint
CREATE TYPE "public"."social_platform" AS ENUM('facebook');--> statement-breakpoint
CREATE TYPE "public"."social_post_status" AS ENUM('pending', 'posted', 'failed');--> statement-breakpoint
CREATE TYPE "public"."source_status" AS ENUM('active', 'inactive', 'error');--> statement-breakpoint
CREATE TYPE "public"."source_type" AS ENUM('rss', 'web_scraping', 'manual');--> statement-breakpoint
CREATE TYPE "public"."story_status" AS ENUM('published', 'pending', 'rejected');--> statement-breakpoint
CREATE TYPE "public"."url_queue_status" AS ENUM('queued', 'scraped', 'failed');--> statement-breakpoint
CREATE TABLE "accounts" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"provider_id" text NOT NULL,
	"user_id" text NOT NULL,
	"access_token" text,
	"refresh_token" text,
	"id_token" text,
	"access_token_expires_at" timestamp with time zone,
	"refresh_token_expires_at" timestamp with time zone,
	"scope" text,
	"password" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "audit_log" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "audit_log_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"actor_user_id" text,
	"action" text NOT NULL,
	"entity_type" text NOT NULL,
	"entity_id" text NOT NULL,
	"details" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "categories" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "categories_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"slug" text NOT NULL,
	"display_order" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "categories_name_not_blank" CHECK (btrim("categories"."name") <> ''),
	CONSTRAINT "categories_slug_not_blank" CHECK (btrim("categories"."slug") <> '')
);
--> statement-breakpoint
CREATE TABLE "feed_processing_log" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "feed_processing_log_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"source_id" integer NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	"http_status" integer,
	"items_found" integer DEFAULT 0 NOT NULL,
	"items_inserted" integer DEFAULT 0 NOT NULL,
	"duration_ms" integer,
	"error" text
);
--> statement-breakpoint
CREATE TABLE "jobs" (
	"id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"status" "job_status" DEFAULT 'queued' NOT NULL,
	"progress" integer DEFAULT 0 NOT NULL,
	"total" integer,
	"message" text,
	"input" jsonb,
	"result" jsonb,
	"error" text,
	"requested_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "rejected_stories" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "rejected_stories_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"source_id" integer,
	"title" text NOT NULL,
	"original_url" text,
	"normalized_url" text NOT NULL,
	"url_hash" text NOT NULL,
	"content_hash" text,
	"rejection_reason" text DEFAULT 'manual_rejection' NOT NULL,
	"rejection_details" jsonb,
	"rejected_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "scraped_candidates" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "scraped_candidates_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"source_id" integer,
	"url" text NOT NULL,
	"normalized_url" text,
	"url_hash" text,
	"title" text,
	"outcome" "candidate_outcome" NOT NULL,
	"reason" text,
	"story_id" integer,
	"seen_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"token" text NOT NULL,
	"user_id" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"ip_address" text,
	"user_agent" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "social_media_posts" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "social_media_posts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"story_id" integer NOT NULL,
	"platform" "social_platform" DEFAULT 'facebook' NOT NULL,
	"status" "social_post_status" DEFAULT 'pending' NOT NULL,
	"message" text,
	"posted_at" timestamp with time zone,
	"post_id" text,
	"error_message" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sources" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "sources_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"website_url" text,
	"rss_feed_url" text,
	"source_type" "source_type" DEFAULT 'rss' NOT NULL,
	"scraping_config" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"status" "source_status" DEFAULT 'active' NOT NULL,
	"include_keywords" text[] DEFAULT '{}'::text[] NOT NULL,
	"exclude_keywords" text[] DEFAULT '{}'::text[] NOT NULL,
	"notes" text,
	"poll_interval_minutes" integer DEFAULT 30 NOT NULL,
	"etag" text,
	"last_modified" text,
	"last_fetched_at" timestamp with time zone,
	"next_check_at" timestamp with time zone,
	"consecutive_errors" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sources_name_not_blank" CHECK (btrim("sources"."name") <> ''),
	CONSTRAINT "sources_rss_has_feed" CHECK ("sources"."source_type" <> 'rss' OR "sources"."rss_feed_url" IS NOT NULL),
	CONSTRAINT "sources_consecutive_errors_non_negative" CHECK ("sources"."consecutive_errors" >= 0)
);
--> statement-breakpoint
CREATE TABLE "stories" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "stories_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"title" text NOT NULL,
	"summary" text,
	"content" text,
	"image_url" text,
	"original_url" text,
	"source_url" text,
	"normalized_url" text NOT NULL,
	"url_hash" text NOT NULL,
	"slug" text NOT NULL,
	"publish_date" timestamp with time zone,
	"is_featured" boolean DEFAULT false NOT NULL,
	"status" "story_status" DEFAULT 'pending' NOT NULL,
	"category_id" integer,
	"source_id" integer,
	"image_enhanced" boolean DEFAULT false NOT NULL,
	"image_processing_status" "image_processing_status",
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "stories_title_not_blank" CHECK (btrim("stories"."title") <> ''),
	CONSTRAINT "stories_published_has_date" CHECK ("stories"."status" <> 'published' OR "stories"."publish_date" IS NOT NULL)
);
--> statement-breakpoint
CREATE TABLE "url_queue" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "url_queue_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"url" text NOT NULL,
	"lastmod" timestamp with time zone,
	"source_id" integer,
	"status" "url_queue_status" DEFAULT 'queued' NOT NULL,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"email_verified" boolean DEFAULT false NOT NULL,
	"image" text,
	"is_admin" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "verifications" (
	"id" text PRIMARY KEY NOT NULL,
	"identifier" text NOT NULL,
	"value" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_actor_user_id_users_id_fk" FOREIGN KEY ("actor_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "feed_processing_log" ADD CONSTRAINT "feed_processing_log_source_id_sources_id_fk" FOREIGN KEY ("source_id") REFERENCES "public"."sources"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rejected_stories" ADD CONSTRAINT "rejected_stories_source_id_sources_id_fk" FOREIGN KEY ("source_id") REFERENCES "public"."sources"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scraped_candidates" ADD CONSTRAINT "scraped_candidates_source_id_sources_id_fk" FOREIGN KEY ("source_id") REFERENCES "public"."sources"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scraped_candidates" ADD CONSTRAINT "scraped_candidates_story_id_stories_id_fk" FOREIGN KEY ("story_id") REFERENCES "public"."stories"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "social_media_posts" ADD CONSTRAINT "social_media_posts_story_id_stories_id_fk" FOREIGN KEY ("story_id") REFERENCES "public"."stories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stories" ADD CONSTRAINT "stories_category_id_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."categories"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stories" ADD CONSTRAINT "stories_source_id_sources_id_fk" FOREIGN KEY ("source_id") REFERENCES "public"."sources"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "url_queue" ADD CONSTRAINT "url_queue_source_id_sources_id_fk" FOREIGN KEY ("source_id") REFERENCES "public"."sources"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "accounts_user_idx" ON "accounts" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "accounts_provider_account_key" ON "accounts" USING btree ("provider_id","account_id");--> statement-breakpoint
CREATE INDEX "audit_log_entity_idx" ON "audit_log" USING btree ("entity_type","entity_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "audit_log_actor_idx" ON "audit_log" USING btree ("actor_user_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE UNIQUE INDEX "categories_slug_key" ON "categories" USING btree ("slug");--> statement-breakpoint
CREATE INDEX "categories_display_order_idx" ON "categories" USING btree ("display_order");--> statement-breakpoint
CREATE INDEX "feed_processing_log_source_idx" ON "feed_processing_log" USING btree ("source_id","started_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "jobs_kind_created_idx" ON "jobs" USING btree ("kind","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "jobs_status_idx" ON "jobs" USING btree ("status");--> statement-breakpoint
CREATE UNIQUE INDEX "rejected_stories_normalized_url_key" ON "rejected_stories" USING btree ("normalized_url");--> statement-breakpoint
CREATE INDEX "rejected_stories_url_hash_idx" ON "rejected_stories" USING btree ("url_hash");--> statement-breakpoint
CREATE INDEX "rejected_stories_source_idx" ON "rejected_stories" USING btree ("source_id");--> statement-breakpoint
CREATE INDEX "rejected_stories_rejected_at_idx" ON "rejected_stories" USING btree ("rejected_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "scraped_candidates_source_idx" ON "scraped_candidates" USING btree ("source_id","seen_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "scraped_candidates_url_hash_idx" ON "scraped_candidates" USING btree ("url_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "sessions_token_key" ON "sessions" USING btree ("token");--> statement-breakpoint
CREATE INDEX "sessions_user_idx" ON "sessions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "social_media_posts_platform_created_idx" ON "social_media_posts" USING btree ("platform","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "social_media_posts_story_idx" ON "social_media_posts" USING btree ("story_id","platform","status");--> statement-breakpoint
CREATE INDEX "sources_created_at_idx" ON "sources" USING btree ("created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "sources_due_idx" ON "sources" USING btree ("status","next_check_at");--> statement-breakpoint
CREATE UNIQUE INDEX "stories_url_hash_key" ON "stories" USING btree ("url_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "stories_slug_key" ON "stories" USING btree ("slug");--> statement-breakpoint
CREATE INDEX "stories_published_date_idx" ON "stories" USING btree ("publish_date" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "stories"."status" = 'published';--> statement-breakpoint
CREATE INDEX "stories_published_featured_idx" ON "stories" USING btree ("publish_date" DESC NULLS FIRST) WHERE "stories"."status" = 'published' AND "stories"."is_featured";--> statement-breakpoint
CREATE INDEX "stories_published_category_idx" ON "stories" USING btree ("category_id","publish_date" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "stories"."status" = 'published';--> statement-breakpoint
CREATE INDEX "stories_title_trgm_idx" ON "stories" USING gin ("title" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "stories_summary_trgm_idx" ON "stories" USING gin ("summary" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "stories_content_trgm_idx" ON "stories" USING gin ("content" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "stories_status_created_idx" ON "stories" USING btree ("status","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "stories_source_idx" ON "stories" USING btree ("source_id");--> statement-breakpoint
CREATE INDEX "stories_created_at_idx" ON "stories" USING btree ("created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "stories_image_work_idx" ON "stories" USING btree ("id") WHERE "stories"."image_enhanced" = false OR "stories"."image_processing_status" = 'failed';--> statement-breakpoint
CREATE UNIQUE INDEX "url_queue_url_key" ON "url_queue" USING btree ("url");--> statement-breakpoint
CREATE INDEX "url_queue_status_idx" ON "url_queue" USING btree ("status","lastmod" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "url_queue_source_idx" ON "url_queue" USING btree ("source_id","status");--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_key" ON "users" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "verifications_identifier_idx" ON "verifications" USING btree ("identifier");