// Public-site benchmark: `npm run bench:public` (see docs/benchmarks.md).
//
// For PGlite, then PostgreSQL when reachable: seeds many published stories into a fresh database,
// starts the real production server in this process, and runs autocannon against the home page, a
// category page, a story page, a search for a common and for a rare word, and a static asset served
// by the same server. Prints one table per database.
//
// Environment: BENCH_STORIES (default 100000), BENCH_LARGE=1 (1,000,000 stories on PostgreSQL only),
// BENCH_DURATION (seconds, default 10), BENCH_CONNECTIONS (default 50), BENCH_DATABASE_URL
// (default postgres://postgres@127.0.0.1:5432/postgres; a database "oddwire_bench" is created on that
// server and dropped at the end), BENCH_DATABASES (default "pglite,postgres").

// React must load in production mode: set before anything imports it (project modules are imported
// dynamically below, after this line has run).
process.env.NODE_ENV = "production";

import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Database } from "~/db/client";
import type { WebServer } from "~/server/web";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

// ---------------------------------------------------------------------------------------------
// autocannon (CommonJS, no type declarations): the part of its programmatic API used here.

type Histogram = { average: number; mean: number; stddev: number; min: number; max: number; p50: number; p90: number; p99: number; p99_9: number };
type AutocannonResult = {
  requests: Histogram & { total: number; sent: number };
  latency: Histogram;
  throughput: Histogram;
  errors: number;
  timeouts: number;
  non2xx: number;
  duration: number;
};
type AutocannonOptions = { url: string; connections: number; duration: number; workers?: number };
const autocannon = createRequire(import.meta.url)("autocannon") as (options: AutocannonOptions) => Promise<AutocannonResult>;

// ---------------------------------------------------------------------------------------------
// Settings

function intFromEnv(name: string, fallback: number, min: number): number {
  const raw = process.env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) throw new Error(`${name} must be an integer >= ${min} (got "${raw}")`);
  return value;
}

const DURATION = intFromEnv("BENCH_DURATION", 10, 1);
const CONNECTIONS = intFromEnv("BENCH_CONNECTIONS", 50, 1);
const LARGE = process.env.BENCH_LARGE === "1";
const STORIES_OVERRIDE = process.env.BENCH_STORIES?.trim() ? intFromEnv("BENCH_STORIES", 100_000, 10) : undefined;
const PGLITE_STORIES = STORIES_OVERRIDE ?? 100_000;
const POSTGRES_STORIES = STORIES_OVERRIDE ?? (LARGE ? 1_000_000 : 100_000);
const PG_URL = process.env.BENCH_DATABASE_URL?.trim() || "postgres://postgres@127.0.0.1:5432/postgres";
const PG_BENCH_DB = "oddwire_bench";
const DATABASES = (process.env.BENCH_DATABASES ?? "pglite,postgres")
  .split(",")
  .map((d) => d.trim())
  .filter(Boolean);
for (const d of DATABASES) if (d !== "pglite" && d !== "postgres") throw new Error(`BENCH_DATABASES: unknown database "${d}"`);
const UNCACHED_SAMPLES = 5;

// The ratio of a page's requests/s to the static asset's that the issue asks for, and the search p99.
const MIN_RATIO = 0.5;
const MAX_SEARCH_P99_MS = 100;

const out = (line = "") => process.stdout.write(`${line}\n`);

function commandLine(): string {
  const vars = ["BENCH_STORIES", "BENCH_LARGE", "BENCH_DURATION", "BENCH_CONNECTIONS", "BENCH_DATABASES", "BENCH_DATABASE_URL"]
    .filter((name) => process.env[name]?.trim())
    .map((name) => `${name}=${name === "BENCH_DATABASE_URL" ? redact(process.env[name] ?? "") : process.env[name]}`);
  return [...vars, "npm run bench:public"].join(" ");
}

function redact(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return url;
  }
}

// ---------------------------------------------------------------------------------------------
// Targets

type TargetKind = "home" | "category" | "story" | "search-common" | "search-rare" | "static";
type Target = { kind: TargetKind; label: string; path: string };

type Row = {
  target: Target;
  rps: number;
  p50: number;
  p99: number;
  p999: number;
  max: number;
  total: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  /** The very first request to the target after the server started (process and page cache cold). */
  firstMs: number;
  /** The median of a few requests that miss the page cache (a query string the app ignores). */
  uncachedMs: number;
  /** How long the server stayed busy after the load stopped (requests it had accepted still running). */
  drainSeconds: number;
};

type DatabaseRun = {
  name: string;
  stories: number;
  pending: number;
  seedSeconds: number;
  commonMatches: number;
  rareMatches: number;
  rows: Row[];
};

function staticAssetPath(): string {
  const assets = path.join(ROOT, "build", "client", "assets");
  const css = readdirSync(assets)
    .filter((f) => f.endsWith(".css"))
    .sort()[0];
  return css ? `/assets/${css}` : "/logo.svg";
}

async function timedGet(url: string): Promise<{ ms: number; status: number; bytes: number; cache: string | null }> {
  const started = performance.now();
  const response = await fetch(url, { redirect: "manual" });
  const body = await response.arrayBuffer();
  return { ms: performance.now() - started, status: response.status, bytes: body.byteLength, cache: response.headers.get("x-cache") };
}

/** The same URL under another page-cache key: the app ignores the extra query parameter. */
function cacheBusted(url: string, n: number): string {
  return `${url}${url.includes("?") ? "&" : "?"}bench-nocache=${Date.now()}-${n}`;
}

/**
 * Waits until the server answers its health check (which queries the database) promptly three times
 * in a row: requests accepted during a run may still be running after autocannon stops, and must not
 * slow the next target down. Returns how long that took, in seconds.
 */
async function settle(baseUrl: string): Promise<number> {
  const started = performance.now();
  let quick = 0;
  while (quick < 3 && performance.now() - started < 180_000) {
    const result = await timedGet(`${baseUrl}/healthz`).catch(() => ({ ms: Infinity, status: 0 }));
    quick = result.status === 200 && result.ms < 50 ? quick + 1 : 0;
    if (quick < 3) await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return (performance.now() - started) / 1000;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

async function measure(baseUrl: string, targets: Target[]): Promise<Row[]> {
  // First request to each target, right after start: also the check that every target answers 200.
  const first = new Map<TargetKind, number>();
  for (const target of targets) {
    const result = await timedGet(baseUrl + target.path);
    if (result.status !== 200) throw new Error(`GET ${target.path} answered ${result.status}, not 200: the benchmark cannot run`);
    first.set(target.kind, result.ms);
    out(`  first request ${target.path}: ${result.ms.toFixed(1)} ms, ${result.bytes} bytes, cache ${result.cache ?? "n/a"}`);
  }
  // Uncached latency once the process is warm: requests that miss the page cache.
  const uncached = new Map<TargetKind, number>();
  for (const target of targets) {
    const samples: number[] = [];
    for (let i = 0; i < UNCACHED_SAMPLES; i++) {
      const result = await timedGet(cacheBusted(baseUrl + target.path, i));
      if (result.status !== 200) throw new Error(`GET ${target.path} (uncached) answered ${result.status}`);
      if (target.kind !== "static" && result.cache !== "MISS") throw new Error(`GET ${target.path} (uncached) was not a cache miss`);
      samples.push(result.ms);
    }
    uncached.set(target.kind, median(samples));
  }

  const rows: Row[] = [];
  for (const target of targets) {
    out(`  autocannon ${target.path}: ${CONNECTIONS} connections, ${DURATION} s ...`);
    // One worker thread fires the requests, so the load generator does not share the server's event loop.
    const result = await autocannon({ url: baseUrl + target.path, connections: CONNECTIONS, duration: DURATION, workers: 1 });
    const drainSeconds = await settle(baseUrl);
    const row: Row = {
      target,
      rps: result.requests.average,
      p50: result.latency.p50,
      p99: result.latency.p99,
      p999: result.latency.p99_9,
      max: result.latency.max,
      total: result.requests.total,
      non2xx: result.non2xx,
      errors: result.errors,
      timeouts: result.timeouts,
      firstMs: first.get(target.kind) ?? NaN,
      uncachedMs: uncached.get(target.kind) ?? NaN,
      drainSeconds,
    };
    out(
      `    ${row.rps.toFixed(0)} req/s, p50 ${row.p50} ms, p99 ${row.p99} ms, p99.9 ${row.p999} ms, max ${row.max} ms, ` +
        `${row.total} requests, non-2xx ${row.non2xx}, errors ${row.errors}, timeouts ${row.timeouts}; ` +
        `server busy ${row.drainSeconds.toFixed(1)} s after the run`,
    );
    rows.push(row);
  }
  return rows;
}

// ---------------------------------------------------------------------------------------------
// Report

function fmt(n: number, digits = 0): string {
  return Number.isFinite(n) ? n.toFixed(digits) : "n/a";
}

function verdict(row: Row, staticRps: number): { ratio: string; met: string } {
  const ratio = staticRps > 0 ? row.rps / staticRps : NaN;
  const failed = row.non2xx > 0 || row.errors > 0 ? ` (${row.non2xx} non-2xx, ${row.errors} errors)` : "";
  switch (row.target.kind) {
    case "home":
    case "category":
    case "story":
      return { ratio: fmt(ratio, 2), met: `${ratio >= MIN_RATIO && !failed ? "yes" : "NO"} (ratio >= ${MIN_RATIO})${failed}` };
    case "search-common":
    case "search-rare":
      return { ratio: fmt(ratio, 2), met: `${row.p99 < MAX_SEARCH_P99_MS && !failed ? "yes" : "NO"} (p99 < ${MAX_SEARCH_P99_MS} ms)${failed}` };
    case "static":
      return { ratio: "1.00", met: `reference${failed}` };
  }
}

function report(run: DatabaseRun): string[] {
  const staticRps = run.rows.find((r) => r.target.kind === "static")?.rps ?? NaN;
  const lines = [
    `### ${run.name}: ${run.stories.toLocaleString("en")} published stories (+ ${run.pending.toLocaleString("en")} pending), ` +
      `12 categories; seeded in ${run.seedSeconds.toFixed(1)} s`,
    "",
    `Search hits: "cat" in ${run.commonMatches.toLocaleString("en")} published stories, "zeppelin" in ${run.rareMatches}.`,
    "",
    "| target | req/s | p50 ms | p99 ms | ratio to static | target met |",
    "|---|---:|---:|---:|---:|---|",
  ];
  for (const row of run.rows) {
    const v = verdict(row, staticRps);
    lines.push(`| ${row.target.label} \`${row.target.path}\` | ${fmt(row.rps)} | ${row.p50} | ${row.p99} | ${v.ratio} | ${v.met} |`);
  }
  lines.push(
    "",
    "Details: the tail of the latency under load; timeouts (no answer within 10 s, counted among the errors); how long " +
      "the server stayed busy after the run (requests it had accepted still running); and single requests outside the " +
      "load test: the first request right after start (page cache and process cold) and the median of " +
      `${UNCACHED_SAMPLES} requests that miss the page cache once the process is warm.`,
    "",
    "| target | requests | p99.9 ms | max ms | errors (timeouts) | busy after run, s | first request, cache cold, ms | uncached, warm process, ms |",
    "|---|---:|---:|---:|---:|---:|---:|---:|",
  );
  for (const row of run.rows) {
    lines.push(
      `| ${row.target.label} | ${row.total} | ${row.p999} | ${row.max} | ${row.errors} (${row.timeouts}) | ${row.drainSeconds.toFixed(1)} ` +
        `| ${fmt(row.firstMs, 1)} | ${fmt(row.uncachedMs, 1)} |`,
    );
  }
  return lines;
}

// ---------------------------------------------------------------------------------------------
// One database

async function benchDatabase(kind: "pglite" | "postgres"): Promise<DatabaseRun | string> {
  const { openDatabase } = await import("~/db/client");
  const { runMigrations } = await import("~/db/migrate");
  const { adminUrl, createDatabaseSql, dropDatabaseSql } = await import("~/db/testing/postgres-admin");
  const { loadConfig } = await import("~/server/config");
  const { openConfiguredDatabase } = await import("~/server/database");
  const { createLogger } = await import("~/server/logger");
  const { loadServerBuild, startWebServer } = await import("~/server/web");
  const { seedStories } = await import("./seed-stories");
  const { sql } = await import("drizzle-orm");

  const name = kind === "pglite" ? "PGlite" : "PostgreSQL";
  const storiesWanted = kind === "pglite" ? PGLITE_STORIES : POSTGRES_STORIES;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "oddwire-bench-"));
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: "production", DATA_DIR: dataDir, PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "warn" };
  delete env.DATABASE_URL;
  delete env.SITE_URL;

  let dropBenchDatabase: (() => Promise<void>) | undefined;
  let database: Database | undefined;
  let web: WebServer | undefined;
  try {
    if (kind === "postgres") {
      let admin: Database;
      try {
        admin = await openDatabase({ databaseUrl: PG_URL, poolSize: 1, onIdleError: () => {} });
      } catch (error) {
        return `PostgreSQL skipped: cannot connect to ${redact(PG_URL)} (${(error as Error).message}). Set BENCH_DATABASE_URL to a server where a database may be created.`;
      }
      try {
        await admin.exec(dropDatabaseSql(PG_BENCH_DB));
        await admin.exec(createDatabaseSql(PG_BENCH_DB));
      } finally {
        await admin.close();
      }
      dropBenchDatabase = async () => {
        const again = await openDatabase({ databaseUrl: PG_URL, poolSize: 1, onIdleError: () => {} });
        try {
          // The server's pool has ended, but its backends may take a moment to go: let them, rather
          // than have DROP ... WITH (FORCE) terminate them under the pool's feet.
          for (let waited = 0; waited < 5_000; waited += 100) {
            const result = (await again.db.execute(
              sql`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = ${PG_BENCH_DB}`,
            )) as unknown as { rows: { n: number }[] };
            if (Number(result.rows[0]?.n ?? 0) === 0) break;
            await new Promise((resolve) => setTimeout(resolve, 100));
          }
          await again.exec(dropDatabaseSql(PG_BENCH_DB));
        } finally {
          await again.close();
        }
      };
      env.DATABASE_URL = adminUrl(PG_URL, PG_BENCH_DB);
      env.AUTH_SECRET = randomBytes(32).toString("hex");
    }
    const config = loadConfig(env);
    const logger = createLogger({ level: "warn", name: "oddwire-bench" });

    out(`\n## ${name}`);
    out(`Seeding ${storiesWanted.toLocaleString("en")} published stories...`);
    const seeding = config.databaseUrl
      ? await openDatabase({ databaseUrl: config.databaseUrl })
      : await openDatabase({ dataDir: config.dataDir });
    let seed;
    try {
      await runMigrations(seeding);
      seed = await seedStories(seeding, {
        published: storiesWanted,
        onProgress: (done, total) => out(`  ${done.toLocaleString("en")} / ${total.toLocaleString("en")}`),
      });
    } finally {
      await seeding.close();
    }
    out(
      `Seeded in ${seed.seconds.toFixed(1)} s (${seed.pending} pending stories too, VACUUM ANALYZE included); ` +
        `"cat" matches ${seed.commonMatches}, "zeppelin" matches ${seed.rareMatches}.`,
    );

    // The real server, as serve.ts builds it.
    database = await openConfiguredDatabase(config, logger);
    web = await startWebServer({ config, database, logger, build: await loadServerBuild() });
    const port = new URL(web.url).port;
    const baseUrl = `http://127.0.0.1:${port}`;
    const category = seed.categories[0];
    if (!category || !seed.newestSlug) throw new Error("seeding produced no category or story");
    const targets: Target[] = [
      { kind: "home", label: "home", path: "/" },
      { kind: "category", label: "category", path: `/category/${category.slug}` },
      { kind: "story", label: "story", path: `/story/${seed.newestSlug}` },
      { kind: "search-common", label: "search, common word", path: "/search?q=cat" },
      { kind: "search-rare", label: "search, rare word", path: "/search?q=zeppelin" },
      { kind: "static", label: "static asset", path: staticAssetPath() },
    ];
    out(`Serving on ${baseUrl}`);
    const rows = await measure(baseUrl, targets);
    const run: DatabaseRun = {
      name,
      stories: seed.published,
      pending: seed.pending,
      seedSeconds: seed.seconds,
      commonMatches: seed.commonMatches,
      rareMatches: seed.rareMatches,
      rows,
    };
    out();
    for (const line of report(run)) out(line);
    return run;
  } finally {
    await web?.close();
    await database?.close();
    rmSync(dataDir, { recursive: true, force: true });
    await dropBenchDatabase?.();
  }
}

// ---------------------------------------------------------------------------------------------
// Main

async function main(): Promise<number> {
  const started = performance.now();
  const build = spawnSync(process.execPath, [path.join(ROOT, "scripts", "ensure-build.mjs")], { cwd: ROOT, stdio: "inherit" });
  if (build.status !== 0) {
    console.error("bench: building the web app failed");
    return 1;
  }

  const cpus = os.cpus();
  const machine = `${cpus.length} CPU cores (${cpus[0]?.model.trim() ?? "unknown model"}), ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB RAM, ${os.type()} ${os.release()}, Node ${process.version}`;
  out(`Oddwire public-site benchmark`);
  out(`Command: ${commandLine()}`);
  out(`Machine: ${machine}`);
  out(`Load: autocannon, ${CONNECTIONS} connections, ${DURATION} s per target, one target at a time`);

  const runs: DatabaseRun[] = [];
  const notes: string[] = [];
  for (const kind of DATABASES as ("pglite" | "postgres")[]) {
    const result = await benchDatabase(kind);
    if (typeof result === "string") {
      out(`\n${result}`);
      notes.push(result);
    } else runs.push(result);
  }

  const minutes = (performance.now() - started) / 60_000;
  out("\n# Summary\n");
  out(`Command: \`${commandLine()}\``);
  out(`Machine: ${machine}`);
  out(`Load: autocannon ${CONNECTIONS} connections x ${DURATION} s per target; total run ${minutes.toFixed(1)} min`);
  for (const note of notes) out(`\n${note}`);
  for (const run of runs) {
    out();
    for (const line of report(run)) out(line);
  }
  return 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error("bench failed:", error);
    process.exitCode = 1;
  },
);
