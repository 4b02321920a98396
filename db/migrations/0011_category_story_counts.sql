CREATE TABLE "category_story_counts" (
	"category_id" integer PRIMARY KEY NOT NULL,
	"published" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "category_story_counts" ADD CONSTRAINT "category_story_counts_category_id_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."categories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Kept by triggers on stories: a statement's inserted rows at once (a bulk insert counts in one
-- step), an update row by row and only when it changes a story's status or category, a delete by
-- its deleted rows. A category's row may hold 0.
CREATE OR REPLACE FUNCTION oddwire_count_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO category_story_counts AS c (category_id, published)
    SELECT category_id, count(*)::int FROM new_rows
    WHERE status = 'published' AND category_id IS NOT NULL
    GROUP BY category_id ORDER BY category_id
  ON CONFLICT (category_id) DO UPDATE SET published = c.published + EXCLUDED.published;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION oddwire_count_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.status = 'published' AND OLD.category_id IS NOT NULL THEN
    UPDATE category_story_counts SET published = published - 1 WHERE category_id = OLD.category_id;
  END IF;
  -- A category deleted in this statement (its stories set to none) has no count to keep.
  IF NEW.status = 'published' AND NEW.category_id IS NOT NULL THEN
    INSERT INTO category_story_counts AS c (category_id, published) VALUES (NEW.category_id, 1)
    ON CONFLICT (category_id) DO UPDATE SET published = c.published + 1;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION oddwire_count_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE category_story_counts AS c SET published = c.published - d.n
  FROM (
    SELECT category_id, count(*)::int AS n FROM old_rows
    WHERE status = 'published' AND category_id IS NOT NULL
    GROUP BY category_id
  ) AS d
  WHERE c.category_id = d.category_id;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION oddwire_count_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM category_story_counts;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER stories_count_inserted AFTER INSERT ON stories
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION oddwire_count_inserted();--> statement-breakpoint
CREATE TRIGGER stories_count_updated AFTER UPDATE OF status, category_id ON stories
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.category_id IS DISTINCT FROM NEW.category_id)
  EXECUTE FUNCTION oddwire_count_updated();--> statement-breakpoint
CREATE TRIGGER stories_count_deleted AFTER DELETE ON stories
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION oddwire_count_deleted();--> statement-breakpoint
CREATE TRIGGER stories_count_truncated AFTER TRUNCATE ON stories
  FOR EACH STATEMENT EXECUTE FUNCTION oddwire_count_truncated();--> statement-breakpoint
INSERT INTO category_story_counts (category_id, published)
  SELECT category_id, count(*)::int FROM stories
  WHERE status = 'published' AND category_id IS NOT NULL
  GROUP BY category_id;
