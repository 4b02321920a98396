CREATE TABLE "triage_models" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "triage_models_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"kind" text NOT NULL,
	"trained_at" timestamp with time zone DEFAULT now() NOT NULL,
	"published" integer NOT NULL,
	"rejected" integer NOT NULL,
	"model" jsonb NOT NULL
);
--> statement-breakpoint
ALTER TABLE "rejected_stories" ADD COLUMN "summary" text;--> statement-breakpoint
ALTER TABLE "rejected_stories" ADD COLUMN "ingested_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "stories" ADD COLUMN "triage_score" real;--> statement-breakpoint
ALTER TABLE "stories" ADD COLUMN "suggested_category_id" integer;--> statement-breakpoint
ALTER TABLE "stories" ADD COLUMN "suggested_category_confidence" real;--> statement-breakpoint
ALTER TABLE "stories" ADD COLUMN "same_story_group" integer;--> statement-breakpoint
ALTER TABLE "stories" ADD COLUMN "same_story_reason" text;--> statement-breakpoint
CREATE INDEX "triage_models_kind_trained_idx" ON "triage_models" USING btree ("kind","trained_at" DESC NULLS LAST);--> statement-breakpoint
ALTER TABLE "stories" ADD CONSTRAINT "stories_suggested_category_id_categories_id_fk" FOREIGN KEY ("suggested_category_id") REFERENCES "public"."categories"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "stories_pending_triage_idx" ON "stories" USING btree ("triage_score" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "stories"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "stories_same_story_group_idx" ON "stories" USING btree ("same_story_group") WHERE "stories"."same_story_group" IS NOT NULL;