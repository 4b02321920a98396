// Image enhancement throughput: part of `npm run bench:images` (see docs/benchmarks.md).
//
// A site in a separate process (bench/images-site.ts) serves BENCH_STORIES article pages on 127.0.0.1, each
// naming a 1600x900 JPEG as og:image, a 300x200 WordPress-style resize in the article (whose original is
// 2000x1333) and a logo. BENCH_STORIES stories with a 150x100 thumbnail are enhanced in one bulk run
// (enhanceStoryImages, as the dashboard's job does) through the real guarded client (2 requests per host at
// once, all pages on one host), on the embedded server and PostgreSQL. Prints stories per second and the requests made.
import { spawn } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import pino from "pino";
import { runMigrations } from "~/db/migrate";
import { createRepos } from "~/db/repos";
import { stories } from "~/db/schema";
import { enhanceStoryImages } from "~/domain/images/enhance";
import { createGuardedClient } from "~/integrations/http/guarded-client";
import { errorMessage } from "~/lib/error-message";
import { benchDatabases } from "./databases";
import { openFreshDatabase } from "./fresh-database";

const out = (line: string) => process.stdout.write(`${line}\n`);
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const STORIES = Number(process.env.BENCH_STORIES ?? 200);
const DATABASES = benchDatabases();
const PG_URL = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

async function startSite(): Promise<{ url: string; hits: () => Promise<number>; stop: () => void }> {
  const child = spawn(process.execPath, ["--import", "tsx", path.join(ROOT, "bench/images-site.ts")], { stdio: ["ignore", "pipe", "inherit"] });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once("line", resolve);
    child.once("exit", (code) => reject(new Error(`image site exited with ${code}`)));
  });
  const { port } = JSON.parse(line) as { port: number };
  const url = `http://127.0.0.1:${port}`;
  return { url, hits: async () => Number(await (await fetch(`${url}/__hits`)).text()), stop: () => child.kill("SIGTERM") };
}

const site = await startSite();
const rows: string[] = [];
try {
  for (const kind of DATABASES) {
    let cleanup: (() => Promise<void>) | undefined;
    try {
      const fresh = await openFreshDatabase(kind, { pgUrl: PG_URL, name: "oddwire_bench_images" });
      cleanup = fresh.cleanup;
      const { database } = fresh;
      await runMigrations(database);
      await database.db.insert(stories).values(
        Array.from({ length: STORIES }, (_, i) => ({
          title: `Bench story ${i}`,
          imageUrl: `${site.url}/thumb/${i}.jpg`,
          originalUrl: `${site.url}/article/${i}`,
          normalizedUrl: `bench.example/article/${i}`,
          urlHash: `bench-${i}`,
          slug: `bench-story-${i}`,
          status: "pending" as const,
        })),
      );
      const http = createGuardedClient({ userAgent: "Oddwire/bench (+http://localhost)", allowHosts: ["127.0.0.1"] });
      try {
        const before = await site.hits();
        const start = performance.now();
        const result = await enhanceStoryImages({ repos: createRepos(database.db), http, logger: pino({ level: "warn" }) }, { batchSize: STORIES });
        const seconds = (performance.now() - start) / 1000;
        const requests = (await site.hits()) - before;
        out(JSON.stringify({ database: kind, seconds, processed: result.processed, enhanced: result.enhanced, failed: result.failed, requests }));
        rows.push(
          `| ${kind} | ${result.processed} | ${result.enhanced} | ${seconds.toFixed(1)} s | ${(result.processed / seconds).toFixed(1)} | ${requests} (${(requests / result.processed).toFixed(1)} per story) |`,
        );
      } finally {
        await http.close();
      }
    } catch (error) {
      if (kind === "postgres" && /connect/i.test(errorMessage(error))) out(`PostgreSQL not reachable at ${PG_URL}: skipped`);
      else throw error;
    } finally {
      await cleanup?.();
    }
  }
} finally {
  site.stop();
}
out(`\n${STORIES} stories, one host, 2 requests at once per host; Node ${process.version}, ${os.cpus().length} cores (${os.cpus()[0]?.model ?? "?"})\n`);
out("| database | stories | enhanced | wall time | stories/s | requests to the site |");
out("|---|---|---|---|---|---|");
for (const row of rows) out(row);
