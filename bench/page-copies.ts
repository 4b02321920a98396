// The shared last good copies of public pages (server/http/page-copies.ts): `npm run bench:page-copies`
// (see docs/benchmarks.md).
//
// 1. A copy's cost on its own, on a 40 KB page kept with its br and gzip forms: writing one (temporary
//    file, rename), reading one back, and sweeping a directory filled to the default bound (128 MB).
// 2. What the copies cost a web process, with wrk (1 thread, BENCH_CONNECTIONS connections,
//    BENCH_DURATION seconds per run) against a node:http server in front of the page cache, as
//    server/http/web.ts has it, whose "render" makes the 40 KB page: fresh hits on one page (the hot path,
//    which must not change), and renders of a new URL on every request (each one compressed and, with
//    the copies, written to disk: the most the copies can cost). Each case runs with the copies off and
//    on, three times, alternating, so that the machine's noise falls on both.
//
// Environment: BENCH_DURATION (seconds, default 5), BENCH_CONNECTIONS (default 50).

import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { createPageCopies, DEFAULT_PAGE_COPIES_MAX_BYTES } from "~/server/http/page-copies";
import { makeEntry } from "~/server/http/page-entry";
import { createPublicCache } from "~/server/http/public-cache";
import { sendResponse } from "~/server/http/router-handler";
import { ensureTool } from "./reference";
import { percentile } from "./measure";

const out = (line = "") => process.stdout.write(`${line}\n`);
const DURATION = Number(process.env.BENCH_DURATION ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const TEN_MINUTES = 10 * 60_000;

const WORDS = "goat mayor council village parrot meters power station heron server room elected agenda residents said town river bridge cheese festival record giant pumpkin police chase escaped llama bakery museum ghost train lottery winner grandmother marathon penguin".split(" ");

/** A page like the home page: about 40 KB of story cards in varied words (it compresses as that page does), different for each `n`. */
function pageHtml(n: number): string {
  let seed = n * 7919 + 1;
  const word = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return WORDS[seed % WORDS.length];
  };
  const words = (count: number) => Array.from({ length: count }, word).join(" ");
  const cards = Array.from(
    { length: 60 },
    (_, i) =>
      `<article class="card"><a href="/story/${words(5).replaceAll(" ", "-")}-${n}${i}"><img src="/img/${n}${i}/${seed.toString(36)}/480" alt="" width="480" height="270"><h2>${words(9)}</h2></a><p>${words(30)}</p><time datetime="2026-11-26">26 Nov 2026</time></article>`,
  );
  return `<!doctype html><html><head><title>Oddwire ${n}</title></head><body><main>${cards.join("")}</main></body></html>`;
}

const html = () => new Headers({ "Content-Type": "text/html; charset=utf-8" });

async function timeEach(count: number, work: (i: number) => Promise<unknown>): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    await work(i);
    times.push(performance.now() - started);
  }
  return times;
}
const summary = (times: number[]) => `mean ${(times.reduce((a, b) => a + b, 0) / times.length).toFixed(3)} ms, p50 ${percentile(times, 50).toFixed(3)} ms, p99 ${percentile(times, 99).toFixed(3)} ms`;

async function copiesOnTheirOwn(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "oddwire-bench-copies-"));
  try {
    const copies = createPageCopies({ dir, maxAgeMs: TEN_MINUTES });
    const entry = await makeEntry(200, html(), Buffer.from(pageHtml(0)), Date.now());
    const bytes = Object.values(entry.variants).reduce((sum, v) => sum + (v?.body.length ?? 0), 0);
    out(`a copy: identity ${entry.variants.identity.body.length} B, br ${entry.variants.br?.body.length} B, gzip ${entry.variants.gzip?.body.length} B (${bytes} B in all)`);
    // Enough distinct pages to fill the default bound, so that the writes sweep as they would.
    const count = Math.ceil(DEFAULT_PAGE_COPIES_MAX_BYTES / bytes) + 200;
    const writes = await timeEach(count, (i) => copies.keep(`/story/${i}`, { ...entry, storedAt: Date.now() }));
    out(`keep ${count} copies (sweeps included): ${summary(writes)}`);
    const files = readdirSync(dir);
    const total = files.reduce((sum, name) => sum + statSync(path.join(dir, name)).size, 0);
    out(`directory after: ${files.length} files, ${(total / 1024 / 1024).toFixed(1)} MiB (bound ${DEFAULT_PAGE_COPIES_MAX_BYTES / 1024 / 1024} MiB)`);
    const reads = await timeEach(2_000, (i) => copies.read(`/story/${count - 1 - (i % 1_000)}`));
    out(`read a copy: ${summary(reads)}`);
    const sweeps = await timeEach(5, () => copies.sweep());
    out(`sweep ${files.length} files: ${summary(sweeps)}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The page cache in front of a "render" of the 40 KB page, as server/http/web.ts wires it; copies or none. */
async function startSite(copiesDir: string | null): Promise<{ url: string; server: Server }> {
  const cache = createPublicCache({ copies: copiesDir ? { dir: copiesDir } : undefined, onCopyError: (error) => console.error(error) });
  const server = createServer((req, res) => {
    if (cache.serveHit(req, res)) return;
    const n = Number(/\d+/.exec(req.url ?? "")?.[0] ?? 0);
    void cache
      .respond(req, res, {
        render: async () => new Response(pageHtml(n), { headers: html() }),
        pass: (response) => sendResponse(req, res, response),
      })
      .catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

const NEW_URL_EACH_TIME = `counter = 0
request = function()
  counter = counter + 1
  return wrk.format("GET", "/page/" .. counter)
end
`;

async function runWrk(url: string, script: string | null): Promise<{ rps: number; p99: string; non2xx: number }> {
  const command = ensureTool("wrk", "wrk");
  const dir = mkdtempSync(path.join(os.tmpdir(), "oddwire-bench-wrk-"));
  const args = ["-t1", `-c${CONNECTIONS}`, `-d${DURATION}s`, "--latency", "-H", "Accept-Encoding: gzip, deflate, br"];
  if (script) {
    writeFileSync(path.join(dir, "script.lua"), script);
    args.push("-s", path.join(dir, "script.lua"));
  }
  const child = spawn(command, [...args, url], { stdio: ["ignore", "pipe", "inherit"] });
  let out = "";
  child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
  await new Promise((resolve) => child.once("exit", resolve));
  rmSync(dir, { recursive: true, force: true });
  return {
    rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? NaN),
    p99: /^\s*99%\s+(\S+)/m.exec(out)?.[1] ?? "?",
    non2xx: Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0),
  };
}

async function throughWrk(): Promise<void> {
  for (const [label, target, script] of [
    ["fresh hits on one page", "/page/1", null],
    ["a new page rendered on every request", "/", NEW_URL_EACH_TIME],
  ] as const) {
    const rps: Record<"off" | "on", number[]> = { off: [], on: [] };
    for (const round of [1, 2, 3]) {
      for (const mode of ["off", "on"] as const) {
        const dir = mode === "on" ? mkdtempSync(path.join(os.tmpdir(), "oddwire-bench-site-")) : null;
        const site = await startSite(dir);
        // Warm up (and, for hits, render the page once).
        await runWrk(`${site.url}${target}`, script).catch(() => undefined);
        const result = await runWrk(`${site.url}${target}`, script);
        await new Promise((resolve) => site.server.close(resolve));
        const files = dir ? readdirSync(dir).length : 0;
        // Copies still being written when wrk stopped land before the directory goes.
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        if (dir) rmSync(dir, { recursive: true, force: true });
        rps[mode].push(result.rps);
        out(`${label}, copies ${mode}, round ${round}: ${result.rps.toFixed(0)} req/s, p99 ${result.p99}, non-2xx ${result.non2xx}${dir ? `, ${files} copies on disk` : ""}`);
      }
    }
    const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
    out(`${label}: copies on / off = ${(mean(rps.on) / mean(rps.off)).toFixed(2)}`);
  }
}

out(`node ${process.version}, ${os.cpus().length} cores (${os.cpus()[0]?.model ?? "?"}), wrk -t1 -c${CONNECTIONS} -d${DURATION}s`);
await copiesOnTheirOwn();
await throughWrk();
