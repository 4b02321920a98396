import type { DatabaseProcessMemory, ProcessMemory } from "./measure";
import { fmt, MAX_RSS_BYTES, MIN_RATIO, targetsFor, UNCACHED_SAMPLES, WARM_UP } from "./public-settings";
import { type Mode, type DatabaseRun, notModifiedShare } from "./public-measure";
import { forkedWebProcesses } from "./public-server";

// bench:public: the run as Markdown, and the targets met or missed.

export const MODE_LABEL: Record<Mode, string> = { plain: "plain", br: "gzip, deflate, br", "304": "304 (If-None-Match)" };

/** The largest process, and whether every one stays under the target. */
export function largest(memory: ProcessMemory[]): ProcessMemory | undefined {
  return [...memory].sort((a, b) => b.rssMiB - a.rssMiB)[0];
}

export function sumPss(memory: DatabaseProcessMemory[]): number {
  return memory.reduce((sum, p) => sum + (Number.isNaN(p.pssMiB) ? 0 : p.pssMiB), 0);
}

export function memoryLabel(p: ProcessMemory, all: ProcessMemory[]): string {
  const forked = forkedWebProcesses(all);
  const role = p.parent === null ? (forked.length > 0 ? "primary" : "web") : forked.includes(p) ? "web" : "other";
  return `${role} (pid ${p.pid}, \`${p.command}\`)`;
}

/** The run as Markdown: tables, then a line per target saying met or missed by how much. */
export function report(run: DatabaseRun, context: { date: string; command: string; machine: string; load: string; nginx: string }): string[] {
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

export function targetLines(run: DatabaseRun, targets: { renderP50: number; searchP99: number }): string[] {
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

