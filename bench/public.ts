// Public-site benchmark of record: `npm run bench:public` (see docs/benchmarks.md).
//
// For the embedded server (a fresh temporary DATA_DIR), then PostgreSQL: seeds many published stories
// into a fresh database (in this process, which then closes it), starts the production server in its own
// process(es) (`bin/oddwire.mjs serve`, ROLE=web, WEB_CONCURRENCY web processes), and measures with wrk (1 thread, N
// connections, D seconds) the home, a category, a story and a search page, the sitemap index and the
// last page of the story sitemap from the page cache: plain, with `Accept-Encoding: gzip, deflate, br`
// as browsers send, and revalidated with If-None-Match (304). In the same run Debian's nginx, with as
// many workers as the app has web processes, serves the very same bytes (bench/reference.ts), and
// every figure is given as a ratio to it. Then, request by request, renders that miss the page cache
// (p50/p99) of those pages and of searches: a common word, a rare word, and a common word that finds
// nothing. Last, the memory (VmRSS) of every server process, and on the embedded server the PSS of its
// database processes. nginx and wrk are installed when missing.
// The results go to stdout and, one marked block per database and size, to docs/benchmarks.md.
//
// Environment: BENCH_STORIES (default 100000), BENCH_LARGE=1 (1,000,000 stories on PostgreSQL only),
// BENCH_DURATION (seconds, default 10), BENCH_CONNECTIONS (default 50), BENCH_DATABASE_URL
// (default postgres://postgres@127.0.0.1:5432/postgres; a database "oddwire_bench" is created on that
// server and dropped at the end), BENCH_DATABASES (default "embedded,postgres"), WEB_CONCURRENCY (passed
// to the server), BENCH_WRITE_DOCS (1: write docs/benchmarks.md once every database asked for has
// run; 0: do not; by default 1, or 0 when BENCH_STORIES sets a size of one's own).

import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { freePort } from "~/test/http-test-server";
import { tempDir } from "~/test/temp-dir";
import type { BenchDatabaseKind } from "./databases";
import { embeddedDatabaseMemory, processTreeMemory, redactUrl, writeMarkedBlock } from "./measure";
import { nginxVersion } from "./reference";
import { CONNECTIONS, DATABASES, DURATION, EMBEDDED_STORIES, fmt, out, PG_BENCH_DB, PG_URL, POSTGRES_STORIES, sleep, WRITE_DOCS } from "./public-settings";
import { type Server, startServer, serverComplaints } from "./public-server";
import { type Page, type DatabaseRun, measureHits, measureRenders } from "./public-measure";
import { largest, sumPss, memoryLabel, report } from "./public-report";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const DOCS = path.join(ROOT, "docs", "benchmarks.md");

function commandLine(): string {
  const vars = ["BENCH_STORIES", "BENCH_LARGE", "BENCH_DURATION", "BENCH_CONNECTIONS", "BENCH_DATABASES", "BENCH_DATABASE_URL", "WEB_CONCURRENCY"]
    .filter((name) => process.env[name]?.trim())
    .map((name) => `${name}=${name === "BENCH_DATABASE_URL" ? redactUrl(process.env[name] ?? "") : process.env[name]}`);
  return [...vars, "npm run bench:public"].join(" ");
}

/** Cores and their model, memory, kernel, Node, and how busy the machine was when the run began. */
function describeMachine(): string {
  const cpuinfo = (() => {
    try {
      return readFileSync("/proc/cpuinfo", "utf8");
    } catch {
      return "";
    }
  })();
  const model = /^model name\s*:\s*(.+)$/m.exec(cpuinfo)?.[1]?.trim() ?? os.cpus()[0]?.model.trim() ?? "unknown model";
  const load = os.loadavg().map((l) => l.toFixed(2)).join(", ");
  return `${os.availableParallelism()} CPU cores (${model}), ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB RAM, ${os.type()} ${os.release()}, Node ${process.version}; load average at start ${load}`;
}

// ---------------------------------------------------------------------------------------------
// One database

async function benchDatabase(kind: BenchDatabaseKind): Promise<DatabaseRun | string> {
  const { openDatabase } = await import("~/db/client");
  const { openEmbeddedDatabase } = await import("~/server/database");
  const { runMigrations } = await import("~/db/migrate");
  const { adminUrl, createDatabaseSql, dropDatabaseSql } = await import("~/db/testing/postgres-admin");
  const { COMMON_WORD, RARE_WORD, seedStories } = await import("./seed-stories");
  const { sql } = await import("drizzle-orm");

  const name = kind === "embedded" ? "embedded server" : "PostgreSQL";
  const storiesWanted = kind === "embedded" ? EMBEDDED_STORIES : POSTGRES_STORIES;
  const dataDir = tempDir("oddwire-bench-");
  const port = await freePort();
  const settings: Record<string, string> = {
    NODE_ENV: "production",
    ROLE: "web",
    PORT: String(port),
    HOST: "127.0.0.1",
    SITE_URL: `http://127.0.0.1:${port}`,
    LOG_LEVEL: "warn",
    DATA_DIR: dataDir,
    // As behind a proxy on the same machine: the bench gives each uncached search a client address of its own.
    TRUST_PROXY: "loopback",
  };

  let dropBenchDatabase: (() => Promise<void>) | undefined;
  let server: Server | undefined;
  try {
    if (kind === "postgres") {
      let admin: Awaited<ReturnType<typeof openDatabase>>;
      try {
        admin = await openDatabase({ databaseUrl: PG_URL, poolSize: 1, onIdleError: () => {} });
      } catch (error) {
        return `PostgreSQL skipped: cannot connect to ${redactUrl(PG_URL)} (${(error as Error).message}). Set BENCH_DATABASE_URL to a server where a database may be created.`;
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
          // The server's pools have ended, but their backends may take a moment to go: let them,
          // rather than have DROP ... WITH (FORCE) terminate them under the pools' feet.
          for (let waited = 0; waited < 5_000; waited += 100) {
            const result = (await again.db.execute(
              sql`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = ${PG_BENCH_DB}`,
            )) as unknown as { rows: { n: number }[] };
            if (Number(result.rows[0]?.n ?? 0) === 0) break;
            await sleep(100);
          }
          await again.exec(dropDatabaseSql(PG_BENCH_DB));
        } finally {
          await again.close();
        }
      };
      settings.DATABASE_URL = adminUrl(PG_URL, PG_BENCH_DB);
      settings.AUTH_SECRET = randomBytes(32).toString("hex");
    }

    out(`\n## ${name}`);
    out(`Seeding ${storiesWanted.toLocaleString("en")} published stories...`);
    // Seeded here, then closed; the server started after uses the same data dir's database.
    const seeding = settings.DATABASE_URL ? await openDatabase({ databaseUrl: settings.DATABASE_URL }) : await openEmbeddedDatabase(dataDir);
    let seed;
    try {
      await runMigrations(seeding);
      let shown = 0;
      seed = await seedStories(seeding, {
        published: storiesWanted,
        onProgress: (done, total) => {
          if (done === total || done - shown >= Math.max(20_000, total / 10)) {
            shown = done;
            out(`  ${done.toLocaleString("en")} / ${total.toLocaleString("en")}`);
          }
        },
      });
    } finally {
      await seeding.close();
    }
    out(
      `Seeded in ${fmt(seed.seconds, 1)} s (rows ${fmt(seed.steps.insertSeconds, 1)} s, indexes ${fmt(seed.steps.indexSeconds, 1)} s, ` +
        `VACUUM ANALYZE ${fmt(seed.steps.vacuumSeconds, 1)} s; ${seed.parallel} at a time; ${seed.pending} pending stories too); ` +
        `"${COMMON_WORD}" matches ${seed.commonMatches}, "${RARE_WORD}" matches ${seed.rareMatches}.`,
    );

    server = await startServer(settings, path.join(dataDir, "server.log"));
    out(`Serving on ${server.url}: bin/oddwire.mjs serve, pid ${server.pid}, ${server.webProcesses} web process${server.webProcesses === 1 ? "" : "es"}`);
    const category = seed.categories[0];
    if (!category || !seed.newestSlug) throw new Error("seeding produced no category or story");
    // The last story sitemap the index lists (pages are ranges of story ids, pending ones among them).
    const index = await (await fetch(`${server.url}/sitemap.xml`)).text();
    const listed = [...index.matchAll(/\/sitemaps\/stories\/(\d+)\.xml/g)].map((m) => Number(m[1]));
    const lastSitemap = Math.max(1, ...listed);
    const pages: Page[] = [
      { label: "home", path: "/", kind: "page" },
      { label: "category", path: `/category/${category.slug}`, kind: "page" },
      { label: "story", path: `/story/${seed.newestSlug}`, kind: "page" },
      { label: "search", path: `/search?q=${COMMON_WORD}`, kind: "search" },
      { label: "sitemap index", path: "/sitemap.xml", kind: "sitemap" },
      { label: `sitemap, stories page ${lastSitemap} (the last)`, path: `/sitemaps/stories/${lastSitemap}.xml`, kind: "sitemap" },
    ];
    const uncached: Page[] = [
      ...pages.filter((p) => p.kind !== "search"),
      { label: "search, common word", path: `/search?q=${COMMON_WORD}`, kind: "search" },
      { label: "search, rare word", path: `/search?q=${RARE_WORD}`, kind: "search" },
      { label: "search, common word, no match", path: `/search?q=${COMMON_WORD}+qzxv`, kind: "search" },
    ];
    out("Cache hits:");
    const hits = await measureHits(server.url, pages, server.webProcesses);
    const memoryAfterHits = processTreeMemory(server.pid);
    out("Uncached:");
    const renders = await measureRenders(server.url, uncached);
    const memoryAfterRun = processTreeMemory(server.pid);
    const databaseMemoryAfterRun = kind === "embedded" ? embeddedDatabaseMemory(dataDir) : [];
    for (const p of memoryAfterRun) out(`  RSS ${memoryLabel(p, memoryAfterRun)}: ${fmt(p.rssMiB)} MiB`);
    out(`  largest: ${fmt(largest(memoryAfterRun)?.rssMiB ?? NaN)} MiB`);
    if (databaseMemoryAfterRun.length > 0) out(`  embedded server: ${databaseMemoryAfterRun.length} processes, PSS ${fmt(sumPss(databaseMemoryAfterRun))} MiB`);
    await server.stop();
    const complaints = serverComplaints(server.log);
    if (complaints.length > 0) out(`The server logged ${complaints.length} warning(s) or error(s); the first:\n  ${complaints.slice(0, 5).join("\n  ")}`);
    return {
      kind,
      name,
      stories: seed.published,
      pending: seed.pending,
      seed: { seconds: seed.seconds, ...seed.steps, parallel: seed.parallel },
      commonMatches: seed.commonMatches,
      rareMatches: seed.rareMatches,
      webProcesses: server.webProcesses,
      hits,
      renders,
      memoryAfterHits,
      memoryAfterRun,
      databaseMemoryAfterRun,
      complaints,
    };
  } finally {
    await server?.stop();
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

  const context = {
    date: new Date().toISOString().slice(0, 10),
    command: commandLine(),
    machine: describeMachine(),
    load: `wrk -t1 -c${CONNECTIONS} -d${DURATION}s per target, one at a time`,
    nginx: nginxVersion(),
  };
  out("Oddwire public-site benchmark");
  out(`Command: ${context.command}`);
  out(`Machine: ${context.machine}`);
  out(`Load: ${context.load}; reference: ${context.nginx} serving the same bytes`);

  const runs: DatabaseRun[] = [];
  const notes: string[] = [];
  for (const kind of DATABASES) {
    const result = await benchDatabase(kind);
    if (typeof result === "string") {
      out(`\n${result}`);
      notes.push(result);
    } else runs.push(result);
  }

  const minutes = (performance.now() - started) / 60_000;
  out(`\n# Summary (total run ${fmt(minutes, 1)} min)`);
  for (const note of notes) out(`\n${note}`);
  const blocks = runs.map((run) => ({ name: `bench:public:${run.kind}-${run.stories}`, body: report(run, context).join("\n") }));
  for (const block of blocks) out(`\n${block.body}`);

  if (!WRITE_DOCS) out("\ndocs/benchmarks.md left as it is (BENCH_WRITE_DOCS=0, or a size of one's own with BENCH_STORIES).");
  else if (notes.length > 0) out("\ndocs/benchmarks.md left as it is: not every database asked for was measured.");
  else {
    let document = readFileSync(DOCS, "utf8");
    for (const block of blocks) document = writeMarkedBlock(document, { ...block, group: "bench:public:" });
    writeFileSync(DOCS, document);
    out(`\nWrote ${blocks.map((b) => b.name).join(", ")} to ${path.relative(ROOT, DOCS)}.`);
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
