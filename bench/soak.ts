// The soak test: `npm run soak` (see docs/benchmarks.md). On PostgreSQL, one web process and worker
// processes (`bin/oddwire.mjs serve` with ROLE=web and ROLE=worker, as in production) run for
// SOAK_MINUTES under public reads and searches and an editor publishing and editing through the
// real endpoints, while the workers ingest feeds from a local server whose feeds change. Midway one
// worker is killed with SIGKILL and a new one started. At the end it reports errors, latency per
// route, each process's memory, and checks the database: every item the feeds served is one story.
//
//   SOAK_MINUTES (10)  SOAK_DATABASE_URL (postgres://postgres@127.0.0.1:5432/postgres; a database
//   oddwire_soak is created on it and dropped after)  SOAK_FEEDS (12)  SOAK_PERIOD_S (20: a new item
//   per feed this often)  SOAK_READERS (6 concurrent public readers)  SOAK_WORKERS (2)  SOAK_STORIES (5000)
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { inArray, sql } from "drizzle-orm";
import { runMigrations } from "~/db/migrate";
import { stories } from "~/db/schema";
import { adminUrl } from "~/db/testing/postgres-admin";
import { freePort } from "~/test/http-test-server";
import { openFreshDatabase } from "./fresh-database";
import { percentile, redactUrl } from "./measure";
import { seedStories } from "./seed-stories";
import { checkIngested, startSoakFeeds } from "./soak-feeds";
import { readLog, startProcess, stopProcess, waitHealthy, type Proc } from "./soak-processes";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const MINUTES = Number(process.env.SOAK_MINUTES ?? 10);
const PG_URL = process.env.SOAK_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const DB_NAME = "oddwire_soak";
const FEEDS = Number(process.env.SOAK_FEEDS ?? 12);
const PERIOD_MS = Number(process.env.SOAK_PERIOD_S ?? 20) * 1000;
const READERS = Number(process.env.SOAK_READERS ?? 6);
const WORKERS = Number(process.env.SOAK_WORKERS ?? 2);
const STORIES = Number(process.env.SOAK_STORIES ?? 5000);
const ADMIN = { email: "soak.editor@oddwire.test", password: "soak-editor-password-1" };
const SEARCH_WORDS = ["cat", "zeppelin", "goat", "mayor", "parrots", "bakery", "ghost", "tromso", "llama", "meteorite", "nothingmatchesthis"];

const out = (line: string) => process.stdout.write(`${line}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const pick = <T>(list: readonly T[]): T => list[Math.floor(Math.random() * list.length)]!;

// ---------------------------------------------------------------------------------------------
// Measurements

type RouteStats = { latencies: number[]; ok: number; refused: number; errors: number; samples: string[] };
const routes = new Map<string, RouteStats>();
const stats = (route: string) => {
  let s = routes.get(route);
  if (!s) routes.set(route, (s = { latencies: [], ok: 0, refused: 0, errors: 0, samples: [] }));
  return s;
};

/**
 * One request, timed and judged: 2xx/3xx are fine, `refusals` are statuses the product gives on
 * purpose in a race (a story another editor published first), anything else is an error.
 */
async function hit(route: string, url: string, init: RequestInit = {}, refusals: number[] = []): Promise<Response | null> {
  const s = stats(route);
  const began = performance.now();
  try {
    const response = await fetch(url, { redirect: "manual", ...init, signal: AbortSignal.timeout(30_000) });
    await response.clone().arrayBuffer();
    s.latencies.push(performance.now() - began);
    if (response.status < 400) s.ok++;
    else if (refusals.includes(response.status)) s.refused++;
    else {
      s.errors++;
      if (s.samples.length < 5) s.samples.push(`${response.status} ${init.method ?? "GET"} ${url.replace(/^https?:\/\/[^/]+/, "")}: ${(await response.text()).slice(0, 200)}`);
    }
    return response;
  } catch (error) {
    s.latencies.push(performance.now() - began);
    s.errors++;
    if (s.samples.length < 5) s.samples.push(`${init.method ?? "GET"} ${url}: ${(error as Error).message}`);
    return null;
  }
}


function rssMiB(pid: number | undefined): number | null {
  if (!pid) return null;
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
    return kb ? Number(kb) / 1024 : null;
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------------------------------------
// The run

const build = spawnSync(process.execPath, [path.join(ROOT, "scripts", "ensure-build.mjs")], { cwd: ROOT, stdio: "inherit" });
if (build.status !== 0) process.exit(build.status ?? 1);

let fresh: Awaited<ReturnType<typeof openFreshDatabase>>;
try {
  fresh = await openFreshDatabase("postgres", { pgUrl: PG_URL, name: DB_NAME, poolSize: 4 });
} catch (error) {
  out(`The soak runs on PostgreSQL: cannot use ${redactUrl(PG_URL)} (${(error as Error).message}). Set SOAK_DATABASE_URL.`);
  process.exit(1);
}
const { database } = fresh;
const databaseUrl = adminUrl(PG_URL, DB_NAME);
const logDir = mkdtempSync(path.join(os.tmpdir(), "oddwire-soak-"));
const feeds = await startSoakFeeds({ feeds: FEEDS, periodMs: PERIOD_MS });
const procs: Proc[] = [];
let exitCode = 1;

try {
  out(`Soak: ${MINUTES} min on PostgreSQL (${redactUrl(databaseUrl)}), 1 web + ${WORKERS} worker processes, ${READERS} readers and 1 editor, ${FEEDS} feeds gaining an item every ${PERIOD_MS / 1000} s.`);
  out(`Seeding ${STORIES.toLocaleString("en")} published stories...`);
  await runMigrations(database);
  const seed = await seedStories(database, { published: STORIES });
  await database.db.execute(sql`UPDATE sources SET status = 'inactive' WHERE source_type = 'rss'`);
  for (let f = 0; f < FEEDS; f++) {
    await database.db.execute(
      sql`INSERT INTO sources (name, source_type, rss_feed_url, poll_interval_minutes) VALUES (${`Soak feed ${f}`}, 'rss', ${feeds.feedUrl(f)}, 1)`,
    );
  }

  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    DATABASE_URL: databaseUrl,
    AUTH_SECRET: randomBytes(32).toString("hex"),
    SITE_URL: base,
    PORT: String(port),
    HOST: "127.0.0.1",
    DATA_DIR: path.join(logDir, "data"),
    FETCH_ALLOW_HOSTS: "127.0.0.1",
    LOG_LEVEL: "warn",
    // Readers arrive as many visitors through a proxy on loopback, as behind a load balancer: each is
    // limited on its own, as the product limits a real visitor's searches.
    TRUST_PROXY: "loopback",
  };
  const created = spawnSync(process.execPath, [path.join(ROOT, "bin", "oddwire.mjs"), "user:create", "--email", ADMIN.email, "--password", ADMIN.password, "--admin"], {
    cwd: ROOT,
    env,
    encoding: "utf8",
  });
  if (created.status !== 0) throw new Error(`user:create failed: ${created.stderr}`);

  const web = startProcess("web", "web", env, logDir);
  procs.push(web);
  await waitHealthy(base, web);
  for (let w = 1; w <= WORKERS; w++) procs.push(startProcess(`worker-${w}`, "worker", env, logDir));
  await sleep(3_000);

  // The editor signs in once, as a browser would.
  const signIn = await fetch(`${base}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: base, "x-forwarded-for": "192.0.2.10" },
    body: JSON.stringify(ADMIN),
  });
  if (!signIn.ok) throw new Error(`sign-in failed: ${signIn.status} ${await signIn.text()}`);
  const cookie = signIn.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  const editorHeaders = { cookie, origin: base, "x-forwarded-for": "192.0.2.10" };

  const categorySlugs = seed.categories.map((c) => c.slug);
  let storySlugs: string[] = [];
  const refreshSlugs = async () => {
    const rows = (await database.db.execute(sql`SELECT slug FROM stories WHERE status = 'published' ORDER BY random() LIMIT 500`)) as unknown as { rows: { slug: string }[] };
    storySlugs = rows.rows.map((r) => r.slug);
  };
  await refreshSlugs();

  const started = Date.now();
  const deadline = started + MINUTES * 60_000;
  const killAt = started + (deadline - started) / 2;
  const sampleMemory = (moment: "start" | "end" | "peak") => {
    for (const proc of procs) {
      const mib = proc.killed ? null : rssMiB(proc.child.pid);
      if (mib === null) continue;
      if (moment === "start") proc.memory.start ??= mib;
      if (moment === "end") proc.memory.end = mib;
      proc.memory.peak = Math.max(proc.memory.peak, mib);
    }
  };
  sampleMemory("start");
  const memoryTimer = setInterval(() => sampleMemory("peak"), 5_000);
  const slugTimer = setInterval(() => void refreshSlugs().catch(() => {}), 30_000);

  // Each request comes from one of 1,000 visitors.
  const visitor = () => ({ headers: { "x-forwarded-for": `198.51.${100 + Math.floor(Math.random() * 4)}.${1 + Math.floor(Math.random() * 250)}` } });
  const reader = async () => {
    while (Date.now() < deadline) {
      const roll = Math.random();
      if (roll < 0.3) await hit("home", `${base}/`, visitor());
      else if (roll < 0.55) await hit("category", `${base}/category/${pick(categorySlugs)}${Math.random() < 0.3 ? `?page=${2 + Math.floor(Math.random() * 5)}` : ""}`, visitor());
      else if (roll < 0.8 && storySlugs.length) await hit("story", `${base}/story/${pick(storySlugs)}`, visitor());
      else await hit("search", `${base}/search?q=${encodeURIComponent(pick(SEARCH_WORDS))}`, visitor());
    }
  };

  const edits = new Map<number, string>();
  const published = new Set<number>();
  let ingestionsQueued = 0;
  const editor = async () => {
    let nextIngestion = Date.now() + 30_000;
    while (Date.now() < deadline) {
      if (Date.now() >= nextIngestion) {
        nextIngestion = Date.now() + 60_000;
        const answer = await hit("POST /admin/api/ingestion", `${base}/admin/api/ingestion`, {
          method: "POST",
          headers: { ...editorHeaders, "content-type": "application/json" },
          body: JSON.stringify({ use_canonical: false }),
        });
        if (answer?.status === 202) ingestionsQueued++;
        continue;
      }
      const roll = Math.random();
      if (roll < 0.3) {
        await hit("admin stories", `${base}/admin/stories?status=pending`, { headers: editorHeaders });
      } else if (roll < 0.65) {
        // A story goes live with a category: the editor picks one where the feed gave none.
        const rows = (await database.db.execute(
          sql`SELECT s.id, coalesce(s.category_id, (SELECT min(id) FROM categories)) AS category_id FROM stories s WHERE s.status = 'pending' ORDER BY random() LIMIT 1`,
        )) as unknown as { rows: { id: number; category_id: number }[] };
        const id = rows.rows[0]?.id;
        if (id === undefined) continue;
        const answer = await hit("publish", `${base}/admin/stories.data`, {
          method: "POST",
          headers: { ...editorHeaders, "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ intent: "publish", storyId: String(id), categoryId: String(rows.rows[0]!.category_id) }),
        });
        if (answer && answer.status < 300) published.add(id);
      } else {
        // Edits touch the seeded stories only: the feed items keep their titles for the final check.
        const rows = (await database.db.execute(
          sql`SELECT id, title, category_id, summary, content, image_url, source_url, slug, is_featured FROM stories
              WHERE status = 'published' AND title NOT LIKE 'Soak feed %' ORDER BY random() LIMIT 1`,
        )) as unknown as { rows: Record<string, unknown>[] };
        const story = rows.rows[0];
        if (!story) continue;
        const summary = `Edited during the soak at ${new Date().toISOString()}: ${String(story.summary ?? "").slice(0, 200)}`;
        const answer = await hit("edit", `${base}/admin/stories.data`, {
          method: "POST",
          headers: { ...editorHeaders, "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({
            intent: "edit",
            storyId: String(story.id),
            title: String(story.title),
            categoryId: String(story.category_id ?? ""),
            summary,
            content: String(story.content ?? ""),
            imageUrl: String(story.image_url ?? ""),
            sourceUrl: String(story.source_url ?? ""),
            slug: String(story.slug),
            ...(story.is_featured ? { isFeatured: "on" } : {}),
          }),
        });
        if (answer && answer.status < 300) edits.set(Number(story.id), summary);
      }
      await sleep(500 + Math.random() * 1000);
    }
  };

  const killer = async () => {
    await sleep(Math.max(0, killAt - Date.now()));
    const victim = procs.find((p) => p.name === "worker-1");
    if (!victim?.child.pid) return;
    sampleMemory("peak");
    victim.memory.end = rssMiB(victim.child.pid);
    victim.child.kill("SIGKILL");
    victim.killed = true;
    out(`  ${new Date().toISOString()} worker-1 killed with SIGKILL; a new worker starts in 5 s`);
    await sleep(5_000);
    procs.push(startProcess(`worker-${WORKERS + 1}`, "worker", env, logDir));
  };

  const progress = setInterval(() => {
    const done = [...routes.values()].reduce((n, s) => n + s.latencies.length, 0);
    const errors = [...routes.values()].reduce((n, s) => n + s.errors, 0);
    out(`  ${Math.round((Date.now() - started) / 1000)} s: ${done.toLocaleString("en")} requests, ${errors} errors`);
  }, 60_000);
  await Promise.all([...Array.from({ length: READERS }, reader), editor(), killer()]);
  clearInterval(progress);
  clearInterval(slugTimer);
  sampleMemory("end");
  clearInterval(memoryTimer);

  // The feeds stop changing; one last ingestion must bring in whatever is still waiting.
  feeds.freeze();
  out("Load over. Feeds frozen; a last ingestion through the endpoint...");
  let finalJob: string | null = null;
  for (let tries = 0; tries < 60 && !finalJob; tries++) {
    const answer = await fetch(`${base}/admin/api/ingestion`, {
      method: "POST",
      headers: { ...editorHeaders, "content-type": "application/json" },
      body: JSON.stringify({ use_canonical: false }),
    });
    if (answer.status === 202) finalJob = ((await answer.json()) as { jobId: string }).jobId;
    else await sleep(2_000);
  }
  if (!finalJob) throw new Error("the last ingestion could not be queued");
  let finalStatus = "queued";
  for (let waited = 0; waited < 300_000 && (finalStatus === "queued" || finalStatus === "running"); waited += 1_000) {
    await sleep(1_000);
    const job = (await (await fetch(`${base}/admin/api/jobs/${finalJob}`, { headers: editorHeaders })).json()) as { status: string };
    finalStatus = job.status;
  }

  const check = await checkIngested(database.db, feeds.served());
  const touched = [...new Set([...edits.keys(), ...published])];
  const editRows = touched.length
    ? await database.db.select({ id: stories.id, summary: stories.summary, status: stories.status }).from(stories).where(inArray(stories.id, touched))
    : [];
  const byId = new Map(editRows.map((r) => [r.id, r]));
  const editsLost = [...edits].filter(([id, summary]) => byId.get(id)?.summary !== summary).length;
  const publishLost = [...published].filter((id) => byId.get(id)?.status !== "published").length;
  const jobs = (await database.db.execute(sql`SELECT kind, status, count(*)::int AS n, min(error) AS error FROM jobs GROUP BY kind, status ORDER BY kind, status`)) as unknown as {
    rows: { kind: string; status: string; n: number; error: string | null }[];
  };

  for (const proc of procs) await stopProcess(proc);

  // ------------------------------------------------------------------------------------------
  // Report
  const seconds = (Date.now() - started) / 1000;
  out(`\n## Soak: ${MINUTES} min, ${new Date().toISOString().slice(0, 10)}`);
  out(`Node ${process.version}, ${os.cpus().length} cores (${os.cpus()[0]?.model ?? "?"}), PostgreSQL; ${STORIES.toLocaleString("en")} seeded stories; logs in ${logDir}\n`);
  out("| route | requests | per s | p50 | p99 | max | refused (races) | errors |");
  out("|---|---|---|---|---|---|---|---|");
  let requestErrors = 0;
  for (const [route, s] of [...routes].sort()) {
    const sorted = [...s.latencies].sort((a, b) => a - b);
    requestErrors += s.errors;
    out(
      `| ${route} | ${sorted.length.toLocaleString("en")} | ${(sorted.length / seconds).toFixed(1)} | ${percentile(sorted, 50).toFixed(0)} ms | ${percentile(sorted, 99).toFixed(0)} ms | ${(sorted.at(-1) ?? NaN).toFixed(0)} ms | ${s.refused} | ${s.errors} |`,
    );
  }
  for (const [route, s] of routes) for (const sample of s.samples) out(`  ${route} error: ${sample}`);

  out("\n| process | RSS at start | peak | at end | error log lines |");
  out("|---|---|---|---|---|");
  let logErrors = 0;
  for (const proc of procs) {
    const { errors, warnings } = readLog(proc);
    if (!proc.killed) logErrors += errors.length;
    const mib = (v: number | null) => (v === null ? "-" : `${Math.round(v)} MiB`);
    out(`| ${proc.name}${proc.killed ? " (killed midway)" : ""} | ${mib(proc.memory.start)} | ${mib(proc.memory.peak || null)} | ${mib(proc.memory.end)} | ${errors.length} |`);
    for (const line of errors.slice(0, 5)) out(`  ${proc.name}: ${line}`);
    for (const [msg, n] of warnings) out(`  ${proc.name} warning x${n}: ${msg}`);
  }

  out("\nJobs by kind and outcome:");
  for (const row of jobs.rows) out(`  ${row.kind} ${row.status}: ${row.n}${row.status === "failed" && row.error ? ` (${row.error.slice(0, 120)})` : ""}`);
  out(`\nFeeds: ${check.expected} items served, ${check.stored} stored; lost ${check.lost.length}, duplicated ${check.duplicated.length}.`);
  for (const title of check.lost.slice(0, 10)) out(`  lost: ${title}`);
  for (const d of check.duplicated.slice(0, 10)) out(`  duplicated x${d.copies}: ${d.title}`);
  out(`Editor: ${published.size} stories published, ${edits.size} edited, ${ingestionsQueued} ingestions asked for; ${publishLost} publications and ${editsLost} edits not found in the database.`);
  out(`Last ingestion after the load: ${finalStatus}.`);

  const failedJobs = jobs.rows.filter((r) => r.status === "failed" && !/interrupted/i.test(r.error ?? "")).reduce((n, r) => n + r.n, 0);
  const ok = requestErrors === 0 && logErrors === 0 && check.lost.length === 0 && check.duplicated.length === 0 && publishLost === 0 && editsLost === 0 && failedJobs === 0 && finalStatus === "succeeded";
  out(ok ? "\nSOAK PASSED" : `\nSOAK FAILED: ${requestErrors} request errors, ${logErrors} error log lines, ${failedJobs} failed jobs (besides the killed worker's), last ingestion ${finalStatus}`);
  exitCode = ok ? 0 : 1;
} finally {
  for (const proc of procs) await stopProcess(proc).catch(() => {});
  await feeds.close();
  await fresh.cleanup();
  if (exitCode === 0) rmSync(logDir, { recursive: true, force: true });
}
process.exit(exitCode);
