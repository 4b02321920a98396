-- Public search compares folded text and English stems (docs/decisions/011-search.md). These columns
-- and indexes are not declared in db/schema.ts, so no story read carries them; the database keeps
-- them from title, summary and content. The search_body trigram index replaces the one on content.
DROP INDEX "stories_content_trgm_idx";--> statement-breakpoint
ALTER TABLE "stories" ADD COLUMN "search_title" text GENERATED ALWAYS AS (oddwire_fold(title)) STORED;--> statement-breakpoint
ALTER TABLE "stories" ADD COLUMN "search_body" text GENERATED ALWAYS AS (oddwire_fold(oddwire_html_text(coalesce(summary, '') || ' ' || coalesce(content, '')))) STORED;--> statement-breakpoint
ALTER TABLE "stories" ADD COLUMN "search_title_vector" tsvector GENERATED ALWAYS AS (to_tsvector('english'::regconfig, oddwire_fold(title))) STORED;--> statement-breakpoint
ALTER TABLE "stories" ADD COLUMN "search_vector" tsvector GENERATED ALWAYS AS (to_tsvector('english'::regconfig, oddwire_fold(title || ' ' || oddwire_html_text(coalesce(summary, '') || ' ' || coalesce(content, ''))))) STORED;--> statement-breakpoint
CREATE INDEX "stories_search_title_trgm_idx" ON "stories" USING gin ("search_title" gin_trgm_ops) WHERE "status" = 'published';--> statement-breakpoint
CREATE INDEX "stories_search_body_trgm_idx" ON "stories" USING gin ("search_body" gin_trgm_ops) WHERE "status" = 'published';--> statement-breakpoint
CREATE INDEX "stories_search_title_vector_idx" ON "stories" USING gin ("search_title_vector") WHERE "status" = 'published';--> statement-breakpoint
CREATE INDEX "stories_search_vector_idx" ON "stories" USING gin ("search_vector") WHERE "status" = 'published';
