// Table snapshot benchmark: `npm run bench:snapshot`.
//
// Seeds BENCH_STORIES published stories (default 100,000; bench/seed-stories.ts) into a fresh
// PostgreSQL database on BENCH_DATABASE_URL, then times exportSnapshot into a file and
// importSnapshot of that file into a second fresh, migrated database, and checks that every
// table's row count came over. With BENCH_CARRY_OVER=1 it also times the carry-over of a PGlite
// DATA_DIR holding the same stories (seeded through PGlite: slow). Prints one JSON line per step.
import { createReadStream, createWriteStream, mkdtempSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import type { Database } from "~/db/client";
import { carryOverPglite } from "~/db/embedded/carry-over";
import { runMigrations } from "~/db/migrate";
import { exportSnapshot, importSnapshot } from "~/db/snapshot";
import { openFreshDatabase } from "./fresh-database";
import { seedStories } from "./seed-stories";

const out = (fields: Record<string, unknown>) => process.stdout.write(`${JSON.stringify(fields)}\n`);
const STORIES = Number(process.env.BENCH_STORIES ?? 100_000);
const PG_URL = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const CARRY_OVER = process.env.BENCH_CARRY_OVER === "1";

async function rowCounts(database: Database): Promise<Record<string, number>> {
  const tables = (await database.db.execute(sql`SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename`)) as unknown as {
    rows: { tablename: string }[];
  };
  const counts: Record<string, number> = {};
  for (const { tablename } of tables.rows) {
    const result = (await database.db.execute(sql.raw(`SELECT count(*)::int AS n FROM public."${tablename}"`))) as unknown as { rows: { n: number }[] };
    counts[tablename] = result.rows[0]?.n ?? 0;
  }
  return counts;
}

const rssMb = () => Math.round(process.memoryUsage().rss / 2 ** 20);
const seconds = (since: number) => Math.round(performance.now() - since) / 1000;

async function main() {
  const dir = mkdtempSync(path.join(os.tmpdir(), "oddwire-bench-snapshot-"));
  const source = await openFreshDatabase("postgres", { pgUrl: PG_URL, name: "oddwire_bench_snapshot_from", poolSize: 4 });
  const target = await openFreshDatabase("postgres", { pgUrl: PG_URL, name: "oddwire_bench_snapshot_to", poolSize: 2 });
  try {
    await runMigrations(source.database);
    await runMigrations(target.database);
    const seeded = await seedStories(source.database, { published: STORIES });
    const sizes = (await source.database.db.execute(
      sql`SELECT pg_database_size(current_database())::bigint AS database, pg_total_relation_size('stories')::bigint AS stories`,
    )) as unknown as { rows: { database: string; stories: string }[] };
    out({ step: "seed", stories: seeded.published + seeded.pending, seconds: Math.round(seeded.seconds * 10) / 10, databaseBytes: Number(sizes.rows[0]?.database), storiesBytes: Number(sizes.rows[0]?.stories) });

    const file = path.join(dir, "snapshot.gz");
    let started = performance.now();
    const exported = await exportSnapshot(source.database, createWriteStream(file));
    out({ step: "export", rows: exported.rows, seconds: seconds(started), fileBytes: statSync(file).size, rssMb: rssMb() });

    started = performance.now();
    const imported = await importSnapshot(target.database, createReadStream(file));
    out({ step: "import", rows: imported.rows, seconds: seconds(started), rssMb: rssMb() });

    const [before, after] = await Promise.all([rowCounts(source.database), rowCounts(target.database)]);
    const differ = Object.keys(before).filter((table) => before[table] !== after[table]);
    if (differ.length > 0) throw new Error(`row counts differ after the import: ${differ.join(", ")}`);
    out({ step: "check", tables: Object.keys(before).length, sameRowCounts: true });

    if (CARRY_OVER) {
      const dataDir = path.join(dir, "data");
      // Loaded only here, so that the figures above are of a process without PGlite.
      const { openEarlierDatabase } = await import("~/db/testing/earlier-pglite");
      started = performance.now();
      const pglite = await openEarlierDatabase(dataDir);
      await seedStories(pglite, { published: STORIES, parallel: 1 });
      await pglite.close();
      out({ step: "seed PGlite", seconds: seconds(started) });
      const carried = await openFreshDatabase("postgres", { pgUrl: PG_URL, name: "oddwire_bench_snapshot_carry", poolSize: 2 });
      try {
        await runMigrations(carried.database);
        started = performance.now();
        let readerMaxRssMb: unknown;
        const logger = { info: (fields: Record<string, unknown>) => (readerMaxRssMb = fields.readerMaxRssMb), warn: () => {} };
        const result = await carryOverPglite({ dataDir, target: carried.database, logger });
        out({ step: "carry-over", rows: result?.counts.rows, seconds: seconds(started), readerMaxRssMb });
      } finally {
        await carried.cleanup();
      }
    }
  } finally {
    await target.cleanup();
    await source.cleanup();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
