DROP INDEX "stories_image_work_idx";--> statement-breakpoint
ALTER TABLE "sources" ADD COLUMN "default_category_id" integer;--> statement-breakpoint
ALTER TABLE "stories" ADD COLUMN "source_published_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "stories" ADD COLUMN "image_failure_permanent" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "sources" ADD CONSTRAINT "sources_default_category_id_categories_id_fk" FOREIGN KEY ("default_category_id") REFERENCES "public"."categories"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "stories_image_work_idx" ON "stories" USING btree ("id") WHERE ("stories"."image_enhanced" = false OR "stories"."image_processing_status" = 'failed') AND NOT "stories"."image_failure_permanent";