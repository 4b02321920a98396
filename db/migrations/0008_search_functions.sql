-- Search folds accents (unaccent) and suggests corrections by edit distance (fuzzystrmatch); both
-- extensions are trusted, so the database owner may create them. See docs/decisions/011-search.md.
CREATE EXTENSION IF NOT EXISTS unaccent;--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS fuzzystrmatch;--> statement-breakpoint
-- Text as search compares it: lower case, accents folded (Tromsø -> tromso). IMMUTABLE (the dictionary
-- is named, so the result cannot change) so that generated columns and indexes may use it.
CREATE OR REPLACE FUNCTION oddwire_fold(input text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT lower(public.unaccent('public.unaccent'::regdictionary, input)) $$;--> statement-breakpoint
-- The words of stored HTML, without its markup: tags become spaces, the common entities their characters.
CREATE OR REPLACE FUNCTION oddwire_html_text(input text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$
    SELECT replace(replace(replace(replace(replace(replace(
      regexp_replace(regexp_replace(input, '<(script|style)[^>]*>.*?</\1>', ' ', 'gis'), '<[^>]*>', ' ', 'g'),
      '&nbsp;', ' '), '&quot;', '"'), '&#39;', ''''), '&lt;', '<'), '&gt;', '>'), '&amp;', '&')
  $$;
