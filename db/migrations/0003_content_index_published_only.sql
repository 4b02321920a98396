DROP INDEX "stories_content_trgm_idx";--> statement-breakpoint
CREATE INDEX "stories_content_trgm_idx" ON "stories" USING gin ("content" gin_trgm_ops) WHERE "stories"."status" = 'published';