// Story image serving benchmark: `npm run bench:images` (see docs/benchmarks.md).
//
// Starts the real production server in this process on the embedded server in a fresh DATA_DIR with published stories
// whose pictures are a photo-like 2000 x 1333 JPEG on a site of our own on 127.0.0.1, then measures the
// image route:
//   - cold: the first request for a variant (fetch, check, store, resize, encode), and a variant of a
//     picture whose original is already stored (resize and encode only), one request at a time;
//   - warm: autocannon against cached variants (from memory, and read from disk each time by a second
//     server whose in-memory cache holds nothing), each beside the same bytes served as a static file by
//     the same server, and the site's CSS file.
// The enhancement half of `npm run bench:images` (bench/images-enhance.ts) runs afterwards when it is there.
//
// Environment: BENCH_DURATION (seconds per load target, default 10), BENCH_CONNECTIONS (default 50),
// BENCH_COLD_SAMPLES (cold requests of each kind, default 15), BENCH_ROUNDS (interleaved load rounds, default 2),
// BENCH_PARTS (default "serve,enhance").

// React must load in production mode: set before anything imports it (project modules are imported
// dynamically below, after this line has run).
process.env.NODE_ENV = "production";

import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { tempDir } from "~/test/temp-dir";
import { intFromEnv, percentile } from "./measure";
import { serveStaticFiles, STATIC_PREFIX } from "./static-files";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

type Histogram = { average: number; p50: number; p99: number; max: number };
type AutocannonResult = { requests: Histogram & { total: number }; latency: Histogram; throughput: Histogram; errors: number; non2xx: number };
type AutocannonOptions = { url: string; connections: number; duration: number; workers?: number; headers?: Record<string, string> };
const autocannon = createRequire(import.meta.url)("autocannon") as (options: AutocannonOptions) => Promise<AutocannonResult>;

const DURATION = intFromEnv("BENCH_DURATION", 10, 1);
const CONNECTIONS = intFromEnv("BENCH_CONNECTIONS", 50, 1);
const COLD_SAMPLES = intFromEnv("BENCH_COLD_SAMPLES", 15, 3);
const ROUNDS = intFromEnv("BENCH_ROUNDS", 2, 1);
const PARTS = new Set((process.env.BENCH_PARTS ?? "serve,enhance").split(",").map((p) => p.trim()));
// The targets: warm variants at least half the static file's requests/s; a cold 2000 px JPEG
// to 800 px WebP under 150 ms.
const MIN_RATIO = 0.5;
const MAX_COLD_MS = 150;
const out = (line = "") => process.stdout.write(`${line}\n`);
const fmt = (n: number, digits = 0) => (Number.isFinite(n) ? n.toFixed(digits) : "n/a");

async function timedGet(url: string, accept?: string): Promise<{ ms: number; status: number; type: string | null; bytes: number; cache: string | null }> {
  const started = performance.now();
  const response = await fetch(url, { headers: accept ? { accept } : {}, redirect: "manual" });
  const body = await response.arrayBuffer();
  return {
    ms: performance.now() - started,
    status: response.status,
    type: response.headers.get("content-type"),
    bytes: body.byteLength,
    cache: response.headers.get("cache-control"),
  };
}

/** Waits until the server answers its health check promptly three times in a row (leftover work done). */
async function settle(baseUrl: string): Promise<void> {
  const started = performance.now();
  let quick = 0;
  while (quick < 3 && performance.now() - started < 60_000) {
    const result = await timedGet(`${baseUrl}/healthz`).catch(() => ({ ms: Infinity, status: 0 }));
    quick = result.status === 200 && result.ms < 50 ? quick + 1 : 0;
    if (quick < 3) await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function staticAssetPath(): string {
  const assets = path.join(ROOT, "build", "client", "assets");
  const css = readdirSync(assets)
    .filter((f) => f.endsWith(".css"))
    .sort()[0];
  if (!css) throw new Error("no CSS asset in build/client/assets");
  return `/assets/${css}`;
}

type ColdRow = { label: string; samples: number[]; bytes: number; target?: number };
type LoadTarget = { label: string; url: string; accept?: string; bytes: number; runs?: AutocannonResult[] };

/** A target's figures averaged over its rounds. */
function summary(target: LoadTarget) {
  const runs = target.runs ?? [];
  const mean = (pick: (r: AutocannonResult) => number) => runs.reduce((sum, r) => sum + pick(r), 0) / runs.length;
  return {
    rps: mean((r) => r.requests.average),
    p50: mean((r) => r.latency.p50),
    p99: mean((r) => r.latency.p99),
    mbps: mean((r) => r.throughput.average) / 2 ** 20,
    failures: runs.reduce((sum, r) => sum + r.errors + r.non2xx, 0),
  };
}


async function benchServing(): Promise<string[]> {
  const { runMigrations } = await import("~/db/migrate");
  const { makeStory } = await import("~/db/testing/factories");
  const { createGuardedClient, userAgentFor } = await import("~/integrations/http/guarded-client");
  const { createImageStore } = await import("~/integrations/images/image-store");
  const { renderVariant } = await import("~/integrations/images/resize");
  const { LOGO_SVG, photoJpeg } = await import("~/integrations/images/testing");
  const { storyImagePath } = await import("~/lib/story-image");
  const { loadConfig } = await import("~/server/config");
  const { openConfiguredDatabase } = await import("~/server/database");
  const { createLogger } = await import("~/server/logger");
  const { loadServerBuild, startWebServer } = await import("~/server/http/web");

  const photo = await photoJpeg(2000, 1333);
  // The pictures' site: every /photo-N.jpg is the same photo under its own address.
  let siteRequests = 0;
  const site = createServer((req, res) => {
    siteRequests++;
    if (!/^\/photo-\d+\.jpg$/.test(req.url ?? "")) return void res.writeHead(404).end();
    res.writeHead(200, { "content-type": "image/jpeg", "content-length": photo.length }).end(photo);
  });
  await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
  const siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;

  const dataDir = tempDir("oddwire-bench-images-");
  const staticDir = path.join(dataDir, "static");
  mkdirSync(staticDir);
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "warn", FETCH_ALLOW_HOSTS: "127.0.0.1" };
  delete env.DATABASE_URL;
  delete env.SITE_URL;
  delete env.IMAGE_DIR;
  const config = loadConfig(env);
  const logger = createLogger({ level: "warn", name: "oddwire-bench" });
  const database = await openConfiguredDatabase(config, logger);
  const build = await loadServerBuild();
  const servers: { close(): Promise<void> }[] = [];
  const http = createGuardedClient({ userAgent: userAgentFor(config.siteUrl), allowHosts: config.fetchAllowHosts });
  try {
    await runMigrations(database);
    const made: { id: number; imageUrl: string }[] = [];
    for (let n = 1; n <= 2 * COLD_SAMPLES + 1; n++) {
      const imageUrl = `${siteUrl}/photo-${n}.jpg`;
      made.push({ id: (await makeStory(database.db, { imageUrl, status: "published" })).id, imageUrl });
    }
    // The real server, as serve.ts builds it; and a second one over the same database and image
    // directory whose in-memory cache holds nothing, so every answer is read from disk.
    const web = await startWebServer({ config, database, logger, build, http, before: [serveStaticFiles(staticDir)] });
    servers.push(web);
    const baseUrl = `http://127.0.0.1:${new URL(web.url).port}`;
    const diskOnly = await startWebServer({
      config,
      database,
      logger,
      build,
      http,
      images: createImageStore({ dir: config.imageDir, maxBytes: config.imageCacheMb * 2 ** 20, http, logoSvg: LOGO_SVG, memoryBytes: 1 }),
    });
    servers.push(diskOnly);
    const diskUrl = `http://127.0.0.1:${new URL(diskOnly.url).port}`;
    out(`Serving on ${baseUrl} (and ${diskUrl} without the in-memory cache); pictures on ${siteUrl}`);

    // ---- Cold ----
    const cold: ColdRow[] = [];
    const firstStories = made.slice(0, COLD_SAMPLES);
    const storedStories = made.slice(COLD_SAMPLES, 2 * COLD_SAMPLES);
    // One request at a time: each task starts only when the previous one is done.
    const sample = async (label: string, tasks: (() => Promise<{ ms: number; bytes: number }>)[], target?: number) => {
      const row: ColdRow = { label, samples: [], bytes: 0, target };
      for (const task of tasks) {
        const result = await task();
        row.samples.push(result.ms);
        row.bytes = result.bytes;
      }
      cold.push(row);
    };
    const check = async (url: string, accept: string | undefined, type: string) => {
      const result = await timedGet(url, accept);
      if (result.status !== 200 || result.type !== type || result.cache?.includes("immutable") !== true) {
        throw new Error(`GET ${url} answered ${result.status} ${result.type} (${result.cache}), not a cached ${type}: the benchmark cannot run`);
      }
      return result;
    };
    await sample(
      "first request: fetch 2000 x 1333 JPEG, check, store, resize to 800 px WebP",
      firstStories.map((s) => () => check(`${baseUrl}${storyImagePath(s, 800)}`, "image/webp", "image/webp")),
    );
    // The originals of the next stories are fetched and stored first (a small JPEG variant), then timed.
    for (const s of storedStories) await check(`${baseUrl}${storyImagePath(s, 320, { jpeg: true })}`, undefined, "image/jpeg");
    await sample(
      "stored original -> 800 px WebP (resize and encode)",
      storedStories.map((s) => () => check(`${baseUrl}${storyImagePath(s, 800)}`, "image/webp", "image/webp")),
      MAX_COLD_MS,
    );
    await sample(
      "stored original -> 800 px AVIF",
      storedStories.map((s) => () => check(`${baseUrl}${storyImagePath(s, 800)}`, "image/avif", "image/avif")),
    );
    await sample(
      "stored original -> 1200 px JPEG",
      storedStories.map((s) => () => check(`${baseUrl}${storyImagePath(s, 1200, { jpeg: true })}`, undefined, "image/jpeg")),
    );
    await sample(
      "sharp alone, in this process: 2000 px JPEG -> 800 px WebP",
      Array.from({ length: COLD_SAMPLES }, () => async () => {
        const started = performance.now();
        const bytes = await renderVariant(photo, { width: 800, height: 450, format: "webp" });
        return { ms: performance.now() - started, bytes: bytes.length };
      }),
    );
    const requestsBefore = siteRequests;

    // ---- Warm ----
    // Each variant is measured beside the very same bytes served as a static file by the same server
    // (a plain node handler, serveStaticFiles above, reading the file on every request): on this
    // machine, the load generator moves incompressible bytes (pictures) at about a third of the rate
    // of text, so only equal bytes compare fairly. The site's CSS file is a second reference, as in
    // bench:public. Every target runs ROUNDS times, interleaved, and its figures are averaged: the
    // machine is shared.
    const hot = made[0]!;
    const variants: { label: string; file: string; path: string; accept?: string; server: string }[] = [
      { label: "800 px WebP, from memory", file: "800.webp", path: storyImagePath(hot, 800), accept: "image/webp", server: baseUrl },
      { label: "480 px AVIF, from memory", file: "480.avif", path: storyImagePath(hot, 480), accept: "image/avif,image/webp,*/*", server: baseUrl },
      { label: "1200 px JPEG, from memory", file: "1200.jpg", path: storyImagePath(hot, 1200, { jpeg: true }), server: baseUrl },
      { label: "800 px WebP, read from disk", file: "800.webp", path: storyImagePath(hot, 800), accept: "image/webp", server: diskUrl },
    ];
    const targets: LoadTarget[] = [{ label: "site CSS (reference)", url: `${baseUrl}${staticAssetPath()}`, bytes: 0 }];
    const pairs: { variant: LoadTarget; static: LoadTarget }[] = [];
    for (const variant of variants) {
      const response = await fetch(`${variant.server}${variant.path}`, { headers: variant.accept ? { accept: variant.accept } : {} });
      if (response.status !== 200) throw new Error(`GET ${variant.path} answered ${response.status}`);
      const bytes = Buffer.from(await response.arrayBuffer());
      writeFileSync(path.join(staticDir, variant.file), bytes);
      const staticUrl = `${baseUrl}${STATIC_PREFIX}/${variant.file}`;
      const match =
        targets.find((t) => t.url === staticUrl) ??
        ({ label: `the same bytes as a static file (${variant.file})`, url: staticUrl, bytes: bytes.length } as LoadTarget);
      if (!targets.includes(match)) targets.push(match);
      const target: LoadTarget = { label: `variant ${variant.label}`, url: `${variant.server}${variant.path}`, accept: variant.accept, bytes: bytes.length };
      targets.push(target);
      pairs.push({ variant: target, static: match });
    }
    targets[0]!.bytes = (await timedGet(targets[0]!.url)).bytes;
    for (let round = 1; round <= ROUNDS; round++) {
      for (const target of targets) {
        out(`  round ${round}/${ROUNDS}: autocannon ${target.label}, ${CONNECTIONS} connections, ${DURATION} s ...`);
        const result = await autocannon({
          url: target.url,
          connections: CONNECTIONS,
          duration: DURATION,
          workers: 1,
          ...(target.accept ? { headers: { accept: target.accept } } : {}),
        });
        await settle(baseUrl);
        target.runs = [...(target.runs ?? []), result];
        out(`    ${fmt(result.requests.average)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, ${fmt(result.throughput.average / 2 ** 20, 1)} MiB/s`);
      }
    }
    if (siteRequests !== requestsBefore) throw new Error(`the warm runs fetched ${siteRequests - requestsBefore} pictures again`);

    // ---- Report ----
    const css = summary(targets[0]!);
    const lines = [
      `${made.length} published stories; pictures: one ${(photo.length / 1024).toFixed(0)} KiB photo-like 2000 x 1333 JPEG (synthetic: ` +
        "blurred colour fields with grain) under a different address per story, on 127.0.0.1.",
      "",
      `Cold, one request at a time (${COLD_SAMPLES} samples each, each a variant never rendered before):`,
      "",
      "| request | median ms | p95 ms | max ms | bytes | target met |",
      "|---|---:|---:|---:|---:|---|",
      ...cold.map((row) => {
        const med = percentile(row.samples, 50);
        const met = row.target === undefined ? "" : `${med < row.target ? "yes" : "NO"} (median < ${row.target} ms)`;
        return `| ${row.label} | ${fmt(med, 1)} | ${fmt(percentile(row.samples, 95), 1)} | ${fmt(Math.max(...row.samples), 1)} | ${row.bytes} | ${met} |`;
      }),
      "",
      `Warm, autocannon ${CONNECTIONS} connections x ${DURATION} s per target, one target at a time, ${ROUNDS} interleaved rounds averaged:`,
      "",
      "| target | bytes | req/s | p50 ms | p99 ms | MiB/s | errors |",
      "|---|---:|---:|---:|---:|---:|---:|",
      ...targets.map((t) => {
        const m = summary(t);
        return `| ${t.label} | ${t.bytes} | ${fmt(m.rps)} | ${fmt(m.p50)} | ${fmt(m.p99)} | ${fmt(m.mbps, 1)} | ${m.failures} |`;
      }),
      "",
      "| variant | req/s vs the same bytes as a static file | req/s vs site CSS | MiB/s vs site CSS | target met (req/s >= 0.5 of the same static file) |",
      "|---|---:|---:|---:|---|",
      ...pairs.map(({ variant, static: reference }) => {
        const v = summary(variant);
        const r = summary(reference);
        const ratio = v.rps / r.rps;
        const failed = v.failures > 0 ? ` (${v.failures} errors or non-2xx)` : "";
        return `| ${variant.label} | ${fmt(ratio, 2)} | ${fmt(v.rps / css.rps, 2)} | ${fmt(v.mbps / css.mbps, 2)} | ${ratio >= MIN_RATIO && !failed ? "yes" : "NO"}${failed} |`;
      }),
      "",
      `Image directory after the run: ${(dirBytes(config.imageDir) / 2 ** 20).toFixed(1)} MiB.`,
    ];
    return lines;
  } finally {
    for (const server of servers.reverse()) await server.close();
    await http.close();
    await database.close();
    site.closeAllConnections();
    await new Promise((resolve) => site.close(resolve));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function dirBytes(dir: string): number {
  if (!existsSync(dir)) return 0;
  let total = 0;
  for (const entry of readdirSync(dir, { recursive: true })) {
    const stat = statSync(path.join(dir, String(entry)));
    if (stat.isFile()) total += stat.size;
  }
  return total;
}

async function main(): Promise<number> {
  const build = spawnSync(process.execPath, [path.join(ROOT, "scripts", "ensure-build.mjs")], { cwd: ROOT, stdio: "inherit" });
  if (build.status !== 0) {
    console.error("bench: building the web app failed");
    return 1;
  }
  const cpus = os.cpus();
  const machine = `${cpus.length} CPU cores (${cpus[0]?.model.trim() ?? "unknown model"}), ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB RAM, ${os.type()} ${os.release()}, Node ${process.version}`;
  const command = [
    ...["BENCH_DURATION", "BENCH_CONNECTIONS", "BENCH_COLD_SAMPLES", "BENCH_ROUNDS", "BENCH_PARTS"].filter((n) => process.env[n]?.trim()).map((n) => `${n}=${process.env[n]}`),
    "npm run bench:images",
  ].join(" ");
  if (PARTS.has("serve")) {
    out("Oddwire image serving benchmark");
    out(`Command: ${command}`);
    out(`Machine: ${machine}`);
    const lines = await benchServing();
    out("\n# Summary: serving\n");
    out(`Command: \`${command}\``);
    out(`Machine: ${machine}`);
    out();
    for (const line of lines) out(line);
  }
  const enhance = path.join(ROOT, "bench", "images-enhance.ts");
  if (PARTS.has("enhance") && existsSync(enhance)) {
    out("\n# Enhancement\n");
    const run = spawnSync(process.execPath, ["--import", "tsx", enhance], { cwd: ROOT, stdio: "inherit" });
    if (run.status !== 0) return run.status ?? 1;
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
