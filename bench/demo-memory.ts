// Demo memory benchmark: `npm run bench:demo-memory` (see docs/benchmarks.md).
//
// For each WEB_CONCURRENCY in BENCH_WEB_CONCURRENCY (default "1,2"), one after another: starts the demo
// as a newcomer does (`bin/oddwire.mjs serve --demo`, what `npm run demo` runs once the build is made) with a fresh DATA_DIR,
// waits until it serves and every web process it forks has started, visits the home page BENCH_VISITS
// times (default 50, one after another), then measures the memory at rest at each of the times after the
// last visit that BENCH_SETTLE_SECONDS lists (default "5,30,60": V8 gives memory back over the first
// seconds of rest, and the pool closes connections idle for 10 s): every Node process of the server by RSS (the primary and each web process), and the
// embedded PostgreSQL server's processes by PSS (their shared buffers and code divided among them,
// rather than counted once per process). Prints a table per run, each run's total (Node RSS + database
// PSS), and what each further web process costs: the difference between the totals of consecutive runs.
// Targets (issue 32): WEB_CONCURRENCY=1 at most 200 MB in all; each further web process at most 150 MB.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { envSchema } from "~/server/config";
import { freePort } from "~/test/http-test-server";
import { tempDir } from "~/test/temp-dir";
import { type DatabaseProcessMemory, embeddedDatabaseMemory, intFromEnv, processTreeMemory, pssMiB } from "./measure";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const out = (line = "") => process.stdout.write(`${line}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const VISITS = intFromEnv("BENCH_VISITS", 50, 1);
const SETTLE_SECONDS = (process.env.BENCH_SETTLE_SECONDS?.trim() || "5,30,60").split(",").map((value) => {
  const n = Number(value.trim());
  if (!Number.isInteger(n) || n < 0) throw new Error(`BENCH_SETTLE_SECONDS: "${value}" is not a whole number of seconds`);
  return n;
}).sort((a, b) => a - b);
const CONCURRENCIES = (process.env.BENCH_WEB_CONCURRENCY?.trim() || "1,2").split(",").map((value) => {
  const n = Number(value.trim());
  if (!Number.isInteger(n) || n < 1) throw new Error(`BENCH_WEB_CONCURRENCY: "${value}" is not a whole number of web processes`);
  return n;
});
/** Issue 32's targets, in MB of 10^6 bytes (the stricter reading). */
const MAX_TOTAL_MB = 200;
const MAX_FURTHER_WEB_MB = 150;
const MIB = 2 ** 20;
const toMB = (mib: number) => (mib * MIB) / 1e6;

type NodeProcess = { pid: number; role: string; command: string; rssMiB: number; pssMiB: number };
type Run = { webConcurrency: number; restSeconds: number; nodes: NodeProcess[]; other: NodeProcess[]; database: DatabaseProcessMemory[]; nodeRssMiB: number; databasePssMiB: number; totalMiB: number };

const fmt = (n: number, digits = 0) => (Number.isFinite(n) ? n.toLocaleString("en", { minimumFractionDigits: digits, maximumFractionDigits: digits }) : "n/a");
const mib = (n: number) => `${fmt(n, 1)} MiB`;

/** One run: the demo with `webConcurrency` web processes, measured at each rest time after the visits. */
async function measureDemo(webConcurrency: number): Promise<Run[]> {
  const dataDir = tempDir("oddwire-bench-demo-");
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env };
  // The demo as a newcomer starts it: none of this shell's settings for the app, but these.
  for (const name of Object.keys(envSchema.shape)) delete env[name];
  Object.assign(env, { DATA_DIR: dataDir, PORT: String(port), HOST: "127.0.0.1", WEB_CONCURRENCY: String(webConcurrency) });
  const log: string[] = [];
  // As `npm run demo` runs it: the file itself, so that its first line gives Node its flags.
  const child: ChildProcess = spawn(path.join(ROOT, "bin", "oddwire.mjs"), ["serve", "--demo"], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
  const keep = (chunk: Buffer) => {
    log.push(...chunk.toString().split("\n").filter(Boolean));
    log.splice(0, Math.max(0, log.length - 40));
  };
  child.stdout!.on("data", keep);
  child.stderr!.on("data", keep);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  try {
    const started = performance.now();
    for (;;) {
      if (child.exitCode !== null || child.signalCode !== null) throw new Error(`the demo exited (${child.exitCode ?? child.signalCode}):\n${log.join("\n")}`);
      if (performance.now() - started > 180_000) throw new Error(`the demo did not serve within 3 minutes:\n${log.join("\n")}`);
      if (await fetch(`${url}/readyz`).then((r) => r.ok, () => false)) break;
      await sleep(200);
    }
    out(`  serving after ${fmt((performance.now() - started) / 1000, 1)} s`);
    // Forked web processes answer as each starts listening: wait until no more appear.
    let count = processTreeMemory(child.pid!).length;
    for (let stable = 0; stable < 10; stable++) {
      await sleep(200);
      const now = processTreeMemory(child.pid!).length;
      if (now !== count) stable = -1;
      count = now;
    }
    for (let i = 0; i < VISITS; i++) {
      const response = await fetch(`${url}/`);
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`GET / answered ${response.status}`);
    }
    const rested = performance.now();
    out(`  ${VISITS} home-page visits made; measuring at rest after ${SETTLE_SECONDS.join(", ")} s`);
    const runs: Run[] = [];
    for (const restSeconds of SETTLE_SECONDS) {
      await sleep(Math.max(0, restSeconds * 1000 - (performance.now() - rested)));
      runs.push(measureAtRest(child.pid!, dataDir, webConcurrency, restSeconds));
    }
    return runs;
  } finally {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGTERM");
      await Promise.race([exited, sleep(30_000)]);
    }
    // The server stops its database when it stops; should any of this run's database be left, by its ids.
    for (const p of embeddedDatabaseMemory(dataDir)) {
      try {
        process.kill(p.pid, "SIGKILL");
      } catch {
        // gone meanwhile
      }
    }
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The demo's memory now: its Node processes by RSS, its database's by PSS. */
function measureAtRest(serverPid: number, dataDir: string, webConcurrency: number, restSeconds: number): Run {
    const database = embeddedDatabaseMemory(dataDir);
    if (database.length === 0) throw new Error(`no embedded PostgreSQL found for ${dataDir}`);
    const databasePids = new Set(database.map((p) => p.pid));
    const tree = processTreeMemory(serverPid).filter((p) => !databasePids.has(p.pid));
    const isNode = (command: string) => /\.(m?js|ts)(\s|$)/.test(command);
    const forked = tree.filter((p) => p.parent !== null && isNode(p.command));
    const withRole = (p: (typeof tree)[number]): NodeProcess => ({
      pid: p.pid,
      role: p.parent === null ? (forked.length > 0 ? "primary (jobs)" : "the one process (web and jobs)") : forked.includes(p) ? "web" : "other",
      command: p.command,
      rssMiB: p.rssMiB,
      pssMiB: pssMiB(p.pid),
    });
    const nodes = tree.filter((p) => p.parent === null || forked.includes(p)).map(withRole);
    const other = tree.filter((p) => p.parent !== null && !forked.includes(p)).map(withRole);
    const nodeRssMiB = nodes.reduce((sum, p) => sum + p.rssMiB, 0);
    const databasePssMiB = database.reduce((sum, p) => sum + p.pssMiB, 0);
    return { webConcurrency, restSeconds, nodes, other, database, nodeRssMiB, databasePssMiB, totalMiB: nodeRssMiB + databasePssMiB };
}

function printRun(run: Run) {
  out(`\nWEB_CONCURRENCY=${run.webConcurrency}, at rest ${run.restSeconds} s after ${VISITS} home-page visits:\n`);
  out("| process | RSS | PSS |");
  out("|---|---:|---:|");
  for (const p of run.nodes) out(`| Node: ${p.role} (\`${p.command}\`) | ${mib(p.rssMiB)} | ${mib(p.pssMiB)} |`);
  for (const p of run.other) out(`| other, not counted: \`${p.command}\` | ${mib(p.rssMiB)} | ${mib(p.pssMiB)} |`);
  for (const p of run.database) out(`| PostgreSQL: \`${p.command}\` | ${mib(p.rssMiB)} | ${mib(p.pssMiB)} |`);
  out("");
  out(`Node processes by RSS: ${mib(run.nodeRssMiB)}; the database's ${run.database.length} processes by PSS: ${mib(run.databasePssMiB)}; ` +
    `total ${mib(run.totalMiB)} (${fmt(toMB(run.totalMiB), 1)} MB).`);
}

const build = spawnSync(process.execPath, [path.join(ROOT, "scripts", "ensure-build.mjs")], { cwd: ROOT, stdio: "inherit" });
if (build.status !== 0) {
  console.error("bench: building the web app failed");
  process.exit(1);
}
const cpus = os.cpus();
const commit = spawnSync("git", ["rev-parse", "--short", "HEAD"], { cwd: ROOT, encoding: "utf8" }).stdout.trim();
out("Oddwire demo memory at rest");
out(`Command: ${process.env.BENCH_WEB_CONCURRENCY ? `BENCH_WEB_CONCURRENCY=${process.env.BENCH_WEB_CONCURRENCY} ` : ""}npm run bench:demo-memory (commit ${commit || "unknown"})`);
out(
  `Machine: ${cpus.length} CPU cores (${cpus[0]?.model.trim() ?? "unknown model"}), ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB RAM, ${os.type()} ${os.release()}, ` +
    `Node ${process.version}; load average at start ${os.loadavg().map((l) => l.toFixed(2)).join(", ")}`,
);
const runs: Run[] = [];
for (const webConcurrency of CONCURRENCIES) {
  out(`\nStarting the demo with WEB_CONCURRENCY=${webConcurrency}...`);
  for (const run of await measureDemo(webConcurrency)) {
    printRun(run);
    runs.push(run);
  }
}

out("\n## Summary\n");
out("| WEB_CONCURRENCY | at rest | Node processes | Node RSS | database processes | database PSS | total |");
out("|---:|---:|---:|---:|---:|---:|---:|");
for (const run of runs) {
  out(
    `| ${run.webConcurrency} | ${run.restSeconds} s | ${run.nodes.length} | ${mib(run.nodeRssMiB)} | ${run.database.length} | ${mib(run.databasePssMiB)} | ` +
      `${mib(run.totalMiB)} (${fmt(toMB(run.totalMiB), 1)} MB) |`,
  );
}
out("");
for (const restSeconds of SETTLE_SECONDS) {
  const atRest = runs.filter((run) => run.restSeconds === restSeconds).sort((a, b) => a.webConcurrency - b.webConcurrency);
  const one = atRest.find((run) => run.webConcurrency === 1);
  if (one) {
    const mb = toMB(one.totalMiB);
    out(
      mb <= MAX_TOTAL_MB
        ? `- ${restSeconds} s at rest: WEB_CONCURRENCY=1 at most ${MAX_TOTAL_MB} MB in all: met (${fmt(mb, 1)} MB).`
        : `- ${restSeconds} s at rest: WEB_CONCURRENCY=1 at most ${MAX_TOTAL_MB} MB in all: missed (${fmt(mb, 1)} MB, ${fmt(mb - MAX_TOTAL_MB, 1)} MB over).`,
    );
  }
  // What one more web process costs: the growth of the total from one run to the next (its own RSS and
  // the database's connections it adds). From 1 to 2 that growth also holds the split of the one process
  // into a primary that runs the jobs and two web processes; from 2 on, it is one more web process each.
  for (let i = 1; i < atRest.length; i++) {
    const [from, to] = [atRest[i - 1]!, atRest[i]!];
    const each = toMB((to.totalMiB - from.totalMiB) / (to.webConcurrency - from.webConcurrency));
    const split = from.webConcurrency === 1 ? " (the one process split into a primary for the jobs and two web processes)" : "";
    out(
      `- ${restSeconds} s at rest: each further web process at most ${MAX_FURTHER_WEB_MB} MB, WEB_CONCURRENCY ${from.webConcurrency} to ${to.webConcurrency}${split}: ` +
        (each <= MAX_FURTHER_WEB_MB ? `met (${fmt(each, 1)} MB each).` : `missed (${fmt(each, 1)} MB each, ${fmt(each - MAX_FURTHER_WEB_MB, 1)} MB over).`),
    );
  }
  for (const run of atRest) {
    const web = run.nodes.filter((p) => p.role === "web");
    if (web.length === 0) continue;
    out(
      `- ${restSeconds} s at rest, WEB_CONCURRENCY=${run.webConcurrency}: each web process by its own RSS ${web.map((p) => `${fmt(toMB(p.rssMiB), 1)} MB`).join(", ")}; ` +
        `the primary ${fmt(toMB(run.nodes.find((p) => p.role !== "web")?.rssMiB ?? NaN), 1)} MB.`,
    );
  }
}
out(`load average at the end ${os.loadavg().map((l) => l.toFixed(2)).join(", ")}`);
