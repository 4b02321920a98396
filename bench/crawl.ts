// Discovery benchmark: `npm run bench:crawl` (see docs/benchmarks.md).
//
// A separate process (bench/crawl-site.ts) serves a site on 127.0.0.1 with robots.txt and a sitemap index
// of BENCH_SITEMAPS sitemaps (half gzipped) listing BENCH_URLS URLs (default 20,000). For the embedded
// server (a fresh temporary DATA_DIR) and PostgreSQL (a fresh database "oddwire_bench_crawl" on
// BENCH_DATABASE_URL), two web_scraping sources of that site with crawlDelay BENCH_DELAY_MS (default 1000)
// are discovered in one cycle, at the same time, as the scheduler would: both contend for the one host.
// Prints wall time, URLs queued, peak memory (this process's RSS, sampled every 20 ms; on the embedded
// server also its processes' PSS, summed, sampled every 250 ms), and the smallest gap between two requests
// arriving at the site, which must never be below the crawl delay.
import { spawn } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { sql } from "drizzle-orm";
import pino from "pino";
import { runMigrations } from "~/db/migrate";
import { createRepos } from "~/db/repos";
import { sources, urlQueue } from "~/db/schema";
import { runDiscoveryCycle, type DiscoveryCycleResult } from "~/domain/crawl/discover";
import { createPoliteClient } from "~/domain/crawl/polite-client";
import { createGuardedClient } from "~/integrations/http/guarded-client";
import { errorMessage } from "~/lib/error-message";
import { benchDatabases, type BenchDatabaseKind } from "./databases";
import { openFreshDatabase } from "./fresh-database";
import { embeddedDatabaseMemory } from "./measure";

const out = (line: string) => process.stdout.write(`${line}\n`);
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const URLS = Number(process.env.BENCH_URLS ?? 20_000);
const SITEMAPS = Number(process.env.BENCH_SITEMAPS ?? 4);
const DELAY_MS = Number(process.env.BENCH_DELAY_MS ?? 1000);
const DATABASES = benchDatabases();
const PG_URL = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const PG_NAME = "oddwire_bench_crawl";

type Row = {
  database: string;
  seconds: number;
  queued: number;
  requests: number;
  minGapMs: number;
  baselineRssMiB: number;
  peakRssMiB: number;
  /** The embedded server's processes, PSS summed, before the cycle and at its peak; undefined for a PostgreSQL of one's own. */
  databaseBaselinePssMiB: number | undefined;
  databasePeakPssMiB: number | undefined;
  result: DiscoveryCycleResult;
};

function databasePss(dataDir: string | undefined): number | undefined {
  return dataDir === undefined ? undefined : embeddedDatabaseMemory(dataDir).reduce((sum, p) => sum + (Number.isNaN(p.pssMiB) ? 0 : p.pssMiB), 0);
}

async function startSite(): Promise<{ url: string; stop: () => void }> {
  const child = spawn(process.execPath, ["--import", "tsx", path.join(ROOT, "bench/crawl-site.ts")], {
    env: { ...process.env, BENCH_URLS: String(URLS), BENCH_SITEMAPS: String(SITEMAPS) },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once("line", resolve);
    child.once("exit", (code) => reject(new Error(`crawl site exited with ${code}`)));
  });
  const { port } = JSON.parse(line) as { port: number };
  return { url: `http://127.0.0.1:${port}`, stop: () => child.kill("SIGTERM") };
}


async function benchOne(kind: BenchDatabaseKind, siteUrl: string): Promise<Row> {
  const { database, dataDir, cleanup } = await openFreshDatabase(kind, { pgUrl: PG_URL, name: PG_NAME });
  try {
    await runMigrations(database);
    const repos = createRepos(database.db);
    await database.db.insert(sources).values(
      ["Bench site A", "Bench site B"].map((name) => ({
        name,
        sourceType: "web_scraping" as const,
        websiteUrl: siteUrl,
        scrapingConfig: { crawlDelay: DELAY_MS },
      })),
    );
    const http = createGuardedClient({ userAgent: "Oddwire/bench (+http://localhost)", allowHosts: ["127.0.0.1"], maxBodyBytes: 60 * 1024 * 1024 });
    const logger = pino({ level: "warn" });
    const deps = { repos, http: createPoliteClient({ http, crawl: repos.crawl, logger, userAgent: "Oddwire/bench" }), logger, userAgent: "Oddwire/bench", renderer: null };
    try {
      const before = ((await (await fetch(`${siteUrl}/__hits`)).json()) as unknown[]).length;
      const baseline = process.memoryUsage().rss;
      let peak = baseline;
      const databaseBaseline = databasePss(dataDir);
      let databasePeak = databaseBaseline ?? 0;
      const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
      const databaseTimer = dataDir ? setInterval(() => (databasePeak = Math.max(databasePeak, databasePss(dataDir) ?? 0)), 250) : undefined;
      const start = performance.now();
      const result = await runDiscoveryCycle(deps, { scope: "all" }).finally(() => {
        clearInterval(timer);
        clearInterval(databaseTimer);
      });
      const seconds = (performance.now() - start) / 1000;
      if (dataDir) databasePeak = Math.max(databasePeak, databasePss(dataDir) ?? 0);
      const hits = ((await (await fetch(`${siteUrl}/__hits`)).json()) as { path: string; at: number }[]).slice(before);
      const gaps = hits.slice(1).map((h, i) => h.at - hits[i]!.at);
      const [count] = await database.db.select({ n: sql<number>`count(*)::int` }).from(urlQueue);
      if (count?.n !== URLS) throw new Error(`expected ${URLS} queued URLs, found ${count?.n}`);
      const row: Row = {
        database: kind,
        seconds,
        queued: count.n,
        requests: hits.length,
        minGapMs: gaps.length ? Math.min(...gaps) : Number.NaN,
        baselineRssMiB: baseline / 1024 / 1024,
        peakRssMiB: Math.max(peak, process.memoryUsage().rss) / 1024 / 1024,
        databaseBaselinePssMiB: databaseBaseline,
        databasePeakPssMiB: dataDir ? databasePeak : undefined,
        result: { ...result, sources: result.sources.map((s) => ({ ...s, errors: s.errors.slice(0, 3) })) },
      };
      out(JSON.stringify(row));
      return row;
    } finally {
      await http.close();
    }
  } finally {
    await cleanup();
  }
}

// Each database is measured in a process of its own: memory one run leaves behind (V8's heap, the
// allocator's arenas) would count against the next one's peak.
if (DATABASES.length > 1) {
  const rows: string[] = [];
  let failed = false;
  for (const kind of DATABASES) {
    const child = spawn(process.execPath, ["--import", "tsx", fileURLToPath(import.meta.url)], {
      env: { ...process.env, BENCH_DATABASES: kind },
      stdio: ["ignore", "pipe", "inherit"],
    });
    for await (const line of createInterface({ input: child.stdout! })) {
      if (line.startsWith("| ") && !line.startsWith("| database") ) rows.push(line);
      else if (line.startsWith("{") || line.startsWith("PostgreSQL") || line.startsWith("load average")) out(line);
    }
    const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
    if (code !== 0) failed = true;
  }
  printTable(rows);
  if (failed) process.exitCode = 1;
} else {
  out(`load average at start (${DATABASES.join(", ")}) ${os.loadavg().map((l) => l.toFixed(2)).join(", ")}`);
  const site = await startSite();
  const rows: Row[] = [];
  try {
    for (const kind of DATABASES) {
      try {
        rows.push(await benchOne(kind, site.url));
      } catch (error) {
        if (kind === "postgres" && /connect/i.test(errorMessage(error))) out(`PostgreSQL not reachable at ${PG_URL}: skipped`);
        else throw error;
      }
    }
  } finally {
    site.stop();
  }
  printTable(
    rows.map(
      (r) =>
        `| ${r.database} | ${r.seconds.toFixed(1)} s | ${r.queued.toLocaleString("en-US")} | ${r.requests} | ${Math.round(r.minGapMs)} ms | ${Math.round(r.baselineRssMiB)} MiB | ${Math.round(r.peakRssMiB)} MiB | ` +
          (r.databasePeakPssMiB === undefined
            ? "not measured | not measured |"
            : `${Math.round(r.databaseBaselinePssMiB ?? NaN)} MiB | ${Math.round(r.databasePeakPssMiB)} MiB |`),
    ),
  );
  const below = rows.filter((r) => r.minGapMs < DELAY_MS);
  if (below.length > 0) {
    out(`\nFAIL: a gap below the crawl delay on ${below.map((r) => r.database).join(", ")}`);
    process.exitCode = 1;
  }
}

function printTable(lines: string[]) {
  out(`\n${URLS.toLocaleString("en-US")} URLs in ${SITEMAPS} sitemaps, crawlDelay ${DELAY_MS} ms, 2 sources of one site; Node ${process.version}, ${os.cpus().length} cores (${os.cpus()[0]?.model ?? "?"})\n`);
  out("| database | wall time | URLs queued | requests to the site | smallest gap between requests | RSS before | peak RSS | embedded server PSS before | its peak PSS |");
  out("|---|---|---|---|---|---|---|---|---|");
  for (const line of lines) out(line);
}
