-- A published story that moves to another category changes two counts. The trigger took the old
-- category's count first, so two editors moving stories the opposite ways at once could each hold
-- one count and wait for the other: PostgreSQL would abort one of them (deadlock). Both counts are
-- now locked in category order before either changes, as the statement triggers' own order does.
CREATE OR REPLACE FUNCTION oddwire_count_updated() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  counted_before boolean := OLD.status = 'published' AND OLD.category_id IS NOT NULL;
  counted_after boolean := NEW.status = 'published' AND NEW.category_id IS NOT NULL;
BEGIN
  IF counted_before AND counted_after THEN
    PERFORM 1 FROM category_story_counts
      WHERE category_id IN (OLD.category_id, NEW.category_id)
      ORDER BY category_id FOR UPDATE;
  END IF;
  IF counted_before THEN
    UPDATE category_story_counts SET published = published - 1 WHERE category_id = OLD.category_id;
  END IF;
  -- A category deleted in this statement (its stories set to none) has no count to keep.
  IF counted_after THEN
    INSERT INTO category_story_counts AS c (category_id, published) VALUES (NEW.category_id, 1)
    ON CONFLICT (category_id) DO UPDATE SET published = c.published + 1;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
-- Deleting stories of several categories: their counts locked in category order too.
CREATE OR REPLACE FUNCTION oddwire_count_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM category_story_counts
    WHERE category_id IN (SELECT category_id FROM old_rows WHERE status = 'published')
    ORDER BY category_id FOR UPDATE;
  UPDATE category_story_counts AS c SET published = c.published - d.n
  FROM (
    SELECT category_id, count(*)::int AS n FROM old_rows
    WHERE status = 'published' AND category_id IS NOT NULL
    GROUP BY category_id
  ) AS d
  WHERE c.category_id = d.category_id;
  RETURN NULL;
END $$;
