import { asc } from "drizzle-orm";
import pino from "pino";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { stories } from "~/db/schema";
import { makeSource } from "~/db/testing/factories";
import { testDatabaseForFile } from "~/db/testing/test-database";
import { testHttpClient } from "~/integrations/http/testing";
import type { HttpClient } from "~/integrations/http/types";
import { rssFeed, startTestServer, type TestServer } from "~/test/http-test-server";
import type { JobRunner } from "./runner";
import { startFeedAndCrawlWorker } from "./testing";
import { reaching } from "~/test/reaching";

const t = testDatabaseForFile();
const logger = pino({ level: "silent" });
let server: TestServer;
let http: HttpClient;
let runner: JobRunner | undefined;

beforeAll(async () => {
  server = await startTestServer();
  http = testHttpClient();
});
afterAll(async () => {
  await http.close();
  await server.close();
});
afterEach(async () => {
  await runner?.stop();
  runner = undefined;
});

async function startWorker() {
  runner = await startFeedAndCrawlWorker({ database: t.database, repos: t.repos, http, logger });
  return runner;
}

const storyTitles = async () => (await t.db.select({ title: stories.title }).from(stories).orderBy(asc(stories.id))).map((s) => s.title);

const until = <T>(read: () => Promise<T>, done: (value: T) => boolean) => reaching(read, done, "the run's outcome");

describe("the RSS jobs", () => {
  test("'Trigger RSS Ingestion' runs a cycle as a job and records its result and progress", async () => {
    server.handle("/odd.xml", (_req, res) =>
      res.writeHead(200, { "content-type": "application/rss+xml" }).end(
        rssFeed([
          { title: "Goat elected mayor", link: "https://odd.example/goat" },
          { title: "Llama opens a bakery", link: "https://odd.example/llama" },
        ]),
      ),
    );
    await makeSource(t.db, { sourceType: "rss", rssFeedUrl: `${server.url}/odd.xml` });
    const worker = await startWorker();

    const { jobId } = await worker.enqueue("rss-ingestion", { use_canonical: false });
    const job = await until(() => worker.get(jobId), (j) => j?.status === "succeeded" || j?.status === "failed");

    expect(job).toMatchObject({
      status: "succeeded",
      result: { sources_processed: 1, total_items_found: 2, total_items_processed: 2 },
      progress: 1,
      total: 1,
    });
    expect(await storyTitles()).toEqual(["Goat elected mayor", "Llama opens a bakery"]);
  });

  test("the poll ingests a source that is due", async () => {
    server.handle("/due.xml", (_req, res) =>
      res.writeHead(200, { "content-type": "application/rss+xml" }).end(rssFeed([{ title: "Cat learns to fax", link: "https://odd.example/cat" }])),
    );
    await makeSource(t.db, { sourceType: "rss", rssFeedUrl: `${server.url}/due.xml`, nextCheckAt: null });
    const worker = await startWorker();

    await worker.pollNow();

    expect(await until(storyTitles, (titles) => titles.length > 0)).toEqual(["Cat learns to fax"]);
  });
});
