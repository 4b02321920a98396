// Lighthouse benchmark of the public pages on a phone: `npm run bench:lighthouse` (see docs/benchmarks.md).
//
// Starts the production server on a fresh embedded database with the demo content (`serve --demo`:
// 8 categories, 340 stories), then runs Lighthouse's default mobile audit (a Moto G Power sized screen,
// simulated slow 4G and a 4x slower CPU) in Debian's Chromium against the home page, a category page
// and the featured story's page, several times each, and prints the median of each score and metric
// beside the targets. Search is audited too, without SEO (its pages are noindex).
//
// Lighthouse is not a project dependency: it is run with `npm exec` at the pinned version below, the
// last one that runs on Node 20 (13.x needs Node 22).
//
// Environment: BENCH_RUNS (runs per page, default 5), CHROMIUM_PATH (default /usr/bin/chromium),
// BENCH_PORT (default 3499), BENCH_PAGES (the pages to audit, by name: "home,story"; default all),
// BENCH_REPORTS (a folder to keep every Lighthouse report in, as JSON).

import { spawn, spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { tempDir } from "~/test/temp-dir";

const LIGHTHOUSE = "lighthouse@12.8.2";
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const CHROMIUM = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
const PORT = Number(process.env.BENCH_PORT ?? 3499);
const BASE = `http://127.0.0.1:${PORT}`;
const ONLY = process.env.BENCH_PAGES?.split(",").map((name) => name.trim()).filter(Boolean);
const REPORTS = process.env.BENCH_REPORTS ? path.resolve(process.env.BENCH_REPORTS) : null;
// The targets (issue 35), on home, category and story pages: seconds for FCP and LCP.
const TARGETS = { performance: 99, accessibility: 100, "best-practices": 100, seo: 100, cls: 0.05, fcp: 1.0, lcp: 1.5 };

const out = (line = "") => process.stdout.write(`${line}\n`);

type Report = {
  categories: Record<string, { score: number | null }>;
  audits: Record<string, { numericValue?: number; details?: { items?: { node?: { snippet?: string } }[] } }>;
};

type Run = {
  performance: number;
  accessibility: number;
  "best-practices": number;
  seo: number;
  fcp: number;
  lcp: number;
  tbt: number;
  cls: number;
  si: number;
  /** Bytes over the wire for the whole load. */
  bytes: number;
};

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function lighthouse(url: string, outputDir: string, n: number, retry = true): Run {
  const output = path.join(outputDir, `run-${n}.json`);
  const result = spawnSync(
    "npm",
    [
      "exec",
      "--yes",
      `--package=${LIGHTHOUSE}`,
      "--",
      "lighthouse",
      url,
      "--quiet",
      "--output=json",
      `--output-path=${output}`,
      "--chrome-flags=--headless=new --no-sandbox --disable-gpu",
    ],
    { cwd: outputDir, env: { ...process.env, CHROME_PATH: CHROMIUM }, encoding: "utf8" },
  );
  if (result.status !== 0) {
    // Lighthouse now and then loses a trace (NO_NAVSTART): one more try, then give up.
    if (retry) return lighthouse(url, outputDir, n, false);
    throw new Error(`lighthouse failed on ${url}: ${result.stderr}`);
  }
  if (REPORTS) copyFileSync(output, path.join(REPORTS, `${path.basename(outputDir)}-run-${n}.json`));
  const report = JSON.parse(readFileSync(output, "utf8")) as Report;
  const score = (name: string) => Math.round((report.categories[name]?.score ?? 0) * 100);
  const value = (name: string) => report.audits[name]?.numericValue ?? Number.NaN;
  return {
    performance: score("performance"),
    accessibility: score("accessibility"),
    "best-practices": score("best-practices"),
    seo: score("seo"),
    fcp: value("first-contentful-paint"),
    lcp: value("largest-contentful-paint"),
    tbt: value("total-blocking-time"),
    cls: value("cumulative-layout-shift"),
    si: value("speed-index"),
    bytes: value("total-byte-weight"),
  };
}

/** What Chromium asks for a picture with: the image route answers in the best format it names. */
const CHROMIUM_IMAGE_ACCEPT = "image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8";

// A kept-alive connection the server has just closed fails the next request: try again on a new one.
async function get(url: string, headers: Record<string, string> = {}): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await (await fetch(url, { headers })).text();
    } catch (error) {
      if (attempt >= 3) throw error;
    }
  }
}

async function waitForServer(url: string, timeoutMs: number) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`no server at ${url} after ${timeoutMs} ms`);
}

const dataDir = tempDir("oddwire-lighthouse-");
const build = spawnSync(process.execPath, [path.join(ROOT, "scripts", "ensure-build.mjs")], { cwd: ROOT, stdio: "inherit" });
if (build.status !== 0) process.exit(build.status ?? 1);
const server = spawn(process.execPath, [path.join(ROOT, "bin", "oddwire.mjs"), "serve", "--demo"], {
  cwd: ROOT,
  env: { ...process.env, DATA_DIR: dataDir, PORT: String(PORT), HOST: "127.0.0.1", LOG_LEVEL: "warn", SITE_URL: BASE },
  stdio: ["ignore", "ignore", "inherit"],
});
try {
  await waitForServer(`${BASE}/healthz`, 120_000);
  const home = await get(`${BASE}/`);
  const story = /href="(\/story\/[^"]+)"/.exec(home)?.[1];
  const category = /href="(\/category\/[^"]+)"/.exec(home)?.[1];
  if (!story || !category) throw new Error("the home page links no story or category");
  const pages = [
    { name: "home", path: "/" },
    { name: "category", path: category },
    { name: "story", path: story },
    { name: "search", path: "/search?q=parrot" },
  ].filter((page) => !ONLY || ONLY.includes(page.name));
  if (REPORTS) mkdirSync(REPORTS, { recursive: true });

  out(`Lighthouse ${LIGHTHOUSE.split("@")[1]} mobile (default config, simulated throttling), Chromium ${spawnSync(CHROMIUM, ["--version"], { encoding: "utf8" }).stdout.trim()}`);
  out(`Demo content (340 stories), ${os.cpus().length} cores (${os.cpus()[0]?.model ?? "unknown CPU"}), Node ${process.version}; median of ${RUNS} runs per page.`);
  out(`Load average at the start: ${os.loadavg().map((n) => n.toFixed(2)).join(", ")}.`);
  out();
  out("| page | performance | accessibility | best practices | SEO | FCP (s) | LCP (s) | TBT (ms) | CLS | speed index (s) | KB over the wire | performance, each run |");
  out("|---|---|---|---|---|---|---|---|---|---|---|---|");
  let missed = 0;
  for (const page of pages) {
    const outputDir = mkdtempSync(path.join(os.tmpdir(), `oddwire-lighthouse-${page.name}-`));
    const runs: Run[] = [];
    // A first load warms the page cache and the picture variants (each is made when first asked for, in
    // the format the browser accepts), as a visitor after the first would find them: the page, then every
    // picture size it names.
    const html = await get(`${BASE}${page.path}`);
    for (const picture of new Set(html.match(/\/img\/\d+\/[0-9a-f]+\/\d+/g) ?? [])) await get(`${BASE}${picture}`, { accept: CHROMIUM_IMAGE_ACCEPT });
    for (let n = 0; n < RUNS; n++) runs.push(lighthouse(`${BASE}${page.path}`, outputDir, n));
    rmSync(outputDir, { recursive: true, force: true });
    const m = (key: keyof Run) => median(runs.map((r) => r[key]));
    // Search is noindex: its SEO score is not counted.
    const search = page.name === "search";
    out(
      `| ${page.name} \`${page.path}\` | ${m("performance")} | ${m("accessibility")} | ${m("best-practices")} | ${search ? "n/a" : m("seo")} | ${(m("fcp") / 1000).toFixed(2)} | ${(m("lcp") / 1000).toFixed(2)} | ${m("tbt").toFixed(0)} | ${m("cls").toFixed(3)} | ${(m("si") / 1000).toFixed(2)} | ${(m("bytes") / 1024).toFixed(0)} | ${runs.map((r) => r.performance).join(", ")} |`,
    );
    if (!search) {
      if (m("performance") < TARGETS.performance || m("accessibility") < TARGETS.accessibility || m("best-practices") < TARGETS["best-practices"]) missed++;
      if (m("seo") < TARGETS.seo || m("cls") >= TARGETS.cls) missed++;
      if (m("fcp") / 1000 > TARGETS.fcp || m("lcp") / 1000 > TARGETS.lcp) missed++;
    }
  }
  out(`Load average at the end: ${os.loadavg().map((n) => n.toFixed(2)).join(", ")}.`);
  out();
  out(
    missed === 0
      ? `Every target met on home, category and story (performance >= ${TARGETS.performance}, FCP <= ${TARGETS.fcp} s, LCP <= ${TARGETS.lcp} s, CLS < ${TARGETS.cls}, accessibility, best practices and SEO 100).`
      : `${missed} target(s) missed.`,
  );
} finally {
  server.kill("SIGTERM");
  await new Promise((resolve) => server.once("exit", resolve));
  rmSync(dataDir, { recursive: true, force: true });
}
