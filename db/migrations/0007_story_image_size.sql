ALTER TABLE "stories" ADD COLUMN "image_width" integer;--> statement-breakpoint
ALTER TABLE "stories" ADD COLUMN "image_height" integer;