// Large sitemap benchmark: `npm run bench:sitemap` (see docs/benchmarks.md).
//
// Writes a sitemap of BENCH_SITEMAP_URLS entries (default 50,000, each with a Google News block and an
// image, about 1 KB: some 50 MB) to a temporary file, then:
// 1. `oddwire parse-sitemap FILE` in a process of its own, BENCH_RUNS times (default 3): wall time, CPU
//    (user + system) and peak RSS, from /usr/bin/time; the extra memory is the peak less that of the
//    same command on a one-entry sitemap.
// 2. Discovery of a site whose robots.txt lists that sitemap, served by a process of its own, as a server
//    with ROLE=all runs it (the worker's discovery handler with the feed parser pool, the web app on the
//    same thread, the embedded server in a fresh DATA_DIR, every URL queued), while another process asks /healthz
//    again as soon as it answers: the latency of each answer, its max and p99. /healthz asks the database,
//    so it also waits behind discovery's inserts; the event loop delay of this process (the server's
//    thread: perf_hooks' monitorEventLoopDelay) is how long any answer, an in-memory asset's too, waited.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import pino from "pino";
import { runMigrations } from "~/db/migrate";
import { createRepos } from "~/db/repos";
import { sources } from "~/db/schema";
import { createGuardedClient } from "~/integrations/http/guarded-client";
import type { JobContext } from "~/jobs/runner";
import { loadConfig } from "~/server/config";
import { createFeedParserPool } from "~/server/processes/feed-parser-pool";
import type { Logger } from "~/server/logger";
import { createPoliteness } from "~/server/politeness";
import { createWebApp } from "~/server/http/web";
import { workerHandlers } from "~/server/processes/worker-handlers";
import { freePort } from "~/test/http-test-server";
import { tempDir } from "~/test/temp-dir";
import { openFreshDatabase } from "./fresh-database";
import { percentile } from "./measure";

const out = (line: string) => process.stdout.write(`${line}\n`);
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const URLS = Number(process.env.BENCH_SITEMAP_URLS ?? 50_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const SITE_ORIGIN_PLACEHOLDER = "http://site.invalid";

function entry(origin: string, i: number): string {
  return (
    `<url><loc>${origin}/2026/11/${i}/a-goat-was-elected-mayor-of-a-small-town-and-then-the-whole-council-resigned-${i}</loc>` +
    `<lastmod>2026-11-20T10:${String(i % 60).padStart(2, "0")}:00+00:00</lastmod><changefreq>daily</changefreq><priority>0.8</priority>` +
    `<news:news><news:publication><news:name>The Example Times</news:name><news:language>en</news:language></news:publication>` +
    `<news:publication_date>2026-11-20T10:00:00+00:00</news:publication_date><news:title>A goat was elected mayor &amp; then the council resigned, number ${i}</news:title>` +
    `<news:keywords>goat, mayor, council, weird, news, politics</news:keywords></news:news>` +
    `<image:image><image:loc>${origin}/img/2026/11/${i}/goat-mayor-large-photo-${i}.jpg</image:loc>` +
    `<image:caption>The goat on the town hall steps, photographed by a resident on the morning of the vote, number ${i}</image:caption></image:image></url>\n`
  );
}

function sitemap(origin: string, count: number): string {
  const parts = [
    '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:news="http://www.google.com/schemas/sitemap-news/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">\n',
  ];
  for (let i = 0; i < count; i++) parts.push(entry(origin, i));
  parts.push("</urlset>\n");
  return parts.join("");
}

type Usage = { wallS: number; cpuS: number; peakMiB: number };

function timed(file: string): Usage {
  const run = spawnSync("/usr/bin/time", ["-f", "%e %U %S %M", process.execPath, path.join(ROOT, "bin/oddwire.mjs"), "parse-sitemap", file], {
    cwd: ROOT,
    encoding: "utf8",
    maxBuffer: 256 * 1024 * 1024,
    env: { ...process.env, LOG_LEVEL: "warn" },
  });
  if (run.status !== 0) throw new Error(`parse-sitemap failed: ${run.stderr}`);
  const [wall, user, system, kb] = run.stderr.trim().split("\n").at(-1)!.split(" ").map(Number) as [number, number, number, number];
  return { wallS: wall, cpuS: user + system, peakMiB: kb / 1024 };
}

const median = (values: number[]) => percentile(values, 50);

async function parseSitemapCommand(dir: string) {
  const big = path.join(dir, "big-sitemap.xml");
  writeFileSync(big, sitemap("https://www.example.com", URLS));
  const tiny = path.join(dir, "tiny-sitemap.xml");
  writeFileSync(tiny, sitemap("https://www.example.com", 1));
  const bytes = statSync(big).size;
  const baseline = Array.from({ length: RUNS }, () => timed(tiny));
  const runs = Array.from({ length: RUNS }, () => timed(big));
  const base = median(baseline.map((r) => r.peakMiB));
  out(JSON.stringify({ step: "parse-sitemap", bytes, urls: URLS, baseline, runs }));
  out("");
  out(`parse-sitemap of ${(bytes / 1e6).toFixed(1)} MB (${URLS.toLocaleString("en-US")} URLs), median of ${RUNS}:`);
  out("| | wall | CPU (user+sys) | peak RSS |");
  out("|---|---|---|---|");
  const row = (name: string, usage: Usage[]) =>
    out(`| ${name} | ${median(usage.map((r) => r.wallS)).toFixed(2)} s | ${median(usage.map((r) => r.cpuS)).toFixed(2)} s | ${Math.round(median(usage.map((r) => r.peakMiB)))} MiB |`);
  row("the large sitemap", runs);
  row("a one-entry sitemap (the command's own start-up)", baseline);
  out(`Extra memory for the large sitemap: ${Math.round(median(runs.map((r) => r.peakMiB)) - base)} MiB`);
  return bytes;
}

async function startChild(script: string, env: Record<string, string>): Promise<{ line: (predicate: (line: string) => boolean) => Promise<string>; stop: () => void }> {
  const child = spawn(process.execPath, ["-e", script], { env: { ...process.env, ...env }, stdio: ["pipe", "pipe", "inherit"] });
  const lines: string[] = [];
  const waiting: { predicate: (line: string) => boolean; resolve: (line: string) => void }[] = [];
  createInterface({ input: child.stdout! }).on("line", (line) => {
    lines.push(line);
    for (const w of waiting.splice(0)) {
      if (w.predicate(line)) w.resolve(line);
      else waiting.push(w);
    }
  });
  return {
    line: (predicate) =>
      new Promise((resolve) => {
        const found = lines.find(predicate);
        if (found) resolve(found);
        else waiting.push({ predicate, resolve });
      }),
    stop: () => child.stdin!.end(),
  };
}

// The site: robots.txt and the sitemap file (its placeholder origin replaced by the site's own).
const SITE = `
const http = require("node:http"); const fs = require("node:fs");
const server = http.createServer((req, res) => {
  const origin = "http://127.0.0.1:" + server.address().port;
  if (req.url === "/robots.txt") return res.writeHead(200, { "content-type": "text/plain" }).end("User-agent: *\\nAllow: /\\nSitemap: " + origin + "/sitemap.xml\\n");
  if (req.url === "/sitemap.xml") {
    const body = fs.readFileSync(process.env.SITEMAP_FILE, "utf8").replaceAll(process.env.PLACEHOLDER, origin);
    return res.writeHead(200, { "content-type": "application/xml" }).end(body);
  }
  res.writeHead(404).end();
});
server.listen(0, "127.0.0.1", () => console.log(JSON.stringify({ port: server.address().port })));
process.stdin.on("end", () => process.exit(0)); process.stdin.resume();`;

// Asks URL again as soon as it answers, until stdin ends: then prints each answer's latency.
const POLLER = `
const latencies = []; let failures = 0; let stop = false;
process.stdin.on("end", () => (stop = true)); process.stdin.resume();
(async () => {
  console.log("polling");
  while (!stop) {
    const start = performance.now();
    try { const r = await fetch(process.env.URL); await r.arrayBuffer(); if (r.status !== 200) failures++; } catch { failures++; }
    latencies.push(performance.now() - start);
  }
  console.log(JSON.stringify({ latencies, failures }));
  process.exit(0);
})();`;

async function discoveryWithHealthz(bytes: number) {
  const dir = mkdtempSync(path.join(os.tmpdir(), "oddwire-bench-sitemap-site-"));
  const file = path.join(dir, "sitemap.xml");
  writeFileSync(file, sitemap(SITE_ORIGIN_PLACEHOLDER, URLS));
  const site = await startChild(SITE, { SITEMAP_FILE: file, PLACEHOLDER: SITE_ORIGIN_PLACEHOLDER });
  const { port: sitePort } = JSON.parse(await site.line((l) => l.startsWith("{"))) as { port: number };
  const siteUrl = `http://127.0.0.1:${sitePort}`;
  const { database, cleanup } = await openFreshDatabase("embedded", { pgUrl: "", name: "oddwire_bench_sitemap" });
  const logger = pino({ level: "warn" }) as Logger;
  const parsers = createFeedParserPool({ logger });
  const fetcher = createGuardedClient({ userAgent: "Oddwire/bench (+http://localhost)", allowHosts: ["127.0.0.1"], timeoutMs: 120_000 });
  const dataDir = tempDir("oddwire-bench-sitemap-web-");
  let server: http.Server | undefined;
  try {
    await runMigrations(database);
    const repos = createRepos(database.db);
    const [source] = await database.db
      .insert(sources)
      .values({ name: "Bench big sitemap", sourceType: "web_scraping", websiteUrl: siteUrl, scrapingConfig: { crawlDelay: 0 } })
      .returning();
    const webPort = await freePort();
    const config = loadConfig({ NODE_ENV: "production", PORT: String(webPort), DATA_DIR: dataDir, AUTH_SECRET: "a-bench-secret-that-is-long-enough-0123456789" });
    const app = createWebApp({ config, database, logger, build: () => Promise.reject(new Error("no React build in this benchmark")) });
    server = http.createServer(app.nodeHandler).listen(webPort, "127.0.0.1");
    await new Promise((resolve) => server!.once("listening", resolve));
    const handlers = workerHandlers({
      config: { siteUrl: "http://oddwire.test" },
      repos,
      http: createPoliteness({ http: fetcher, repos, logger, siteUrl: "http://oddwire.test" }),
      logger,
      parseFeed: parsers.parse,
      parseSitemap: parsers.parseSitemap,
      renderer: null,
      facebook: null,
      schedulePost: async () => ({ jobId: "unused" }),
    });
    const poller = await startChild(POLLER, { URL: `http://127.0.0.1:${webPort}/healthz` });
    await poller.line((l) => l === "polling");
    const context: JobContext = { jobId: "bench", reportProgress: async () => undefined, signal: new AbortController().signal, resumedSince: null };
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    const started = performance.now();
    const result = (await handlers["crawl-discovery"]({ source_id: source!.id }, context)) as { sources: { found: number; queued: number; errors: string[] }[] };
    const seconds = (performance.now() - started) / 1000;
    delay.disable();
    poller.stop();
    const { latencies, failures } = JSON.parse(await poller.line((l) => l.startsWith("{"))) as { latencies: number[]; failures: number };
    const report = result.sources[0]!;
    out("");
    out(`Discovery of a site whose sitemap is ${(bytes / 1e6).toFixed(1)} MB, /healthz asked back to back by another process:`);
    out("| discovery | found | queued | /healthz answers | failed | /healthz max | p99 | p50 | event loop delay max | p99 |");
    out("|---|---|---|---|---|---|---|---|---|---|");
    const ms = (ns: number) => `${Math.round(ns / 1e6)} ms`;
    out(
      `| ${seconds.toFixed(1)} s | ${report.found.toLocaleString("en-US")} | ${report.queued.toLocaleString("en-US")} | ${latencies.length} | ${failures} | ${Math.round(Math.max(...latencies))} ms | ${Math.round(percentile(latencies, 99))} ms | ${Math.round(percentile(latencies, 50))} ms | ${ms(delay.max)} | ${ms(delay.percentile(99))} |`,
    );
    if (report.errors.length > 0) out(`errors: ${JSON.stringify(report.errors)}`);
  } finally {
    server?.closeAllConnections();
    server?.close();
    site.stop();
    await parsers.close();
    await fetcher.close();
    await cleanup();
    rmSync(dir, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const dir = mkdtempSync(path.join(os.tmpdir(), "oddwire-bench-sitemap-"));
try {
  out(`node ${process.version}, ${os.cpus().length} cores, load average ${os.loadavg().map((l) => l.toFixed(1)).join(" ")}`);
  const bytes = await parseSitemapCommand(dir);
  await discoveryWithHealthz(bytes);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
