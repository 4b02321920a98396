// Embedded PostgreSQL figures: `npm run bench:embedded-postgres`.
//
// On a fresh DATA_DIR under the temp dir, with the default settings: the first use (initdb and the
// oddwire database, then start), a start of the existing cluster, a command joining the running server,
// and the memory of the idle server (PSS, summed over all its processes from /proc/PID/smaps_rollup,
// after a warm-up that creates the extensions and runs a few queries). Prints the median of BENCH_RUNS.
import { readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import { processesIn } from "~/db/embedded/processes";
import { startEmbeddedServer } from "~/db/embedded/server";
import { tempDir } from "~/test/temp-dir";

const out = (line: string) => process.stdout.write(`${line}\n`);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

function pssKb(pid: number): number {
  const match = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, "utf8"));
  return Number(match?.[1] ?? 0);
}

const timings = { first: [] as number[], start: [] as number[], join: [] as number[], stop: [] as number[] };
type Pss = { total: number; processes: number; each: string };
let pss: Pss | undefined;
let pssPooled: Pss | undefined;

function measure(pgdata: string): Pss {
  const each = processesIn(pgdata).map((pid) => ({ kb: pssKb(pid), name: readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0")[0]?.replace(/^.*\/bin\//, "").trim() ?? "" }));
  return { total: each.reduce((sum, p) => sum + p.kb, 0), processes: each.length, each: each.map((p) => `${p.name} ${p.kb} kB`).join(", ") };
}

for (let run = 0; run < RUNS; run++) {
  const dataDir = tempDir("oddwire-bench-embedded-");
  try {
    let t = performance.now();
    const first = await startEmbeddedServer({ dataDir: path.join(dataDir, "data"), role: "serve" });
    timings.first.push(performance.now() - t);
    t = performance.now();
    await first.stop();
    timings.stop.push(performance.now() - t);

    t = performance.now();
    const serve = await startEmbeddedServer({ dataDir: path.join(dataDir, "data"), role: "serve" });
    timings.start.push(performance.now() - t);
    t = performance.now();
    const command = await startEmbeddedServer({ dataDir: path.join(dataDir, "data"), role: "command" });
    timings.join.push(performance.now() - t);
    await command.stop();

    if (run === 0) {
      const client = new pg.Client({ connectionString: serve.url });
      await client.connect();
      await client.query("CREATE EXTENSION IF NOT EXISTS pg_trgm; CREATE EXTENSION IF NOT EXISTS unaccent; CREATE EXTENSION IF NOT EXISTS fuzzystrmatch");
      await client.query("CREATE TABLE warm AS SELECT g AS n, md5(g::text) AS t FROM generate_series(1, 10000) g; SELECT count(*) FROM warm WHERE t % 'abc'");
      await client.end();
      await sleep(3000);
      pss = measure(path.join(dataDir, "data", "postgres", "pgdata"));
      // The app at rest holds pooled connections: ~10 of its own pool and pg-boss's.
      const pool = new pg.Pool({ connectionString: serve.url, max: 12 });
      const held = await Promise.all(Array.from({ length: 12 }, () => pool.connect()));
      await Promise.all(held.map((c) => c.query("SELECT count(*) FROM warm WHERE t % 'abc'")));
      for (const c of held) c.release();
      await sleep(3000);
      pssPooled = measure(path.join(dataDir, "data", "postgres", "pgdata"));
      await pool.end();
    }
    await serve.stop();
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

out(`runs: ${RUNS}, medians (ms)`);
out(`first use (initdb + database oddwire + start): ${median(timings.first).toFixed(0)}`);
out(`start of an existing cluster:                  ${median(timings.start).toFixed(0)}`);
out(`command joining the running server:            ${median(timings.join).toFixed(0)}`);
out(`stop (pg_ctl stop -m fast):                     ${median(timings.stop).toFixed(0)}`);
if (pss) out(`idle server PSS: ${(pss.total / 1024).toFixed(1)} MB over ${pss.processes} processes (${pss.each})`);
if (pssPooled) out(`idle server with 12 pooled connections open, PSS: ${(pssPooled.total / 1024).toFixed(1)} MB over ${pssPooled.processes} processes`);
