import { eq } from "drizzle-orm";
import pino from "pino";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { auditLog, socialMediaPosts } from "~/db/schema";
import { makeCategory, makeStory } from "~/db/testing/factories";
import { testDatabaseForFile } from "~/db/testing/test-database";
import { isDomainError } from "~/domain/errors";
import { createGraphClient, type GraphClient } from "~/integrations/facebook/graph-client";
import { graphErrors, startFakeGraph, type FakeGraph } from "~/integrations/facebook/testing/fake-graph";
import { capturedLog } from "~/test/captured-log";
import {
  ATTEMPT_SPAN_MS,
  attemptPost,
  cancelScheduledPost,
  gaveUpMessage,
  MAX_ATTEMPTS,
  NOT_CONFIRMED,
  NOT_CONNECTED,
  requestPost,
  retryDelayMs,
} from "./post-story";
import { socialOverview } from "./social-page";

const t = testDatabaseForFile();
const logger = pino({ level: "silent" });
const SITE = "https://oddwire.test";
const NOW = new Date("2026-11-24T10:00:00.000Z");
let fake: FakeGraph;
let graph: GraphClient;

beforeAll(async () => {
  fake = await startFakeGraph();
  graph = createGraphClient({ ...fake.clientOptions(), timeoutMs: 500 });
});
afterAll(async () => {
  await graph.close();
  await fake.close();
});
afterEach(() => {
  fake.clearAnswers();
  fake.requests.length = 0;
  fake.posts.length = 0;
});

/** A scheduler that records what it was asked to queue, as the job runner would be asked. */
function recordingScheduler() {
  const queued: { postRowId: number; at: Date | null }[] = [];
  let n = 0;
  return {
    queued,
    schedule: async (postRowId: number, at: Date | null) => {
      queued.push({ postRowId, at });
      return { jobId: `job-${++n}` };
    },
  };
}

let clockNow = NOW;
const now = () => clockNow.getTime();
afterEach(() => {
  clockNow = NOW;
});

const requestDeps = (scheduler = recordingScheduler()) => ({ repos: t.repos, siteUrl: SITE, connected: true, schedule: scheduler.schedule, now });
const attemptDeps = (scheduler = recordingScheduler()) => ({ repos: t.repos, graph, schedule: scheduler.schedule, logger, now });
const feedCalls = () => fake.requests.filter((r) => r.endpoint === "feed" && r.method === "POST").length;
const rowsOf = (storyId: number) => t.db.select().from(socialMediaPosts).where(eq(socialMediaPosts.storyId, storyId));
const refusal = (code: string) => (error: unknown) => isDomainError(error) && error.code === code;

/** Asks for a post of the story now and makes its first attempt, as the page and its job do. */
async function postNow(storyId: number, input: { message?: string; repost?: boolean } = {}) {
  const row = await requestPost(requestDeps(), { storyId, actorUserId: null, ...input });
  return attemptPost(attemptDeps(), row.id);
}

describe("asking for a post", () => {
  test("stores a pending row with the spec's message and the story link, queues its job, and calls Facebook not yet", async () => {
    const category = await makeCategory(t.db, { name: "Animals", slug: "animals" });
    const story = await makeStory(t.db, { title: "Goat elected mayor", summary: "A goat won.", slug: "goat", categoryId: category.id });
    const scheduler = recordingScheduler();
    const row = await requestPost(requestDeps(scheduler), { storyId: story.id, actorUserId: null });
    expect(row).toMatchObject({ status: "pending", link: `${SITE}/story/goat`, scheduledFor: null, attempts: 0, jobId: "job-1" });
    expect(row.message).toBe(`Goat elected mayor\n\nA goat won.\n\nRead more: ${SITE}/category/animals\n\n#WeirdNews #Oddwire #StrangeButTrue`);
    expect(scheduler.queued).toEqual([{ postRowId: row.id, at: null }]);
    expect(fake.requests).toHaveLength(0);
    const [stored] = await rowsOf(story.id);
    expect(stored?.jobId).toBe("job-1");
    const audit = await t.db.select().from(auditLog).where(eq(auditLog.entityId, String(story.id)));
    expect(audit.map((a) => a.action)).toEqual(["facebook.post"]);
  });

  test("a double submit stores one row: the second finds the first pending", async () => {
    const story = await makeStory(t.db);
    const results = await Promise.allSettled([
      requestPost(requestDeps(), { storyId: story.id, actorUserId: null }),
      requestPost(requestDeps(), { storyId: story.id, actorUserId: null }),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const rejected = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect(refusal("POST_IN_FLIGHT")(rejected.reason)).toBe(true);
    expect(await rowsOf(story.id)).toHaveLength(1);
  });

  test("a story already posted is refused, unless it is a deliberate repost", async () => {
    const story = await makeStory(t.db);
    await postNow(story.id);
    await expect(requestPost(requestDeps(), { storyId: story.id, actorUserId: null })).rejects.toSatisfy(refusal("ALREADY_POSTED"));
    const again = await postNow(story.id, { repost: true, message: "Once more, with feeling" });
    expect(again.row).toMatchObject({ status: "posted", message: "Once more, with feeling" });
    expect(feedCalls()).toBe(2);
    expect((await rowsOf(story.id)).map((r) => r.status)).toEqual(["posted", "posted"]);
  });

  test("an unpublished story, or a site not connected to a Page, is refused before anything is stored", async () => {
    const pending = await makeStory(t.db, { status: "pending", publishDate: null });
    await expect(requestPost(requestDeps(), { storyId: pending.id, actorUserId: null })).rejects.toSatisfy(refusal("WRONG_STATUS"));
    const story = await makeStory(t.db);
    await expect(requestPost({ ...requestDeps(), connected: false }, { storyId: story.id, actorUserId: null })).rejects.toThrow(NOT_CONNECTED);
    await expect(requestPost(requestDeps(), { storyId: 999_999, actorUserId: null })).rejects.toSatisfy(refusal("STORY_NOT_FOUND"));
    expect(await t.db.select().from(socialMediaPosts)).toHaveLength(0);
    expect(fake.requests).toHaveLength(0);
  });

  test("a scheduled post waits for its time in its job; a time past or too far ahead is refused", async () => {
    const story = await makeStory(t.db);
    const at = new Date(NOW.getTime() + 3 * 60 * 60_000);
    const scheduler = recordingScheduler();
    const row = await requestPost(requestDeps(scheduler), { storyId: story.id, at, actorUserId: null });
    expect(row).toMatchObject({ status: "pending", scheduledFor: at });
    expect(scheduler.queued).toEqual([{ postRowId: row.id, at }]);
    await expect(requestPost(requestDeps(), { storyId: story.id, actorUserId: null })).rejects.toThrow(/already scheduled/);

    const other = await makeStory(t.db);
    await expect(requestPost(requestDeps(), { storyId: other.id, at: new Date(NOW.getTime() - 60_000), actorUserId: null })).rejects.toSatisfy(
      refusal("INVALID_INPUT"),
    );
    await expect(
      requestPost(requestDeps(), { storyId: other.id, at: new Date(NOW.getTime() + 31 * 24 * 60 * 60_000), actorUserId: null }),
    ).rejects.toThrow(/at most 30 days/);
  });

  test("a scheduled post can be cancelled until it is tried; its job then finds nothing to do", async () => {
    const story = await makeStory(t.db);
    const row = await requestPost(requestDeps(), { storyId: story.id, at: new Date(NOW.getTime() + 60 * 60_000), actorUserId: null });
    const cancelled: string[] = [];
    await cancelScheduledPost({ repos: t.repos, cancelJob: async (id) => (cancelled.push(id), true) }, { postRowId: row.id, actorUserId: null });
    expect(cancelled).toEqual(["job-1"]);
    expect(await rowsOf(story.id)).toHaveLength(0);
    expect(await attemptPost(attemptDeps(), row.id)).toMatchObject({ outcome: "skipped" });
    expect(fake.requests).toHaveLength(0);

    const posted = await postNow(story.id);
    await expect(cancelScheduledPost({ repos: t.repos, cancelJob: async () => true }, { postRowId: posted.row!.id, actorUserId: null })).rejects.toSatisfy(
      refusal("WRONG_STATUS"),
    );
  });
});

describe("an attempt at a post", () => {
  test("re-reads the story's card, posts the message with the link, and stores the post id and permalink", async () => {
    const story = await makeStory(t.db, { slug: "goat" });
    const result = await postNow(story.id);
    expect(result.outcome).toBe("posted");
    expect(result.row).toMatchObject({ status: "posted", attempts: 1, attemptStartedAt: null, errorMessage: null, postedAt: NOW });
    expect(result.row!.postId).toBe(fake.posts.at(-1)!.id);
    expect(result.row!.permalinkUrl).toContain("facebook.com");
    const scrape = fake.requests.findIndex((r) => r.endpoint === "scrape");
    const feed = fake.requests.findIndex((r) => r.endpoint === "feed");
    expect(scrape).toBeGreaterThanOrEqual(0);
    expect(scrape).toBeLessThan(feed);
    expect(fake.requests[feed]!.body).toMatchObject({ link: `${SITE}/story/goat` });
  });

  test("two jobs for one post make one Graph call", async () => {
    const story = await makeStory(t.db);
    const row = await requestPost(requestDeps(), { storyId: story.id, actorUserId: null });
    fake.answerOnce("feed", { kind: "success", delayMs: 150 });
    const results = await Promise.all([attemptPost(attemptDeps(), row.id), attemptPost(attemptDeps(), row.id)]);
    expect(results.map((r) => r.outcome).sort()).toEqual(["posted", "skipped"]);
    expect(feedCalls()).toBe(1);
  });

  test("a job that finds another attempt's call still open leaves it alone and checks again once that attempt must be over", async () => {
    const story = await makeStory(t.db);
    const row = await requestPost(requestDeps(), { storyId: story.id, actorUserId: null });
    fake.answerOnce("feed", { kind: "success", delayMs: 400 });
    const first = attemptPost(attemptDeps(), row.id);
    await expect.poll(() => fake.requests.some((r) => r.endpoint === "feed"), { interval: 10 }).toBe(true);

    const scheduler = recordingScheduler();
    const second = await attemptPost(attemptDeps(scheduler), row.id);
    expect(second).toMatchObject({ outcome: "skipped", reason: expect.stringMatching(/under way/) });
    expect(scheduler.queued).toEqual([{ postRowId: row.id, at: new Date(NOW.getTime() + ATTEMPT_SPAN_MS) }]);
    expect(fake.requests.filter((r) => r.endpoint === "posts")).toHaveLength(0);

    expect(await first).toMatchObject({ outcome: "posted", row: { status: "posted" } });
    clockNow = new Date(NOW.getTime() + ATTEMPT_SPAN_MS);
    expect((await attemptPost(attemptDeps(scheduler), row.id)).outcome).toBe("skipped");
    expect(feedCalls()).toBe(1);
    expect(await rowsOf(story.id)).toHaveLength(1);
  });

  test.each([
    ["an expired token", graphErrors.expiredToken(), 190, /token has expired.*renew FACEBOOK_PAGE_TOKEN/],
    ["a missing permission", graphErrors.missingPermission(), 200, /lacks the permission pages_manage_posts/],
    ["a temporary block", graphErrors.blocked(), 368, /temporarily blocked/],
    ["a duplicate", graphErrors.duplicate(), 506, /duplicate/],
  ])("%s fails the post with the editor's reason, its code, subcode and trace id", async (_name, error, code, message) => {
    const story = await makeStory(t.db);
    fake.answerOnce("feed", { kind: "error", error });
    const { outcome, row } = await postNow(story.id);
    expect(outcome).toBe("failed");
    expect(row).toMatchObject({ status: "failed", errorCode: code, errorSubcode: error.error_subcode ?? null, fbtraceId: error.fbtrace_id ?? expect.any(String) });
    expect(row!.errorMessage).toMatch(message);
    expect(row!.errorMessage).not.toContain(fake.clientOptions().pageToken);
    expect(feedCalls()).toBe(1);
  });

  test.each([
    ["a rate limit (4)", graphErrors.rateLimited(4), 5 * 60_000],
    ["a Page rate limit (32)", graphErrors.rateLimited(32), 5 * 60_000],
    ["a passing failure (2)", graphErrors.serviceUnavailable(), 60_000],
  ])("%s keeps the post pending, says why, and queues the next attempt with back-off", async (_name, error, firstDelay) => {
    const story = await makeStory(t.db);
    const row = await requestPost(requestDeps(), { storyId: story.id, actorUserId: null });
    const scheduler = recordingScheduler();
    fake.answerAlways("feed", { kind: "error", error });
    const first = await attemptPost(attemptDeps(scheduler), row.id);
    expect(first.outcome).toBe("retrying");
    expect(first.row).toMatchObject({ status: "pending", attempts: 1, errorCode: error.code, attemptStartedAt: null });
    expect(first.row!.errorMessage).toMatch(/retried/);
    expect(scheduler.queued).toEqual([{ postRowId: row.id, at: new Date(NOW.getTime() + firstDelay) }]);
    expect(first.row!.nextAttemptAt).toEqual(new Date(NOW.getTime() + firstDelay));

    const second = await attemptPost(attemptDeps(scheduler), row.id);
    expect(scheduler.queued[1]!.at).toEqual(new Date(NOW.getTime() + 2 * firstDelay));
    expect(second.row!.attempts).toBe(2);
    for (let i = 2; i < MAX_ATTEMPTS; i++) await attemptPost(attemptDeps(scheduler), row.id);
    const [last] = await rowsOf(story.id);
    expect(last).toMatchObject({ status: "failed", attempts: MAX_ATTEMPTS, errorMessage: gaveUpMessage(error.code === 2 ? "transient" : "rate-limited") });
    expect(feedCalls()).toBe(MAX_ATTEMPTS);
  });

  test("an answer that came after the time limit is found among the Page's posts: posted, not sent twice", async () => {
    const story = await makeStory(t.db);
    fake.answerOnce("feed", { kind: "success", delayMs: 1_500 });
    const { outcome, row } = await postNow(story.id);
    expect(outcome).toBe("posted");
    expect(row!.postId).toBe(fake.posts.at(-1)!.id);
    expect(feedCalls()).toBe(1);
  });

  test("no answer and no post on the Page: the post waits, and the next attempt looks on the Page before it calls again", async () => {
    const story = await makeStory(t.db);
    const row = await requestPost(requestDeps(), { storyId: story.id, actorUserId: null });
    fake.answerOnce("feed", { kind: "hang" });
    const scheduler = recordingScheduler();
    const first = await attemptPost(attemptDeps(scheduler), row.id);
    expect(first).toMatchObject({ outcome: "retrying" });
    expect(first.row!.attemptStartedAt).not.toBeNull();
    expect(scheduler.queued).toHaveLength(1);

    const lookups = () => fake.requests.filter((r) => r.endpoint === "posts").length;
    const before = lookups();
    const second = await attemptPost(attemptDeps(scheduler), row.id);
    expect(lookups()).toBeGreaterThan(before);
    expect(second).toMatchObject({ outcome: "posted" });
    expect(feedCalls()).toBe(2);
  });

  test("an attempt cut off mid-call (a crash) is confirmed from the Page without a second call, once it cannot still be running", async () => {
    const story = await makeStory(t.db, { slug: "crashed" });
    const row = await requestPost(requestDeps(), { storyId: story.id, actorUserId: null });
    const startedAt = new Date(NOW.getTime() - 60_000);
    await t.db.update(socialMediaPosts).set({ attempts: 1, attemptStartedAt: startedAt }).where(eq(socialMediaPosts.id, row.id));
    const made = fake.addPost({ message: row.message!, link: `${SITE}/story/crashed` });

    // Resumed at once after a restart: the attempt might still be running elsewhere, so nothing is settled yet.
    const scheduler = recordingScheduler();
    expect((await attemptPost(attemptDeps(scheduler), row.id)).outcome).toBe("skipped");
    expect(scheduler.queued).toEqual([{ postRowId: row.id, at: new Date(startedAt.getTime() + ATTEMPT_SPAN_MS) }]);
    expect(fake.requests).toHaveLength(0);

    clockNow = scheduler.queued[0]!.at!;
    const result = await attemptPost(attemptDeps(), row.id);
    expect(result.outcome).toBe("posted");
    expect(result.row!.postId).toBe(made.id);
    expect(feedCalls()).toBe(0);
  });

  test("a repost whose answer is lost is not settled by the story's earlier post: it is looked for, then sent", async () => {
    const story = await makeStory(t.db, { slug: "again" });
    const first = await postNow(story.id);
    expect(first.outcome).toBe("posted");
    const earlierId = first.row!.postId;

    const repost = await requestPost(requestDeps(), { storyId: story.id, actorUserId: null, repost: true });
    fake.answerOnce("feed", { kind: "hang" });
    expect((await attemptPost(attemptDeps(), repost.id)).outcome).toBe("retrying");
    const second = await attemptPost(attemptDeps(), repost.id);
    expect(second.outcome).toBe("posted");
    expect(second.row!.postId).not.toBe(earlierId);
    expect(feedCalls()).toBe(3);
  });

  test("a post of the story's link made long before the request, outside the site, is not taken for it", async () => {
    const story = await makeStory(t.db, { slug: "shared-by-hand" });
    fake.addPost({ message: "Shared by hand", link: `${SITE}/story/shared-by-hand`, createdTime: "2026-01-02T03:04:05+0000" });
    const row = await requestPost(requestDeps(), { storyId: story.id, actorUserId: null });
    await t.db.update(socialMediaPosts).set({ attempts: 1, attemptStartedAt: new Date(NOW.getTime() - ATTEMPT_SPAN_MS) }).where(eq(socialMediaPosts.id, row.id));
    const result = await attemptPost(attemptDeps(), row.id);
    expect(result.outcome).toBe("posted");
    expect(result.row!.postId).not.toBe(fake.posts[0]!.id);
    expect(feedCalls()).toBe(1);
  });

  test("when the last attempt's outcome stays unknown, the post fails with a plain reason", async () => {
    const story = await makeStory(t.db);
    const row = await requestPost(requestDeps(), { storyId: story.id, actorUserId: null });
    await t.db.update(socialMediaPosts).set({ attempts: MAX_ATTEMPTS - 1 }).where(eq(socialMediaPosts.id, row.id));
    fake.answerOnce("feed", { kind: "hang" });
    const result = await attemptPost(attemptDeps(), row.id);
    expect(result).toMatchObject({ outcome: "failed", row: { status: "failed", errorMessage: NOT_CONFIRMED } });
  });

  test("without a Page connection the post fails with how to connect", async () => {
    const story = await makeStory(t.db);
    const row = await requestPost(requestDeps(), { storyId: story.id, actorUserId: null });
    const result = await attemptPost({ ...attemptDeps(), graph: null }, row.id);
    expect(result).toMatchObject({ outcome: "failed", row: { errorMessage: NOT_CONNECTED } });
  });
});

describe("the log of a refused post", () => {
  test("carries Facebook's code, subcode and trace id, and never the token", async () => {
    const lines: string[] = [];
    const capturing = pino({ level: "info" }, { write: (line: string) => void lines.push(line) });
    const story = await makeStory(t.db);
    const row = await requestPost(requestDeps(), { storyId: story.id, actorUserId: null });
    fake.answerOnce("feed", { kind: "error", status: 400, error: { ...graphErrors.expiredToken(), fbtrace_id: "LogTrace9" } });
    await attemptPost({ ...attemptDeps(), logger: capturing }, row.id);
    const refused = lines.map((line) => JSON.parse(line) as Record<string, unknown>).find((entry) => entry.msg === "Facebook refused the post");
    expect(refused).toMatchObject({ code: 190, subcode: graphErrors.expiredToken().error_subcode, fbtraceId: "LogTrace9", storyId: story.id });
    expect(lines.join("\n")).not.toContain(fake.pageToken);
  });
});

describe("a Graph error echoing the token", () => {
  test("is stored, shown on Social Media and logged without it, however Facebook's message and fbtrace_id carry it", async () => {
    const { logger: capturing, lines } = capturedLog();
    const token = fake.pageToken;
    const story = await makeStory(t.db, { status: "published", publishDate: NOW });
    const row = await requestPost(requestDeps(), { storyId: story.id, actorUserId: null });
    // The message quotes the token after a letter, where no shape of a Facebook token is seen: only knowing it scrubs it.
    const echo = { message: `(#100) Invalid parameter x${token}`, type: "OAuthException", code: 100, fbtrace_id: `A${token}` };
    fake.answerOnce("feed", { kind: "error", status: 400, error: echo });
    const result = await attemptPost({ ...attemptDeps(), logger: capturing }, row.id);
    expect(result).toMatchObject({ outcome: "failed", row: { errorCode: 100, fbtraceId: "A[token]" } });
    const stored = await rowsOf(story.id);
    const overview = await socialOverview({ repos: t.repos });
    expect(JSON.stringify(overview)).toContain("A[token]");
    for (const said of [JSON.stringify(result), JSON.stringify(stored), JSON.stringify(overview), JSON.stringify(lines)]) expect(said).not.toContain(token);
  });
});

describe("the wait before the next attempt", () => {
  test.each([
    ["rate-limited", null, 1, 5 * 60_000],
    ["rate-limited", null, 2, 10 * 60_000],
    ["rate-limited", null, 10, 60 * 60_000],
    ["rate-limited", 90_000, 3, 90_000],
    ["transient", null, 1, 60_000],
    ["transient", null, 3, 4 * 60_000],
    ["uncertain", null, 9, 30 * 60_000],
  ] as const)("%s (Retry-After %s ms) after attempt %i waits %i ms", (kind, retryAfterMs, attempts, expected) => {
    expect(retryDelayMs({ kind, retryAfterMs }, attempts)).toBe(expected);
  });
});
