// Which databases a benchmark runs on. Apart from bench/fresh-database.ts, which opens them: reading
// the setting loads no database code.

/** The product's embedded PostgreSQL server (a fresh temporary DATA_DIR), or a PostgreSQL of one's own (BENCH_DATABASE_URL). */
export const BENCH_DATABASE_KINDS = ["embedded", "postgres"] as const;
export type BenchDatabaseKind = (typeof BENCH_DATABASE_KINDS)[number];

/** BENCH_DATABASES (default "embedded,postgres") as a list; an unknown name throws. */
export function benchDatabases(value = process.env.BENCH_DATABASES): BenchDatabaseKind[] {
  const kinds = (value?.trim() || BENCH_DATABASE_KINDS.join(","))
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  for (const kind of kinds) {
    if (!(BENCH_DATABASE_KINDS as readonly string[]).includes(kind)) throw new Error(`BENCH_DATABASES: unknown database "${kind}" (known: ${BENCH_DATABASE_KINDS.join(", ")})`);
  }
  return kinds as BenchDatabaseKind[];
}

