import { benchDatabases } from "./databases";
import { intFromEnv } from "./measure";

// bench:public's settings (from the environment; see bench/public.ts), targets, and output.

export const DURATION = intFromEnv("BENCH_DURATION", 10, 1);
export const CONNECTIONS = intFromEnv("BENCH_CONNECTIONS", 50, 1);
export const LARGE = process.env.BENCH_LARGE === "1";
export const STORIES_OVERRIDE = process.env.BENCH_STORIES?.trim() ? intFromEnv("BENCH_STORIES", 100_000, 10) : undefined;
export const EMBEDDED_STORIES = STORIES_OVERRIDE ?? 100_000;
export const POSTGRES_STORIES = STORIES_OVERRIDE ?? (LARGE ? 1_000_000 : 100_000);
export const PG_URL = process.env.BENCH_DATABASE_URL?.trim() || "postgres://postgres@127.0.0.1:5432/postgres";
export const PG_BENCH_DB = "oddwire_bench";
export const DATABASES = benchDatabases();
export const WRITE_DOCS = (process.env.BENCH_WRITE_DOCS?.trim() || (STORIES_OVERRIDE === undefined ? "1" : "0")) !== "0";
export const UNCACHED_SAMPLES = 30;
/**
 * Renders of each page before its samples are taken: the samples are those of a process that has been
 * serving a while. The first renders of a fresh process run before V8 has optimised the render path
 * (an earlier release, 100,000 stories, home page, 33 renders one at a time: p50 16.9 ms for the first
 * 33 of a fresh process, 10.7 ms for the next 33).
 */
export const WARM_UP = 50;

// Targets (issue 14): cache hits at least half of nginx's requests/s; uncached render p50 at most
// 15 ms at 100k stories (30 ms at 1M); search p99 under 100 ms (200 ms at 1M); every server process
// under 300 MB of RSS (the embedded server's database processes are reported apart, by PSS).
export const MIN_RATIO = 0.5;
export const MAX_RSS_BYTES = 300e6;
export const targetsFor = (stories: number) => (stories >= 1_000_000 ? { renderP50: 30, searchP99: 200 } : { renderP50: 15, searchP99: 100 });

export const out = (line = "") => process.stdout.write(`${line}\n`);
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A figure as the report writes it: grouped thousands, `digits` decimals, n/a when not a number. */
export function fmt(n: number, digits = 0): string {
  return Number.isFinite(n) ? n.toLocaleString("en", { minimumFractionDigits: digits, maximumFractionDigits: digits }) : "n/a";
}
