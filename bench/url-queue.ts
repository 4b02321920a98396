// URL Que list benchmark: `npm run bench:url-queue` (see docs/benchmarks.md).
//
// Fills url_queue with BENCH_ROWS rows (default 100,000) over 20 sources and three statuses, then runs the
// URL Que's list read (listUrlQueue, 1000 rows) for each filter the page offers, on the embedded server and PostgreSQL,
// printing the median time of 5 runs and the plan's access path (EXPLAIN of the same query).
import os from "node:os";
import { sql } from "drizzle-orm";
import { runMigrations } from "~/db/migrate";
import { createRepos } from "~/db/repos";
import { listUrlQueue, type UrlQueueFilterStatus } from "~/domain/crawl/url-queue";
import { errorMessage } from "~/lib/error-message";
import { benchDatabases, type BenchDatabaseKind } from "./databases";
import { openFreshDatabase } from "./fresh-database";

const out = (line: string) => process.stdout.write(`${line}\n`);
const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const DATABASES = benchDatabases();
const PG_URL = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const PG_NAME = "oddwire_bench_url_queue";

type Filter = { label: string; status: UrlQueueFilterStatus; sourceId?: number; search?: string };
const FILTERS: Filter[] = [
  { label: "queued (the default)", status: "queued" },
  { label: "all", status: "all" },
  { label: "failed", status: "failed" },
  { label: "one source, queued", status: "queued", sourceId: 7 },
  { label: "search 'story-4242'", status: "all", search: "story-4242" },
  { label: "search 'weird' (common)", status: "queued", search: "weird" },
];


async function benchOne(kind: BenchDatabaseKind) {
  const { database, cleanup } = await openFreshDatabase(kind, { pgUrl: PG_URL, name: PG_NAME, poolSize: 2 });
  try {
    await runMigrations(database);
    await database.exec(`INSERT INTO sources (name, source_type, website_url)
      SELECT 'Site ' || g, 'web_scraping', 'https://site' || g || '.example' FROM generate_series(1, 20) g`);
    await database.exec(`INSERT INTO url_queue (url, normalized_url, url_hash, lastmod, source_id, status)
      SELECT 'https://site' || (g % 20 + 1) || '.example/weird/' || g || '/story-' || g,
             'site' || (g % 20 + 1) || '.example/weird/' || g || '/story-' || g,
             md5(g::text) || md5((g + 1)::text),
             CASE WHEN g % 10 = 0 THEN NULL ELSE now() - (g || ' minutes')::interval END,
             g % 20 + 1,
             (CASE WHEN g % 7 = 0 THEN 'scraped' WHEN g % 13 = 0 THEN 'failed' ELSE 'queued' END)::url_queue_status
      FROM generate_series(1, ${ROWS}) g`);
    await database.exec("ANALYZE url_queue");
    const deps = { repos: createRepos(database.db) };
    for (const filter of FILTERS) {
      const times: number[] = [];
      let rows = 0;
      for (let i = 0; i < 5; i++) {
        const start = performance.now();
        rows = (await listUrlQueue(deps, { status: filter.status, sourceId: filter.sourceId, search: filter.search })).length;
        times.push(performance.now() - start);
      }
      times.sort((a, b) => a - b);
      const where = [
        filter.status !== "all" ? `q.status = '${filter.status}'` : null,
        filter.sourceId ? `q.source_id = ${filter.sourceId}` : null,
        filter.search ? `q.url ILIKE '%${filter.search}%'` : null,
      ].filter(Boolean);
      const explained = (await database.db.execute(
        sql.raw(`EXPLAIN SELECT q.id FROM url_queue q LEFT JOIN sources s ON s.id = q.source_id ${where.length ? `WHERE ${where.join(" AND ")}` : ""}
          ORDER BY q.lastmod DESC NULLS LAST, q.id DESC NULLS LAST LIMIT 1000`),
      )) as unknown as { rows: { "QUERY PLAN": string }[] };
      const plan = explained.rows.map((r) => r["QUERY PLAN"]).find((l) => /Scan/.test(l))?.trim().replace(/\s+\(cost.*$/, "") ?? "";
      out(`| ${kind} | ${filter.label} | ${rows} | ${times[2]!.toFixed(1)} ms | ${plan} |`);
    }
  } finally {
    await cleanup();
  }
}

out(`${ROWS.toLocaleString("en-US")} queue rows, 20 sources; Node ${process.version}, ${os.cpus().length} cores\n`);
out("| database | filter | rows listed | median of 5 | access path |");
out("|---|---|---|---|---|");
for (const kind of DATABASES) {
  try {
    await benchOne(kind);
  } catch (error) {
    if (kind === "postgres" && /connect/i.test(errorMessage(error))) out(`PostgreSQL not reachable at ${PG_URL}: skipped`);
    else throw error;
  }
}
