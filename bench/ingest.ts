// Ingestion benchmark: `npm run bench:ingest` (see docs/benchmarks.md).
//
// A separate process serves BENCH_FEEDS feeds (default 1,000) of BENCH_ITEMS items (default 50) on
// 127.0.0.1. For the embedded server (a fresh temporary DATA_DIR) and PostgreSQL (a fresh database
// "oddwire_bench_ingest" on BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres), one
// source per feed is added, then one full ingestion cycle runs from empty, then a second cycle in which
// every feed answers 304. Prints wall time, items per second and peak memory per cycle: this process's
// RSS (sampled every 20 ms) and, on the embedded server, the PSS of its processes (summed, sampled every
// 250 ms; a PostgreSQL of one's own is not measured).
import { spawn } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { sql } from "drizzle-orm";
import pino from "pino";
import { runMigrations } from "~/db/migrate";
import { createRepos } from "~/db/repos";
import { sources, stories } from "~/db/schema";
import { runIngestionCycle, type IngestionResult } from "~/domain/ingestion/ingest";
import { createGuardedClient } from "~/integrations/http/guarded-client";
import { errorMessage } from "~/lib/error-message";
import { benchDatabases, type BenchDatabaseKind } from "./databases";
import { openFreshDatabase } from "./fresh-database";
import { embeddedDatabaseMemory } from "./measure";
import { createFeedParserPool } from "~/server/processes/feed-parser-pool";

const out = (line: string) => process.stdout.write(`${line}\n`);
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const FEEDS = Number(process.env.BENCH_FEEDS ?? 1000);
const ITEMS = Number(process.env.BENCH_ITEMS ?? 50);
const DATABASES = benchDatabases();
const PG_URL = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const PG_NAME = "oddwire_bench_ingest";

type CycleRow = {
  database: string;
  cycle: string;
  seconds: number;
  items: number;
  itemsPerSecond: number;
  peakRssMiB: number;
  /** The embedded server's processes, PSS summed, at its peak; undefined for a PostgreSQL of one's own. */
  databasePeakPssMiB: number | undefined;
  result: IngestionResult;
};

async function startFeedServer(): Promise<{ url: string; stop: () => void }> {
  const child = spawn(process.execPath, ["--import", "tsx", path.join(ROOT, "bench/feed-server.ts")], {
    env: { ...process.env, BENCH_FEEDS: String(FEEDS), BENCH_ITEMS: String(ITEMS) },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once("line", resolve);
    child.once("exit", (code) => reject(new Error(`feed server exited with ${code}`)));
  });
  const { port } = JSON.parse(line) as { port: number };
  return { url: `http://127.0.0.1:${port}`, stop: () => child.kill("SIGTERM") };
}

async function measure<T>(work: () => Promise<T>, dataDir: string | undefined): Promise<{ value: T; seconds: number; peakRssMiB: number; databasePeakPssMiB: number | undefined }> {
  let peak = process.memoryUsage().rss;
  const databasePss = () => (dataDir ? embeddedDatabaseMemory(dataDir).reduce((sum, p) => sum + (Number.isNaN(p.pssMiB) ? 0 : p.pssMiB), 0) : 0);
  let databasePeak = databasePss();
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  const databaseTimer = dataDir ? setInterval(() => (databasePeak = Math.max(databasePeak, databasePss())), 250) : undefined;
  const start = performance.now();
  try {
    const value = await work();
    const seconds = (performance.now() - start) / 1000;
    peak = Math.max(peak, process.memoryUsage().rss);
    databasePeak = Math.max(databasePeak, databasePss());
    return { value, seconds, peakRssMiB: peak / 1024 / 1024, databasePeakPssMiB: dataDir ? databasePeak : undefined };
  } finally {
    clearInterval(timer);
    clearInterval(databaseTimer);
  }
}

async function benchOne(kind: BenchDatabaseKind, feedUrl: string): Promise<CycleRow[]> {
  const { database, dataDir, cleanup } = await openFreshDatabase(kind, { pgUrl: PG_URL, name: PG_NAME });
  try {
    await runMigrations(database);
    const repos = createRepos(database.db);
    for (let i = 0; i < FEEDS; i += 500) {
      const batch = Array.from({ length: Math.min(500, FEEDS - i) }, (_, k) => ({
        name: `Bench feed ${i + k}`,
        sourceType: "rss" as const,
        rssFeedUrl: `${feedUrl}/feed/${i + k}.xml`,
      }));
      await database.db.insert(sources).values(batch);
    }
    const http = createGuardedClient({ userAgent: "Oddwire/bench (+http://localhost)", allowHosts: ["127.0.0.1"] });
    const logger = pino({ level: "warn" });
    const feedParser = createFeedParserPool({ logger });
    const deps = { repos, http, logger, parseFeed: feedParser.parse };
    const rows: CycleRow[] = [];
    try {
      for (const cycle of ["from empty", "all 304"]) {
        const run = await measure(() => runIngestionCycle(deps, { scope: "all" }), dataDir);
        const items = run.value.total_items_found;
        rows.push({
          database: kind,
          cycle,
          seconds: run.seconds,
          items,
          itemsPerSecond: items / run.seconds,
          peakRssMiB: run.peakRssMiB,
          databasePeakPssMiB: run.databasePeakPssMiB,
          result: run.value,
        });
        out(JSON.stringify(rows.at(-1)));
      }
    } finally {
      await http.close();
      await feedParser.close();
    }
    const [count] = await database.db.select({ n: sql<number>`count(*)::int` }).from(stories);
    if (count?.n !== FEEDS * ITEMS) throw new Error(`expected ${FEEDS * ITEMS} stories, found ${count?.n}`);
    return rows;
  } finally {
    await cleanup();
  }
}

out(`load average at start ${os.loadavg().map((l) => l.toFixed(2)).join(", ")}`);
const server = await startFeedServer();
const all: CycleRow[] = [];
try {
  for (const kind of DATABASES) {
    try {
      all.push(...(await benchOne(kind, server.url)));
    } catch (error) {
      if (kind === "postgres" && /connect/i.test(errorMessage(error))) out(`PostgreSQL not reachable at ${PG_URL}: skipped`);
      else throw error;
    }
  }
} finally {
  server.stop();
}
out(`\n${FEEDS} feeds x ${ITEMS} items, Node ${process.version}, ${os.cpus().length} cores (${os.cpus()[0]?.model ?? "?"})\n`);
out(`load average at the end ${os.loadavg().map((l) => l.toFixed(2)).join(", ")}\n`);
out("| database | cycle | wall time | items found | items/s | peak RSS, this process | peak PSS, embedded server |");
out("|---|---|---|---|---|---|---|");
for (const r of all) {
  const pss = r.databasePeakPssMiB === undefined ? "not measured" : `${Math.round(r.databasePeakPssMiB)} MiB`;
  out(`| ${r.database} | ${r.cycle} | ${r.seconds.toFixed(1)} s | ${r.items.toLocaleString("en-US")} | ${Math.round(r.itemsPerSecond).toLocaleString("en-US")} | ${Math.round(r.peakRssMiB)} MiB | ${pss} |`);
}
