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

import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createWriteStream, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { freePort } from "~/test/http-test-server";
import { tempDir } from "~/test/temp-dir";
import { benchDatabases, type BenchDatabaseKind } from "./databases";
import { type DatabaseProcessMemory, embeddedDatabaseMemory, intFromEnv, percentile, type ProcessMemory, processTreeMemory, redactUrl, writeMarkedBlock } from "./measure";
import { nginxVersion, startNginx, startNodeReference, wrk, type NodeReferenceFile, type ReferenceFile, type WrkResult } from "./reference";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const DOCS = path.join(ROOT, "docs", "benchmarks.md");

// ---------------------------------------------------------------------------------------------
// Settings

const DURATION = intFromEnv("BENCH_DURATION", 10, 1);
const CONNECTIONS = intFromEnv("BENCH_CONNECTIONS", 50, 1);
const LARGE = process.env.BENCH_LARGE === "1";
const STORIES_OVERRIDE = process.env.BENCH_STORIES?.trim() ? intFromEnv("BENCH_STORIES", 100_000, 10) : undefined;
const EMBEDDED_STORIES = STORIES_OVERRIDE ?? 100_000;
const POSTGRES_STORIES = STORIES_OVERRIDE ?? (LARGE ? 1_000_000 : 100_000);
const PG_URL = process.env.BENCH_DATABASE_URL?.trim() || "postgres://postgres@127.0.0.1:5432/postgres";
const PG_BENCH_DB = "oddwire_bench";
const DATABASES = benchDatabases();
const WRITE_DOCS = (process.env.BENCH_WRITE_DOCS?.trim() || (STORIES_OVERRIDE === undefined ? "1" : "0")) !== "0";
const UNCACHED_SAMPLES = 30;
/**
 * Renders of each page before its samples are taken: the samples are those of a process that has been
 * serving a while. The first renders of a fresh process run before V8 has optimised the render path
 * (an earlier release, 100,000 stories, home page, 33 renders one at a time: p50 16.9 ms for the first
 * 33 of a fresh process, 10.7 ms for the next 33).
 */
const WARM_UP = 50;

// Targets (issue 14): cache hits at least half of nginx's requests/s; uncached render p50 at most
// 15 ms at 100k stories (30 ms at 1M); search p99 under 100 ms (200 ms at 1M); every server process
// under 300 MB of RSS (the embedded server's database processes are reported apart, by PSS).
const MIN_RATIO = 0.5;
const MAX_RSS_BYTES = 300e6;
const targetsFor = (stories: number) => (stories >= 1_000_000 ? { renderP50: 30, searchP99: 200 } : { renderP50: 15, searchP99: 100 });

const out = (line = "") => process.stdout.write(`${line}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

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
// The server, in its own process(es)

type Server = { url: string; pid: number; log: string; webProcesses: number; stop: () => Promise<void> };

/**
 * `bin/oddwire.mjs serve` as production runs it, with the app's own settings replaced by `settings`;
 * resolves once /readyz answers and every process the server forks has started.
 */
async function startServer(settings: Record<string, string>, logFile: string): Promise<Server> {
  const { envSchema } = await import("~/server/config");
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of Object.keys(envSchema.shape)) delete env[name];
  Object.assign(env, settings);
  if (process.env.WEB_CONCURRENCY?.trim()) env.WEB_CONCURRENCY = process.env.WEB_CONCURRENCY.trim();

  const log = createWriteStream(logFile);
  const child: ChildProcess = spawn(process.execPath, [path.join(ROOT, "bin", "oddwire.mjs"), "serve"], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
  child.stdout!.pipe(log);
  child.stderr!.pipe(log);
  const pid = child.pid!;
  const url = `http://127.0.0.1:${settings.PORT}`;
  let stopped: Promise<void> | undefined;
  const stop = () =>
    (stopped ??= (async () => {
      if (child.exitCode === null && child.signalCode === null) {
        const tree = processTreeMemory(pid);
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGTERM");
        await Promise.race([exited, sleep(20_000)]);
        // Still running: the processes this run started, by id (a forked process ends with its primary).
        await sleep(child.exitCode === null ? 0 : 2_000);
        for (const p of tree) {
          if (processTreeMemory(p.pid)[0]?.command !== p.command) continue;
          try {
            process.kill(p.pid, "SIGKILL");
          } catch {
            // gone meanwhile
          }
        }
      }
      await new Promise<void>((resolve) => log.end(resolve));
    })());
  const tail = () => readFileSync(logFile, "utf8").split("\n").slice(-20).join("\n");

  try {
    const started = performance.now();
    for (;;) {
      if (child.exitCode !== null || child.signalCode !== null) throw new Error(`the server exited (${child.exitCode ?? child.signalCode}):\n${tail()}`);
      if (performance.now() - started > 180_000) throw new Error(`the server was not ready within 3 minutes:\n${tail()}`);
      const ready = await fetch(`${url}/readyz`).then((r) => r.ok, () => false);
      if (ready) break;
      await sleep(200);
    }
    // Forked web processes answer as each starts listening: wait until no more appear, and the last
    // one has had a moment to listen.
    let count = processTreeMemory(pid).length;
    for (let stable = 0; stable < 10; stable++) {
      await sleep(200);
      const now = processTreeMemory(pid).length;
      if (now !== count) stable = -1;
      count = now;
    }
    return { url, pid, log: logFile, webProcesses: Math.max(1, forkedWebProcesses(processTreeMemory(pid)).length), stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** The Node processes the server forked to serve (node:cluster); none when it serves by itself. */
function forkedWebProcesses(tree: ProcessMemory[]): ProcessMemory[] {
  return tree.filter((p) => p.parent !== null && /\.(m?js|ts)(\s|$)/.test(p.command));
}

/** Lines of the server's log at warning level or above (pino's JSON; anything else too). */
function serverComplaints(logFile: string): string[] {
  return readFileSync(logFile, "utf8")
    .split("\n")
    .filter((line) => {
      if (!line.trim()) return false;
      try {
        return ((JSON.parse(line) as { level?: number }).level ?? 50) >= 40;
      } catch {
        return true;
      }
    });
}

// ---------------------------------------------------------------------------------------------
// Measurements

type Page = { label: string; path: string; kind: "page" | "search" | "sitemap" };
type Mode = "plain" | "br" | "304";
/**
 * `node`: the same answer from a bare node:http server, and `nodeAls` from one that has run an
 * AsyncLocalStorage (measured for the first page only).
 */
type HitRow = { page: Page; mode: Mode; app: WrkResult; nginx: WrkResult; node?: WrkResult; nodeAls?: WrkResult; encoding: string; bytes: number };
type RenderRow = { page: Page; p50: number; p99: number; bytes: number };

type DatabaseRun = {
  kind: BenchDatabaseKind;
  name: string;
  stories: number;
  pending: number;
  seed: { seconds: number; insertSeconds: number; indexSeconds: number; vacuumSeconds: number; parallel: number };
  commonMatches: number;
  rareMatches: number;
  webProcesses: number;
  hits: HitRow[];
  renders: RenderRow[];
  memoryAfterHits: ProcessMemory[];
  memoryAfterRun: ProcessMemory[];
  /** The embedded server's processes after the run; empty on a PostgreSQL of one's own. */
  databaseMemoryAfterRun: DatabaseProcessMemory[];
  complaints: string[];
};

type Answer = { ms: number; status: number; bytes: number; cache: string | null };

async function timedGet(url: string, headers: Record<string, string> = {}): Promise<Answer> {
  const started = performance.now();
  const response = await fetch(url, { redirect: "manual", headers });
  const body = await response.arrayBuffer();
  return { ms: performance.now() - started, status: response.status, bytes: body.byteLength, cache: response.headers.get("x-cache") };
}

/** The same URL under another page-cache key: the app ignores the extra query parameter. */
function cacheBusted(url: string, n: number): string {
  return `${url}${url.includes("?") ? "&" : "?"}bench-nocache=${Date.now()}-${n}`;
}

/** `headers`: every header line as answered, but those Node writes itself (Date, Connection, Keep-Alive). */
type Kept = { body: Buffer; type: string; etag: string; encoding: string; headers: [string, string][] };

/** The page as the cache keeps it, as answered to `acceptEncoding`: its exact bytes, type, ETag and encoding. */
async function cachedBytes(url: string, acceptEncoding: string): Promise<Kept> {
  // Node's fetch would decompress: ask with node:http for the bytes as sent.
  const { get } = await import("node:http");
  return new Promise((resolve, reject) => {
    get(url, { headers: { "accept-encoding": acceptEncoding } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        if (res.statusCode !== 200) return reject(new Error(`GET ${url} answered ${res.statusCode}`));
        resolve({
          body: Buffer.concat(chunks),
          type: String(res.headers["content-type"]),
          etag: String(res.headers.etag),
          encoding: String(res.headers["content-encoding"] ?? "identity"),
          headers: pairs(res.rawHeaders).filter(([name]) => !/^(date|connection|keep-alive|transfer-encoding)$/i.test(name)),
        });
      });
    }).on("error", reject);
  });
}

function pairs(raw: string[]): [string, string][] {
  const lines: [string, string][] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) lines.push([raw[i]!, raw[i + 1]!]);
  return lines;
}

const BROWSER_ENCODINGS = { "accept-encoding": "gzip, deflate, br" };

/**
 * Cache hits of each page, plain, br and 304, beside nginx serving the same bytes in the same run;
 * the first page's also beside a bare node:http server answering the same bytes and header lines.
 */
async function measureHits(baseUrl: string, pages: Page[], workers: number): Promise<HitRow[]> {
  const files: ReferenceFile[] = [];
  const kept: { plain: Kept; br: Kept }[] = [];
  for (const [i, page] of pages.entries()) {
    const first = await timedGet(baseUrl + page.path); // into the cache
    if (first.status !== 200) throw new Error(`GET ${page.path} answered ${first.status}`);
    const plain = await cachedBytes(baseUrl + page.path, "identity");
    if (plain.encoding !== "identity") throw new Error(`GET ${page.path} with Accept-Encoding: identity answered ${plain.encoding}`);
    // A body too small to be worth compressing is kept and sent as it is, to browsers too.
    const br = await cachedBytes(baseUrl + page.path, BROWSER_ENCODINGS["accept-encoding"]);
    kept.push({ plain, br });
    files.push(
      { name: `page${i}`, body: plain.body, contentType: plain.type },
      { name: `page${i}.${br.encoding}`, body: br.body, contentType: br.type, ...(br.encoding === "identity" ? {} : { contentEncoding: br.encoding }) },
    );
    out(`  ${page.path}: ${plain.body.length.toLocaleString("en")} bytes, ${br.body.length.toLocaleString("en")} as ${br.encoding}`);
  }
  const nginx = await startNginx(files, { workers });
  const nodeFiles: NodeReferenceFile[] = kept.flatMap(({ plain, br }, i) => [
    { name: `page${i}`, body: plain.body, etag: plain.etag, headers: plain.headers },
    { name: `page${i}.${br.encoding}`, body: br.body, etag: br.etag, headers: br.headers },
  ]);
  const bareNode = await startNodeReference(nodeFiles.slice(0, 2), { workers }).catch(async (error: unknown) => {
    await nginx.stop();
    throw error;
  });
  const bareNodeAls = await startNodeReference(nodeFiles.slice(0, 2), { workers, asyncLocalStorage: true }).catch(async (error: unknown) => {
    await Promise.all([nginx.stop(), bareNode.stop()]);
    throw error;
  });
  const rows: HitRow[] = [];
  try {
    for (const [i, page] of pages.entries()) {
      const { plain, br } = kept[i]!;
      const nginxEtag = (await fetch(`${nginx.url}/page${i}`)).headers.get("etag") ?? "";
      const runs: { mode: Mode; app: Record<string, string>; nginxPath: string; nginx: Record<string, string>; kept: Kept }[] = [
        { mode: "plain", app: {}, nginxPath: `page${i}`, nginx: {}, kept: plain },
        { mode: "br", app: BROWSER_ENCODINGS, nginxPath: `page${i}.${br.encoding}`, nginx: BROWSER_ENCODINGS, kept: br },
        { mode: "304", app: { "if-none-match": plain.etag }, nginxPath: `page${i}`, nginx: { "if-none-match": nginxEtag }, kept: plain },
      ];
      for (const run of runs) {
        // An entry is fresh for two seconds; then one request renders it again while the others are
        // answered the previous version: the run sees what production traffic sees.
        const revalidate = run.mode === "304";
        const app = await wrk(baseUrl + page.path, { connections: CONNECTIONS, seconds: DURATION, headers: run.app, revalidate });
        const reference = await wrk(`${nginx.url}/${run.nginxPath}`, { connections: CONNECTIONS, seconds: DURATION, headers: run.nginx, revalidate });
        const node = i === 0 ? await wrk(`${bareNode.url}/${run.nginxPath}`, { connections: CONNECTIONS, seconds: DURATION, headers: run.app, revalidate }) : undefined;
        const nodeAls = i === 0 ? await wrk(`${bareNodeAls.url}/${run.nginxPath}`, { connections: CONNECTIONS, seconds: DURATION, headers: run.app, revalidate }) : undefined;
        const share = app.revalidated ? `, ${fmt(notModifiedShare(app) * 100, 1)}% answered 304` : "";
        const nodeLine =
          node && nodeAls
            ? `, bare Node ${fmt(node.rps)} req/s (${fmt(node.rps / reference.rps, 2)} of nginx), with AsyncLocalStorage ${fmt(nodeAls.rps)} req/s (${fmt(nodeAls.rps / reference.rps, 2)})`
            : "";
        out(`  ${page.label} ${run.mode}: app ${fmt(app.rps)} req/s, nginx ${fmt(reference.rps)} req/s, ratio ${fmt(app.rps / reference.rps, 2)}${share}${nodeLine}`);
        rows.push({ page, mode: run.mode, app, nginx: reference, ...(node ? { node } : {}), ...(nodeAls ? { nodeAls } : {}), encoding: run.kept.encoding, bytes: run.kept.body.length });
      }
    }
  } finally {
    await Promise.all([nginx.stop(), bareNode.stop(), bareNodeAls.stop()]);
  }
  return rows;
}

function notModifiedShare(result: WrkResult): number {
  const r = result.revalidated;
  return r && r.notModified + r.other > 0 ? r.notModified / (r.notModified + r.other) : NaN;
}

/**
 * Renders that miss the page cache, one at a time once the process is warm: p50 and p99. Each request
 * comes from an address of its own (X-Forwarded-For, believed from loopback as behind a proxy), so that
 * the per-client search allowance measures nothing but the search.
 */
async function measureRenders(baseUrl: string, targets: Page[]): Promise<RenderRow[]> {
  const rows: RenderRow[] = [];
  let client = 0;
  for (const target of targets) {
    const samples: number[] = [];
    let bytes = 0;
    for (let i = 0; i < UNCACHED_SAMPLES + WARM_UP; i++) {
      client++;
      const from = { "x-forwarded-for": `10.${(client >> 16) & 255}.${(client >> 8) & 255}.${client & 255}` };
      let result = await timedGet(cacheBusted(baseUrl + target.path, i), { ...BROWSER_ENCODINGS, ...from });
      // Should the allowance still refuse (another proxy setting): wait as told, then measure.
      while (result.status === 429) {
        await sleep(1_100);
        result = await timedGet(cacheBusted(baseUrl + target.path, i), { ...BROWSER_ENCODINGS, ...from });
      }
      if (result.status !== 200) throw new Error(`GET ${target.path} (uncached) answered ${result.status}`);
      if (result.cache !== "MISS") throw new Error(`GET ${target.path} (uncached) was not a cache miss (X-Cache: ${result.cache})`);
      if (i >= WARM_UP) samples.push(result.ms);
      bytes = result.bytes;
    }
    const row = { page: target, p50: percentile(samples, 50), p99: percentile(samples, 99), bytes };
    out(`  ${target.label} uncached: p50 ${fmt(row.p50, 1)} ms, p99 ${fmt(row.p99, 1)} ms`);
    rows.push(row);
  }
  return rows;
}

// ---------------------------------------------------------------------------------------------
// Report

function fmt(n: number, digits = 0): string {
  return Number.isFinite(n) ? n.toLocaleString("en", { minimumFractionDigits: digits, maximumFractionDigits: digits }) : "n/a";
}

const MODE_LABEL: Record<Mode, string> = { plain: "plain", br: "gzip, deflate, br", "304": "304 (If-None-Match)" };

/** The largest process, and whether every one stays under the target. */
function largest(memory: ProcessMemory[]): ProcessMemory | undefined {
  return [...memory].sort((a, b) => b.rssMiB - a.rssMiB)[0];
}

function sumPss(memory: DatabaseProcessMemory[]): number {
  return memory.reduce((sum, p) => sum + (Number.isNaN(p.pssMiB) ? 0 : p.pssMiB), 0);
}

function memoryLabel(p: ProcessMemory, all: ProcessMemory[]): string {
  const forked = forkedWebProcesses(all);
  const role = p.parent === null ? (forked.length > 0 ? "primary" : "web") : forked.includes(p) ? "web" : "other";
  return `${role} (pid ${p.pid}, \`${p.command}\`)`;
}

/** The run as Markdown: tables, then a line per target saying met or missed by how much. */
function report(run: DatabaseRun, context: { date: string; command: string; machine: string; load: string; nginx: string }): string[] {
  const targets = targetsFor(run.stories);
  const lines = [
    `### Results: ${run.name}, ${run.stories.toLocaleString("en")} stories (${context.date})`,
    "",
    `\`${context.command}\`; ${context.machine}.`,
    "",
    `${run.stories.toLocaleString("en")} published stories (+ ${run.pending.toLocaleString("en")} pending) in 12 categories, ` +
      `seeded in ${fmt(run.seed.seconds, 1)} s (rows ${fmt(run.seed.insertSeconds, 1)} s, indexes ${fmt(run.seed.indexSeconds, 1)} s, ` +
      `VACUUM ANALYZE ${fmt(run.seed.vacuumSeconds, 1)} s; ${run.seed.parallel} at a time); "cat" is in ${run.commonMatches.toLocaleString("en")} of them, ` +
      `"zeppelin" in ${run.rareMatches.toLocaleString("en")}. ${context.load}; ${run.webProcesses} web process${run.webProcesses === 1 ? "" : "es"} ` +
      `beside ${context.nginx} with ${run.webProcesses} worker${run.webProcesses === 1 ? "" : "s"} serving the same bytes in the same run.`,
    "",
    "Cache hits (requests/s):",
    "",
    "| page | answer | bytes | app req/s | nginx req/s | ratio | app p99 ms |",
    "|---|---|---:|---:|---:|---:|---:|",
  ];
  for (const row of run.hits) {
    const problems = [
      row.app.non2xx > 0 ? `${row.app.non2xx} answers not 2xx/3xx` : "",
      row.app.errors > 0 ? `${row.app.errors} socket errors` : "",
      row.app.revalidated ? `${fmt(notModifiedShare(row.app) * 100, 1)}% 304` : "",
    ].filter(Boolean);
    const answer = `${MODE_LABEL[row.mode]}${row.mode === "br" && row.encoding !== "br" ? ` (sent ${row.encoding})` : ""}${problems.length ? `; ${problems.join(", ")}` : ""}`;
    lines.push(
      `| ${row.page.label} | ${answer} | ${row.mode === "304" ? "0" : fmt(row.bytes)} | ${fmt(row.app.rps)} | ${fmt(row.nginx.rps)} | ${fmt(row.app.rps / row.nginx.rps, 2)} | ${fmt(row.app.p99, 1)} |`,
    );
  }
  const withNode = run.hits.filter((row) => row.node && row.nodeAls);
  if (withNode.length > 0) {
    lines.push(
      "",
      `The ${withNode[0]!.page.label} page's answers from a bare node:http server in ${run.webProcesses} process${run.webProcesses === 1 ? "" : "es"} ` +
        "(`bench/node-reference.mjs`: the same bytes and header lines, no framework, logging or metrics), in the same run: what Node's HTTP stack itself reaches on this machine; " +
        "then the same server once an AsyncLocalStorage has been run in it, as React's streaming renderer and the sign-in library do in every process of the app " +
        "(on Node 20 that turns on async hooks for every request after it).",
      "",
      "| answer | bare Node req/s | ratio to nginx | with AsyncLocalStorage req/s | ratio to nginx | app ratio to it |",
      "|---|---:|---:|---:|---:|---:|",
    );
    for (const row of withNode) {
      const { node, nodeAls, nginx, app } = { ...row, node: row.node!, nodeAls: row.nodeAls! };
      lines.push(`| ${MODE_LABEL[row.mode]} | ${fmt(node.rps)} | ${fmt(node.rps / nginx.rps, 2)} | ${fmt(nodeAls.rps)} | ${fmt(nodeAls.rps / nginx.rps, 2)} | ${fmt(app.rps / nodeAls.rps, 2)} |`);
    }
  }
  lines.push(
    "",
    `Uncached, one request at a time (${UNCACHED_SAMPLES} each after ${WARM_UP} to warm up; Accept-Encoding: gzip, deflate, br; ` +
      "a query parameter the app ignores gives each a page-cache key of its own, so each is rendered and compressed):",
    "",
    "| request | bytes | p50 ms | p99 ms |",
    "|---|---:|---:|---:|",
  );
  for (const row of run.renders) lines.push(`| ${row.page.label} \`${row.page.path}\` | ${fmt(row.bytes)} | ${fmt(row.p50, 1)} | ${fmt(row.p99, 1)} |`);
  lines.push(
    "",
    "Memory (VmRSS) of every server process, after the cache hits and after the run (the uncached renders' pages are kept in the page cache):",
    "",
    "| process | after cache hits MiB | after the run MiB |",
    "|---|---:|---:|",
  );
  for (const p of run.memoryAfterRun) {
    const before = run.memoryAfterHits.find((m) => m.pid === p.pid);
    lines.push(`| ${memoryLabel(p, run.memoryAfterRun)} | ${before ? fmt(before.rssMiB) : "n/a"} | ${fmt(p.rssMiB)} |`);
  }
  if (run.databaseMemoryAfterRun.length > 0) {
    const total = sumPss(run.databaseMemoryAfterRun);
    const nodeRss = run.memoryAfterRun.reduce((sum, p) => sum + p.rssMiB, 0);
    lines.push(
      "",
      `The embedded server's ${run.databaseMemoryAfterRun.length} processes after the run, by PSS (shared pages divided among the processes sharing them): ` +
        `${fmt(total)} MiB in all (the postmaster ${fmt(run.databaseMemoryAfterRun[0]!.pssMiB)} MiB, the largest other ` +
        `${fmt(Math.max(0, ...run.databaseMemoryAfterRun.slice(1).map((p) => p.pssMiB)))} MiB); with the server processes' RSS, ${fmt(nodeRss + total)} MiB.`,
    );
  }
  lines.push("", "Against the targets:", "", ...targetLines(run, targets));
  return lines;
}

function targetLines(run: DatabaseRun, targets: { renderP50: number; searchP99: number }): string[] {
  const lines: string[] = [];
  const missedHits = run.hits.filter((h) => !(h.app.rps / h.nginx.rps >= MIN_RATIO));
  lines.push(
    missedHits.length === 0
      ? `- Cache hits at least ${MIN_RATIO} of nginx: met by all ${run.hits.length}.`
      : `- Cache hits at least ${MIN_RATIO} of nginx: met by ${run.hits.length - missedHits.length} of ${run.hits.length}; missed by ` +
          missedHits.map((h) => `${h.page.label} ${h.mode} (${fmt(h.app.rps / h.nginx.rps, 2)}, ${fmt(MIN_RATIO - h.app.rps / h.nginx.rps, 2)} short)`).join(", ") +
          ".",
  );
  const renders = run.renders.filter((r) => r.page.kind !== "search");
  const slow = renders.filter((r) => !(r.p50 <= targets.renderP50));
  lines.push(
    slow.length === 0
      ? `- Uncached render p50 at most ${targets.renderP50} ms: met by all ${renders.length} (slowest ${fmt(Math.max(...renders.map((r) => r.p50)), 1)} ms).`
      : `- Uncached render p50 at most ${targets.renderP50} ms: met by ${renders.length - slow.length} of ${renders.length}; missed by ` +
          slow.map((r) => `${r.page.label} (${fmt(r.p50, 1)} ms, ${fmt(r.p50 - targets.renderP50, 1)} over)`).join(", ") +
          ".",
  );
  const searches = run.renders.filter((r) => r.page.kind === "search");
  const slowSearches = searches.filter((r) => !(r.p99 < targets.searchP99));
  lines.push(
    slowSearches.length === 0
      ? `- Search p99 under ${targets.searchP99} ms: met by all ${searches.length} (slowest ${fmt(Math.max(...searches.map((r) => r.p99)), 1)} ms).`
      : `- Search p99 under ${targets.searchP99} ms: met by ${searches.length - slowSearches.length} of ${searches.length}; missed by ` +
          slowSearches.map((r) => `${r.page.label} (${fmt(r.p99, 1)} ms, ${fmt(r.p99 - targets.searchP99, 1)} over)`).join(", ") +
          ".",
  );
  const biggest = largest(run.memoryAfterRun);
  const limitMiB = MAX_RSS_BYTES / 2 ** 20;
  lines.push(
    !biggest
      ? "- Every server process under 300 MB of RSS: not measured (no process found)."
      : biggest.rssMiB < limitMiB
        ? `- Every server process under 300 MB (${fmt(limitMiB)} MiB) of RSS: met; the largest, ${memoryLabel(biggest, run.memoryAfterRun)}, held ${fmt(biggest.rssMiB)} MiB after the run.`
        : `- Every server process under 300 MB (${fmt(limitMiB)} MiB) of RSS: missed; the largest, ${memoryLabel(biggest, run.memoryAfterRun)}, held ${fmt(biggest.rssMiB)} MiB after the run, ${fmt(biggest.rssMiB - limitMiB)} MiB over` +
          (largest(run.memoryAfterHits) ? ` (${fmt(largest(run.memoryAfterHits)!.rssMiB)} MiB after the cache hits).` : "."),
  );
  return lines;
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
