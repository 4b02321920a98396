import { Writable } from "node:stream";
import { eq } from "drizzle-orm";
import pino from "pino";
import type { AppLoadContext } from "react-router";
import { z } from "zod";
import { afterEach, describe, expect, test } from "vitest";
import { rejectedStories, urlQueue } from "~/db/schema";
import { makeSource, makeUrlQueueItem, makeUser } from "~/db/testing/factories";
import { testDatabaseForFile } from "~/db/testing/test-database";
import { createJobRunner, type JobHandlers, type JobRunner } from "~/jobs/runner";
import type { JobsApi } from "~/jobs/types";
import { normalizeUrl } from "~/lib/normalize-url";
import { action, loader } from "./url-queue";
import { idleHandlers } from "~/jobs/testing";
import { adminAnswer, answerOf, routeArgs, routeContext } from "~/test/route-context";
import { reaching } from "~/test/reaching";

// The URL Que's loader and action as the router runs them, with a signed-in admin, on a real database.

const t = testDatabaseForFile();
const SITE = "https://oddwire.test";
const refusedJobs: JobsApi = {
  enqueue: async () => {
    throw new Error("no job runner in this test");
  },
  get: async () => null,
  latestUnfinished: async () => null,
  cancel: async () => false,
};

async function signedInAdmin(jobs: JobsApi = refusedJobs) {
  const admin = await makeUser(t.db, { isAdmin: true, email: "boss@oddwire.test" });
  const errors: unknown[] = [];
  const log = () => {};
  const context = routeContext({
    repos: t.repos,
    jobs,
    getSessionUser: async () => ({ id: admin.id, email: admin.email, name: admin.name, emailVerified: true }),
    config: { siteUrl: SITE, contactEmail: "tips@oddwire.test", socialUrl: "" },
    logger: { error: (...args: unknown[]) => void errors.push(args), warn: log, info: log, debug: log },
    invalidatePublicPages: () => {},
  });
  return { admin, context, errors };
}

const urlQueueAnswer = adminAnswer.extend({ jobId: z.string().optional(), requested: z.number().optional() });
const act = async (context: AppLoadContext, fields: Record<string, string>) =>
  answerOf(
    await action(routeArgs(new Request(`${SITE}/admin/url-que`, { method: "POST", headers: { origin: SITE }, body: new URLSearchParams(fields) }), context, {})),
    urlQueueAnswer,
  );

const list = (context: AppLoadContext, search = "") => loader(routeArgs(new Request(`${SITE}/admin/url-que${search}`), context, {}));
const urlsOf = (data: Awaited<ReturnType<typeof list>>) => data.items.map((item) => item.url);
const hoursAgo = (h: number) => new Date(Date.now() - h * 3_600_000);
const queuedUrls = async () => (await t.db.select({ url: urlQueue.url }).from(urlQueue)).map((r) => r.url).sort();

describe("the URL Que list", () => {
  test("lists queued URLs of every source by default, newest lastmod first, with the sources to filter by", async () => {
    const { context } = await signedInAdmin();
    const moss = await makeSource(t.db, { name: "Moss Monthly", sourceType: "web_scraping" });
    const bog = await makeSource(t.db, { name: "Bog Bulletin", sourceType: "web_scraping" });
    await makeUrlQueueItem(t.db, { url: "https://moss.example/old", sourceId: moss.id, lastmod: hoursAgo(5) });
    await makeUrlQueueItem(t.db, { url: "https://bog.example/new", sourceId: bog.id, lastmod: hoursAgo(1) });
    await makeUrlQueueItem(t.db, { url: "https://bog.example/done", sourceId: bog.id, status: "scraped" });

    const data = await list(context);

    expect(urlsOf(data)).toEqual(["https://bog.example/new", "https://moss.example/old"]);
    expect(data.items[0]).toMatchObject({ sourceName: "Bog Bulletin", status: "queued", error: null });
    expect(data.filters).toEqual({ sourceId: null, status: "queued", q: "" });
    expect(data.sources.map((s) => s.name)).toEqual(["Bog Bulletin", "Moss Monthly"]);
    expect(data.limit).toBe(1000);
  });

  test("filters by source, status and a piece of the URL, as the address says", async () => {
    const { context } = await signedInAdmin();
    const moss = await makeSource(t.db, { name: "Moss Monthly" });
    const bog = await makeSource(t.db, { name: "Bog Bulletin" });
    await makeUrlQueueItem(t.db, { url: "https://moss.example/2025/frog-choir", sourceId: moss.id, lastmod: hoursAgo(1) });
    await makeUrlQueueItem(t.db, { url: "https://moss.example/2024/toad-race", sourceId: moss.id, lastmod: hoursAgo(2) });
    await makeUrlQueueItem(t.db, { url: "https://bog.example/2025/newt-mayor", sourceId: bog.id, lastmod: hoursAgo(3) });
    await makeUrlQueueItem(t.db, { url: "https://bog.example/2025/eel-heist", sourceId: bog.id, status: "scraped", lastmod: hoursAgo(4) });
    await makeUrlQueueItem(t.db, { url: "https://bog.example/2025/gone", sourceId: bog.id, status: "failed", error: "Failed 3 times. Last reason: HTTP 404", lastmod: hoursAgo(5) });

    expect(urlsOf(await list(context, `?source=${moss.id}`))).toEqual(["https://moss.example/2025/frog-choir", "https://moss.example/2024/toad-race"]);
    expect(urlsOf(await list(context, "?status=scraped"))).toEqual(["https://bog.example/2025/eel-heist"]);
    const failed = await list(context, "?status=failed");
    expect(failed.items).toMatchObject([{ url: "https://bog.example/2025/gone", status: "failed", error: "Failed 3 times. Last reason: HTTP 404" }]);
    expect(urlsOf(await list(context, "?status=all"))).toHaveLength(5);
    expect(urlsOf(await list(context, "?q=2025"))).toEqual(["https://moss.example/2025/frog-choir", "https://bog.example/2025/newt-mayor"]);
    expect(urlsOf(await list(context, `?source=${bog.id}&status=all&q=NEWT`))).toEqual(["https://bog.example/2025/newt-mayor"]);
  });

  test("an unknown status or source in the address falls back to the defaults", async () => {
    const { context } = await signedInAdmin();
    await makeUrlQueueItem(t.db, { url: "https://moss.example/queued" });
    await makeUrlQueueItem(t.db, { url: "https://moss.example/scraped", status: "scraped" });
    const data = await list(context, "?status=everything&source=moss");
    expect(data.filters).toEqual({ sourceId: null, status: "queued", q: "" });
    expect(urlsOf(data)).toEqual(["https://moss.example/queued"]);
  });

  test("a signed-out visitor gets the sign-in screen's 401, not the queue", async () => {
    const { context } = await signedInAdmin();
    const signedOut = routeContext({ ...context, getSessionUser: async () => null });
    await expect(list(signedOut)).rejects.toMatchObject({ init: { status: 401 } });
  });
});

describe("the URL Que actions", () => {
  test("rejecting puts each URL into rejected_stories and takes it out of the queue", async () => {
    const { context, errors } = await signedInAdmin();
    const source = await makeSource(t.db, { name: "Moss Monthly" });
    const a = await makeUrlQueueItem(t.db, { url: "https://moss.example/a?utm_source=feed", sourceId: source.id });
    const b = await makeUrlQueueItem(t.db, { url: "https://moss.example/b", sourceId: source.id });
    await makeUrlQueueItem(t.db, { url: "https://moss.example/keep", sourceId: source.id });

    const answer = await act(context, { intent: "reject", ids: JSON.stringify([a.id, b.id]) });

    expect(answer).toEqual({
      status: 200,
      body: { ok: true, toast: { title: "Rejected", description: "Rejected 2 URLs. They won't appear in future URL processing." } },
    });
    expect(await queuedUrls()).toEqual(["https://moss.example/keep"]);
    const rejected = await t.db.select().from(rejectedStories).where(eq(rejectedStories.sourceId, source.id));
    expect(rejected.map((r) => r.normalizedUrl).sort()).toEqual(
      ["https://moss.example/a?utm_source=feed", "https://moss.example/b"].map((url) => (normalizeUrl(url) as { normalized: string }).normalized).sort(),
    );
    expect(rejected[0]).toMatchObject({
      rejectionReason: "manual_rejection",
      rejectionDetails: { rejection_method: "admin_manual", from: "url_queue", original_story_id: null, rejected_by_admin: true },
    });
    expect(errors).toEqual([]);
  });

  test("deleting removes the URLs for good, without recording them as rejected", async () => {
    const { context } = await signedInAdmin();
    const a = await makeUrlQueueItem(t.db, { url: "https://moss.example/a" });
    const b = await makeUrlQueueItem(t.db, { url: "https://moss.example/b", status: "failed" });
    await makeUrlQueueItem(t.db, { url: "https://moss.example/keep" });

    const answer = await act(context, { intent: "delete", ids: JSON.stringify([a.id, b.id]) });

    expect(answer).toEqual({ status: 200, body: { ok: true, toast: { title: "Deleted", description: "Permanently removed 2 URLs from the queue." } } });
    expect(await queuedUrls()).toEqual(["https://moss.example/keep"]);
    expect(await t.db.select().from(rejectedStories)).toEqual([]);
  });

  test.each(["scrape", "reject", "delete"])("%s with no selection answers 400 'No selection', and nothing is logged as a failure", async (intent) => {
    const { context, errors } = await signedInAdmin();
    await makeUrlQueueItem(t.db, { url: "https://moss.example/a" });
    for (const ids of [undefined, "[]"]) {
      const answer = await act(context, ids === undefined ? { intent } : { intent, ids });
      expect(answer).toEqual({ status: 400, body: { ok: false, toast: { title: "No selection", description: "Select at least one URL.", tone: "error" } } });
    }
    expect(await queuedUrls()).toEqual(["https://moss.example/a"]);
    expect(errors).toEqual([]);
  });

  test("an unreadable list of URLs or an unknown action answers 400 in the screen's words", async () => {
    const { context, errors } = await signedInAdmin();
    expect(await act(context, { intent: "reject", ids: "[1," })).toMatchObject({
      status: 400,
      body: { ok: false, toast: { title: "Reject failed", description: "That list of URLs is not understood" } },
    });
    expect(await act(context, { intent: "delete", ids: JSON.stringify(["x"]) })).toMatchObject({ status: 400, body: { toast: { title: "Delete failed" } } });
    expect(await act(context, { intent: "publish", ids: "[1]" })).toMatchObject({ status: 400, body: { toast: { title: "Error", description: "Unknown action" } } });
    expect(errors).toEqual([]);
  });

  test("a scrape that cannot be queued is logged and answered with the generic text", async () => {
    const { context, errors } = await signedInAdmin();
    const row = await makeUrlQueueItem(t.db, { url: "https://moss.example/a" });
    expect(await act(context, { intent: "scrape", ids: JSON.stringify([row.id]) })).toEqual({
      status: 500,
      body: { ok: false, toast: { title: "Scrape encountered errors", description: "The scrape could not be started. Please try again.", tone: "error" } },
    });
    expect(errors).toHaveLength(1);
  });
});

describe("Scrape Selected", () => {
  const runners: JobRunner[] = [];
  afterEach(async () => {
    await Promise.all(runners.splice(0).map((r) => r.stop()));
  });

  test("queues one scrape-queue job with the selected URLs and answers its id", async () => {
    const seen: unknown[] = [];
    const handlers: JobHandlers = {
      ...idleHandlers,
      "scrape-queue": async (input) => {
        seen.push(input);
        return { succeeded: input.ids?.length ?? 0, failed: 0, rate_limited: 0, total: input.ids?.length ?? 0, results: [] };
      },
    };
    const runner = await createJobRunner({
      database: t.database,
      logger: pino({ level: "silent" }, new Writable({ write: (_chunk, _encoding, done) => done() })),
      handlers,
      pollSchedule: null,
      pollingIntervalSeconds: 0.5,
      stopGraceMs: 200,
    });
    runners.push(runner);
    await runner.start();
    const { context } = await signedInAdmin(runner);
    const a = await makeUrlQueueItem(t.db, { url: "https://moss.example/a" });
    const b = await makeUrlQueueItem(t.db, { url: "https://moss.example/b" });

    const answer = await act(context, { intent: "scrape", ids: JSON.stringify([a.id, b.id, a.id]) });

    expect(answer).toMatchObject({ status: 200, body: { ok: true, requested: 2 } });
    const jobId = answer.body.jobId!;
    const job = await reaching(() => runner.get(jobId), (j) => j !== null && j.status !== "queued" && j.status !== "running", "the scrape job to end");
    expect(job).toMatchObject({ kind: "scrape-queue", status: "succeeded", result: { succeeded: 2, total: 2 } });
    expect(seen).toEqual([{ ids: [a.id, b.id] }]);
  });
});
