// What a table snapshot reads from a database's catalog, and the session it reads in: shared by
// db/snapshot.ts and db/embedded/carry-over-reader.mjs (plain JavaScript, run by node alone), so that
// a snapshot of PGlite and one of PostgreSQL are made by the very same queries.

export const SNAPSHOT_FORMAT = "oddwire-snapshot";
export const SNAPSHOT_VERSION = 1;

// Fixed text of values whose output depends on the session (timestamps, intervals), on both sides.
export const SESSION_SETTINGS = "SET LOCAL TimeZone = 'UTC'; SET LOCAL DateStyle = 'ISO, YMD'; SET LOCAL IntervalStyle = 'postgres'; SET LOCAL extra_float_digits = 1";

// Plain tables (a partition would be one of its own, its parent none: the schema has none).
export const TABLES_SQL = `
  SELECT c.relname AS name,
         json_agg(json_build_object('name', a.attname, 'type', format_type(a.atttypid, a.atttypmod)) ORDER BY a.attnum) AS columns
  FROM pg_class c
  JOIN pg_namespace n ON n.oid = c.relnamespace
  JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = ''
  WHERE n.nspname = 'public' AND c.relkind = 'r'
  GROUP BY c.relname
  ORDER BY c.relname`;

export const SEQUENCES_SQL = `
  SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
  WHERE n.nspname = 'public' AND c.relkind = 'S' ORDER BY c.relname`;

export const MIGRATIONS_SQL = `
  SELECT hash, created_at::text AS "createdAt" FROM drizzle.__drizzle_migrations ORDER BY created_at, id`;
