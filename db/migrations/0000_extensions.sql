-- pg_trgm backs the case-insensitive substring search on stories (trigram GIN indexes).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
