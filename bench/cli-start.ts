// CLI start-up benchmark: `npm run bench:cli` (see docs/benchmarks.md).
//
// Runs `oddwire --help` and `oddwire normalize-url URL` BENCH_RUNS times each (default 20) as a shell
// script would, one process after another, after one warm-up run (which also makes the server bundle
// if a source changed), and reports the median and p90 wall time of each. The reference is a bare
// `node -e 0` timed the same way in the same run: the part of every command that is Node's own.
import { spawnSync } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { percentile } from "./measure";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const BIN = path.join(ROOT, "bin", "oddwire.mjs");
const out = (line: string) => process.stdout.write(`${line}\n`);
const RUNS = Number(process.env.BENCH_RUNS ?? 20);

const cases: { name: string; args: string[] }[] = [
  { name: "node -e 0 (reference)", args: ["-e", "0"] },
  { name: "oddwire --help", args: [BIN, "--help"] },
  { name: "oddwire normalize-url URL", args: [BIN, "normalize-url", "https://Example.com/a/?utm_source=x&b=1"] },
];

function timeOnce(args: string[]): number {
  const started = performance.now();
  const run = spawnSync(process.execPath, args, { encoding: "utf8" });
  const ms = performance.now() - started;
  if (run.status !== 0) throw new Error(`${args.join(" ")} exited ${run.status}: ${run.stderr}`);
  return ms;
}

const results = cases.map(({ name, args }) => {
  timeOnce(args);
  const times = Array.from({ length: RUNS }, () => timeOnce(args));
  return { name, p50: percentile(times, 50), p90: percentile(times, 90) };
});
const reference = results[0]?.p50 ?? 1;
out(`${RUNS} runs each, Node ${process.version}, ${os.cpus().length} cores, load average ${os.loadavg()[0]?.toFixed(2)}`);
out("| command | p50 ms | p90 ms | p50 / node -e 0 |");
out("|---|---:|---:|---:|");
for (const { name, p50, p90 } of results) out(`| ${name} | ${p50.toFixed(0)} | ${p90.toFixed(0)} | ${(p50 / reference).toFixed(1)} |`);
