// Slow anonymous bodies against a production web process: `node --import tsx bench/hostile-bodies.ts`
// (see docs/benchmarks.md). One web process (`bin/oddwire.mjs serve`, ROLE=web, WEB_CONCURRENCY=1)
// on PostgreSQL takes, in waves, 150 and then 100 anonymous `POST /admin/sources` that each declare
// 2.3 MB and send 1 KB every 100 ms (issue 31, item 6), then 150 that send it as fast as they can. It reports, per wave, how many were
// answered within 12 s and with what, how long the answers took, how many bytes the clients had sent
// by then, /healthz's latency meanwhile, and the memory of the server's processes (RSS, from /proc)
// before, at the peak and after.
//
//   BENCH_DATABASE_URL (postgres://postgres@127.0.0.1:5432/postgres; a database oddwire_bench_bodies
//   is created on it and dropped after)
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { adminUrl } from "~/db/testing/postgres-admin";
import { BODY_LIMITS } from "~/server/http/body-limit";
import { freePort } from "~/test/http-test-server";
import { openFreshDatabase } from "./fresh-database";
import { percentile } from "./measure";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const PG_URL = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const DB_NAME = "oddwire_bench_bodies";
const DEADLINE_MS = 12_000;
const WAVES = [
  { clients: 150, declared: BODY_LIMITS.admin, chunk: 1024, everyMs: 100 },
  { clients: 100, declared: BODY_LIMITS.admin, chunk: 1024, everyMs: 100 },
  // The same bodies sent as fast as the sockets take them.
  { clients: 150, declared: BODY_LIMITS.admin, chunk: 64 * 1024, everyMs: 1 },
];

const out = (line: string) => process.stdout.write(`${line}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const mb = (kb: number) => `${(kb / 1024).toFixed(0)} MB`;

/** The RSS of a process and all its descendants, in KB. */
function treeRssKb(pid: number): number {
  const status = `/proc/${pid}/status`;
  if (!existsSync(status)) return 0;
  let kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(status, "utf8"))?.[1] ?? 0);
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    const children = readFileSync(`/proc/${pid}/task/${task}/children`, "utf8").trim();
    for (const child of children ? children.split(/\s+/) : []) kb += treeRssKb(Number(child));
  }
  return kb;
}

type Slow = { status: number | null; answeredMs: number | null; sentAtAnswer: number };

/** One anonymous POST on a raw socket: `chunk` bytes every `everyMs` until it is answered, or the deadline. */
function slowPost(port: number, wave: (typeof WAVES)[number], origin: string): Promise<Slow> {
  const { declared, chunk, everyMs } = wave;
  return new Promise((resolve) => {
    const began = performance.now();
    const socket = net.connect(port, "127.0.0.1");
    socket.write(
      `POST /admin/sources HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nOrigin: ${origin}\r\nContent-Type: multipart/form-data; boundary=x\r\nContent-Length: ${declared}\r\n\r\n`,
    );
    const piece = Buffer.alloc(chunk, "o");
    let sent = 0;
    let received = "";
    const result: Slow = { status: null, answeredMs: null, sentAtAnswer: 0 };
    const tick = setInterval(() => {
      if (result.status !== null || socket.destroyed || sent >= declared || socket.writableNeedDrain) return;
      const part = piece.subarray(0, Math.min(chunk, declared - sent));
      sent += part.length;
      socket.write(part);
    }, everyMs);
    const finish = () => {
      if (result.status === null) result.sentAtAnswer = sent;
      clearInterval(tick);
      clearTimeout(deadline);
      socket.destroy();
      resolve(result);
    };
    const deadline = setTimeout(finish, DEADLINE_MS);
    socket.on("error", () => undefined);
    socket.on("data", (chunk: Buffer) => {
      received += chunk.toString("latin1");
      const status = /^HTTP\/1\.1 (\d{3})/.exec(received);
      if (status && result.status === null) {
        result.status = Number(status[1]);
        result.answeredMs = performance.now() - began;
        result.sentAtAnswer = sent;
      }
    });
    socket.on("close", finish);
  });
}

async function waitHealthy(base: string, child: ChildProcess): Promise<void> {
  const until = Date.now() + 120_000;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error("the server exited");
    if (
      await fetch(`${base}/healthz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
    await sleep(250);
  }
  throw new Error("the server did not become healthy");
}

async function main() {
  const { database, cleanup } = await openFreshDatabase("postgres", { pgUrl: PG_URL, name: DB_NAME, poolSize: 1 });
  await database.close();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "oddwire-bench-bodies-"));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [path.join(ROOT, "bin", "oddwire.mjs"), "serve"], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: "production",
      ROLE: "web",
      WEB_CONCURRENCY: "1",
      DATABASE_URL: adminUrl(PG_URL, DB_NAME),
      AUTH_SECRET: randomBytes(32).toString("hex"),
      SITE_URL: base,
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      LOG_LEVEL: "error",
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  try {
    await waitHealthy(base, child);
    // A few pages first, so the process has loaded what it serves.
    for (let i = 0; i < 20; i++) await fetch(`${base}/admin`).then((r) => r.arrayBuffer());
    await sleep(2_000);
    out(`node ${process.version}, ${os.availableParallelism()} cores (${os.cpus()[0]?.model ?? "?"}), load ${os.loadavg()[0]!.toFixed(1)}`);
    for (const [index, wave] of WAVES.entries()) {
      const before = treeRssKb(child.pid!);
      let peak = before;
      const sampler = setInterval(() => (peak = Math.max(peak, treeRssKb(child.pid!))), 100);
      const health: number[] = [];
      let waving = true;
      const probing = (async () => {
        while (waving) {
          const began = performance.now();
          await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(DEADLINE_MS) }).then(
            (r) => r.arrayBuffer(),
            () => null,
          );
          health.push(performance.now() - began);
          await sleep(200);
        }
      })();
      const answers = await Promise.all(Array.from({ length: wave.clients }, () => slowPost(port, wave, base)));
      waving = false;
      await probing;
      await sleep(2_000);
      clearInterval(sampler);
      const after = treeRssKb(child.pid!);
      const answered = answers.filter((a) => a.answeredMs !== null);
      const statuses = new Map<string, number>();
      for (const a of answers) statuses.set(String(a.status ?? "none"), (statuses.get(String(a.status ?? "none")) ?? 0) + 1);
      const latencies = answered.map((a) => a.answeredMs!).sort((a, b) => a - b);
      const sent = answers.map((a) => a.sentAtAnswer).sort((a, b) => a - b);
      out(
        `wave ${index + 1}: ${wave.clients} anonymous POST /admin/sources declaring ${(wave.declared / 1024 / 1024).toFixed(2)} MiB, ${wave.chunk / 1024} KB every ${wave.everyMs} ms`,
      );
      out(`  answered within ${DEADLINE_MS / 1000} s: ${answered.length}/${wave.clients}; statuses ${[...statuses].map(([s, n]) => `${s}: ${n}`).join(", ")}`);
      if (latencies.length > 0) out(`  answer after: p50 ${percentile(latencies, 50).toFixed(0)} ms, max ${latencies.at(-1)!.toFixed(0)} ms`);
      out(`  bytes each client had sent when answered (or at the deadline): p50 ${percentile(sent, 50)}, max ${sent.at(-1)}`);
      const sortedHealth = [...health].sort((a, b) => a - b);
      out(`  /healthz meanwhile: ${health.length} probes, p50 ${percentile(sortedHealth, 50).toFixed(0)} ms, max ${(sortedHealth.at(-1) ?? 0).toFixed(0)} ms`);
      out(`  server RSS: before ${mb(before)}, peak ${mb(peak)}, 2 s after ${mb(after)}`);
    }
  } finally {
    child.kill("SIGTERM");
    await new Promise((resolve) => child.once("exit", resolve));
    rmSync(dataDir, { recursive: true, force: true });
    await cleanup();
  }
}

await main();
