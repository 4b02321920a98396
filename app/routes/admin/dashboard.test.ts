import type { AppLoadContext } from "react-router";
import { z } from "zod";
import { describe, expect, test } from "vitest";
import { jobs } from "~/db/schema";
import { makeJob, makeStory, makeUser } from "~/db/testing/factories";
import { testDatabaseForFile } from "~/db/testing/test-database";
import { queueingRunnerForFile } from "~/jobs/testing";
import type { JobsApi } from "~/jobs/types";
import { adminAnswer, answerOf, routeArgs, routeContext, type Partly } from "~/test/route-context";
import { action, loader } from "./dashboard";

// The dashboard's loader and its image actions as the router runs them, with a signed-in admin, on a
// real database. A job runner without handlers only queues jobs, as a web process does: the queued
// job and its input are the outcome (the enhancement itself is tested in domain/images).

const t = testDatabaseForFile();
const SITE = "https://oddwire.test";

const queueing = queueingRunnerForFile(() => t.database);

async function signedInAdmin(options: { isAdmin?: boolean; jobs?: JobsApi; repos?: Partly<AppLoadContext["repos"]> } = {}) {
  const admin = await makeUser(t.db, { isAdmin: options.isAdmin ?? true, email: "boss@oddwire.test" });
  const errors: unknown[] = [];
  const log = () => {};
  const context = routeContext({
    repos: options.repos ?? t.repos,
    jobs: options.jobs ?? queueing(),
    getSessionUser: async () => ({ id: admin.id, email: admin.email, name: admin.name, emailVerified: true }),
    config: { siteUrl: SITE, contactEmail: "tips@oddwire.test", socialUrl: "" },
    logger: { error: (...args: unknown[]) => void errors.push(args), warn: log, info: log, debug: log },
    invalidatePublicPages: () => {},
  });
  return { admin, context, errors };
}

const imagesAnswer = adminAnswer.extend({ jobId: z.string().optional(), run: z.string().optional() });
const act = async (context: AppLoadContext, fields: Record<string, string>) =>
  answerOf(await action(routeArgs(new Request(`${SITE}/admin`, { method: "POST", headers: { origin: SITE }, body: new URLSearchParams(fields) }), context, {})), imagesAnswer);
const load = (context: AppLoadContext) => loader(routeArgs(new Request(`${SITE}/admin`), context, {}));
const queuedJobs = () => t.db.select({ id: jobs.id, kind: jobs.kind, status: jobs.status, input: jobs.input, requestedBy: jobs.requestedBy }).from(jobs);
const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000);

/** Stories needing image work (never enhanced), newest last; answers their ids. */
async function storiesNeedingWork(n: number) {
  const ids: number[] = [];
  for (let i = 0; i < n; i++) ids.push((await makeStory(t.db, { imageUrl: `https://img.example/${i}.jpg` })).id);
  return ids;
}

describe("the dashboard's image panel data", () => {
  test("counts the stories needing work (never enhanced, or failed last time), with no run going", async () => {
    const { context } = await signedInAdmin();
    await makeStory(t.db, { imageEnhanced: false });
    await makeStory(t.db, { imageEnhanced: true, imageProcessingStatus: "failed" });
    await makeStory(t.db, { imageEnhanced: true, imageProcessingStatus: "completed" });
    await makeStory(t.db, { imageEnhanced: true, imageProcessingStatus: "skipped" });

    const data = await load(context);

    expect(data.images).toEqual({ needingWork: 2, failed: { count: 0, stories: [] }, throughput: null, activeJob: null });
    expect(data.stats.total).toBe(4);
  });

  test("stories failed for good are counted and listed apart, with their reasons; the speed of recent runs comes along", async () => {
    const { context } = await signedInAdmin();
    await makeStory(t.db, { imageEnhanced: false });
    const gone = await makeStory(t.db, {
      title: "Page gone",
      imageProcessingStatus: "failed",
      imageFailurePermanent: true,
      imageError: "The original page answered HTTP 410",
      imageCheckedAt: new Date("2026-11-26T10:00:00Z"),
    });
    await makeJob(t.db, { kind: "enhance-images", status: "succeeded", input: { storyIds: [gone.id] }, progress: 331, startedAt: new Date("2026-11-26T10:00:00Z"), finishedAt: new Date("2026-11-26T10:00:09Z") });

    const data = await load(context);

    expect(data.images).toMatchObject({
      needingWork: 1,
      failed: { count: 1, stories: [{ id: gone.id, title: "Page gone", reason: "The original page answered HTTP 410", checkedAt: "2026-11-26T10:00:00.000Z" }] },
      throughput: { runs: 1, stories: 331, seconds: 9 },
    });
  });

  test("a run going comes with the page, so its progress bar survives a reload", async () => {
    const { context } = await signedInAdmin();
    await storiesNeedingWork(3);
    const started = await act(context, { intent: "enhance-bulk", batchSize: "13", mode: "all" });

    const data = await load(context);

    expect(data.images.activeJob).toMatchObject({ id: started.body.jobId, kind: "enhance-images", status: "queued", cancelRequested: false });
  });
});

describe("Analyze Images", () => {
  test("tells how many of the 20 newest stories have an image", async () => {
    const { context, errors } = await signedInAdmin();
    // The oldest story, with an image, is the 21st: outside the analysis.
    await makeStory(t.db, { imageUrl: "https://img.example/old.jpg", createdAt: minutesAgo(100) });
    for (let i = 0; i < 20; i++) await makeStory(t.db, { imageUrl: i < 14 ? `https://img.example/${i}.jpg` : i < 17 ? "  " : null, createdAt: minutesAgo(50 - i) });

    const answer = await act(context, { intent: "analyze-images" });

    expect(answer).toEqual({ status: 200, body: { ok: true, toast: { title: "Image Analysis Complete", description: "14 of 20 recent stories have images" } } });
    expect(errors).toEqual([]);
  });

  test("a failure reading the stories is logged and told with the spec's words, never the database's", async () => {
    const failing = {
      ...t.repos,
      images: {
        ...t.repos.images,
        latestImages: async () => {
          throw new Error("connection terminated unexpectedly");
        },
      },
    };
    const { context, errors } = await signedInAdmin({ repos: failing });

    const answer = await act(context, { intent: "analyze-images" });

    expect(answer).toEqual({ status: 500, body: { ok: false, toast: { title: "Error", description: "Failed to analyze images", tone: "error" } } });
    expect(errors).toHaveLength(1);
  });
});

describe("a batch run", () => {
  test("Enhance All queues one job pinned to the stories needing work, newest first, requested by the admin", async () => {
    const { admin, context, errors } = await signedInAdmin();
    const ids = await storiesNeedingWork(3);
    await makeStory(t.db, { imageEnhanced: true, imageProcessingStatus: "completed" });

    const answer = await act(context, { intent: "enhance-bulk", batchSize: "13", mode: "all" });

    expect(answer).toEqual({ status: 200, body: { ok: true, jobId: expect.any(String), run: "all" } });
    expect(await queuedJobs()).toEqual([
      { id: answer.body.jobId, kind: "enhance-images", status: "queued", input: { storyIds: [...ids].reverse(), batchSize: 13 }, requestedBy: admin.id },
    ]);
    expect(errors).toEqual([]);
  });

  test("a quick batch of 10 takes the 10 newest of the stories needing work", async () => {
    const { context } = await signedInAdmin();
    const ids = await storiesNeedingWork(12);

    const answer = await act(context, { intent: "enhance-bulk", batchSize: "10", mode: "quick" });

    expect(answer.body).toMatchObject({ ok: true, run: "quick" });
    const [job] = await queuedJobs();
    expect(job?.input).toEqual({ storyIds: ids.slice(2).reverse(), batchSize: 10 });
  });

  test("with nothing needing work, no job is queued and the editor is told so", async () => {
    const { context } = await signedInAdmin();
    await makeStory(t.db, { imageEnhanced: true, imageProcessingStatus: "completed" });

    const answer = await act(context, { intent: "enhance-bulk", batchSize: "10", mode: "quick" });

    expect(answer).toEqual({ status: 200, body: { ok: true, toast: { title: "Nothing to enhance", description: "No story needs image enhancement right now." } } });
    expect(await queuedJobs()).toEqual([]);
  });

  test("while a run goes, another request follows that run instead of starting a second", async () => {
    const { context } = await signedInAdmin();
    await storiesNeedingWork(2);
    const first = await act(context, { intent: "enhance-bulk", batchSize: "12", mode: "all" });

    const second = await act(context, { intent: "enhance-test", storyId: "1" });

    expect(second).toEqual({
      status: 200,
      body: {
        ok: true,
        jobId: first.body.jobId,
        run: "other",
        toast: { title: "Already running", description: "Another image enhancement run is going: its progress is shown here." },
      },
    });
    expect(await queuedJobs()).toHaveLength(1);
  });

  test.each([
    ["Enhance All", "all", "Bulk Enhancement Failed"],
    ["a quick batch", "quick", "Enhancement Failed"],
  ])("an unusable batch size on %s is refused: 400 with the spec's title, not logged", async (_name, mode, title) => {
    const { context, errors } = await signedInAdmin();
    await storiesNeedingWork(1);

    const answer = await act(context, { intent: "enhance-bulk", batchSize: "0", mode });

    expect(answer).toMatchObject({ status: 400, body: { ok: false, toast: { title, description: "The batch size must be a whole number of at least 1.", tone: "error" } } });
    expect(await queuedJobs()).toEqual([]);
    expect(errors).toEqual([]);
  });

  test("a job that cannot be queued is logged and answered with the spec's default text", async () => {
    const noRunner: JobsApi = {
      enqueue: async () => {
        throw new Error("this process runs no job runner");
      },
      get: async () => null,
      latestUnfinished: async () => null,
      cancel: async () => false,
    };
    const { context, errors } = await signedInAdmin({ jobs: noRunner });
    await storiesNeedingWork(1);

    const answer = await act(context, { intent: "enhance-bulk", batchSize: "11", mode: "all" });

    expect(answer).toEqual({ status: 500, body: { ok: false, toast: { title: "Bulk Enhancement Failed", description: "Failed to enhance images", tone: "error" } } });
    expect(errors).toHaveLength(1);
  });
});

describe("a retry of stories failed for good", () => {
  const failedForGood = (title: string) => makeStory(t.db, { title, imageProcessingStatus: "failed", imageFailurePermanent: true, imageError: "No image found on the original page" });

  test("Retry queues one story, as a run of its own", async () => {
    const { context } = await signedInAdmin();
    const story = await failedForGood("No picture");
    const answer = await act(context, { intent: "retry-images", storyId: String(story.id) });
    expect(answer.body).toEqual({ ok: true, jobId: expect.any(String), run: "retry" });
    expect((await queuedJobs())[0]?.input).toEqual({ storyIds: [story.id], batchSize: 1 });
  });

  test("Retry all queues every story failed for good, and none of the others", async () => {
    const { context } = await signedInAdmin();
    const a = await failedForGood("One");
    const b = await failedForGood("Two");
    await makeStory(t.db, { imageEnhanced: false });
    const answer = await act(context, { intent: "retry-images", storyId: "all" });
    expect(answer.body).toMatchObject({ ok: true, run: "retry" });
    expect((await queuedJobs())[0]?.input).toEqual({ storyIds: [b.id, a.id], batchSize: 2 });
  });

  test("with none failed for good, nothing is queued; an unknown story is not found", async () => {
    const { context } = await signedInAdmin();
    expect((await act(context, { intent: "retry-images", storyId: "all" })).body.toast?.title).toBe("Nothing to enhance");
    const unknown = await act(context, { intent: "retry-images", storyId: "999999" });
    expect(unknown.status).toBe(404);
    expect(unknown.body.toast?.title).toBe("Enhancement Failed");
    expect(await queuedJobs()).toEqual([]);
  });
});

describe("the single-story test", () => {
  test("queues one story with the editor's image URL, trimmed", async () => {
    const { context } = await signedInAdmin();
    const story = await makeStory(t.db, { imageEnhanced: true, imageProcessingStatus: "completed" });

    const answer = await act(context, { intent: "enhance-test", storyId: ` ${story.id} `, customImageUrl: " https://img.example/large.jpg " });

    expect(answer).toEqual({ status: 200, body: { ok: true, jobId: expect.any(String), run: "single" } });
    const [job] = await queuedJobs();
    expect(job?.input).toEqual({ singleStoryId: story.id, customImageUrl: "https://img.example/large.jpg" });
  });

  test("a blank story ID is refused with the spec's words (the page refuses it first), and nothing is queued", async () => {
    const { context, errors } = await signedInAdmin();

    const answer = await act(context, { intent: "enhance-test", storyId: "  ", customImageUrl: "" });

    expect(answer).toEqual({
      status: 400,
      body: {
        ok: false,
        toast: { title: "Story ID Required", description: "Please enter a story ID to test", tone: "error" },
        fields: { storyId: "Please enter a story ID to test" },
      },
    });
    expect(await queuedJobs()).toEqual([]);
    expect(errors).toEqual([]);
  });

  test("a story that does not exist is not found: 404 'Test Failed' with the reason", async () => {
    const { context, errors } = await signedInAdmin();

    const answer = await act(context, { intent: "enhance-test", storyId: "999999" });

    expect(answer).toEqual({ status: 404, body: { ok: false, toast: { title: "Test Failed", description: "Story 999999 does not exist.", tone: "error" } } });
    expect(errors).toEqual([]);
  });

  test("an image URL that is not http(s) is refused with the field's problem", async () => {
    const { context } = await signedInAdmin();
    const story = await makeStory(t.db);

    const answer = await act(context, { intent: "enhance-test", storyId: String(story.id), customImageUrl: "javascript:alert(1)" });

    expect(answer).toMatchObject({ status: 400, body: { ok: false, toast: { title: "Test Failed" }, fields: { customImageUrl: "Must start with http:// or https://" } } });
    expect(await queuedJobs()).toEqual([]);
  });
});

describe("Cancel", () => {
  test("asks the run to stop; a run already over has nothing to cancel", async () => {
    const { context } = await signedInAdmin();
    await storiesNeedingWork(2);
    const started = await act(context, { intent: "enhance-bulk", batchSize: "12", mode: "all" });
    const jobId = started.body.jobId!;

    const answer = await act(context, { intent: "cancel-images", jobId });

    expect(answer).toEqual({ status: 200, body: { ok: true } });
    // A run still queued is cancelled at once (a running one stops at its next check).
    expect(await queueing().get(jobId)).toMatchObject({ status: "cancelled", cancelRequested: true });
    expect((await load(context)).images.activeJob).toBeNull();
    expect(await act(context, { intent: "cancel-images", jobId })).toEqual({
      status: 200,
      body: { ok: true, toast: { title: "Nothing to cancel", description: "That run had already finished." } },
    });
  });

  test("a request without a run is refused: 400", async () => {
    const { context } = await signedInAdmin();
    expect(await act(context, { intent: "cancel-images", jobId: " " })).toMatchObject({ status: 400, body: { ok: false, toast: { title: "Error", description: "No run to cancel." } } });
  });
});

describe("who may ask", () => {
  test("a signed-in user who is not an admin is refused: 403, and no job", async () => {
    const { context } = await signedInAdmin({ isAdmin: false });
    await storiesNeedingWork(1);
    await expect(act(context, { intent: "enhance-bulk", batchSize: "11", mode: "all" })).rejects.toMatchObject({ init: { status: 403 } });
    await expect(load(context)).rejects.toMatchObject({ init: { status: 403 } });
    expect(await queuedJobs()).toEqual([]);
  });

  test("an unknown intent is refused: 400", async () => {
    const { context } = await signedInAdmin();
    expect(await act(context, { intent: "paint-images" })).toMatchObject({ status: 400, body: { ok: false, toast: { title: "Error", description: "Unknown action" } } });
  });
});
