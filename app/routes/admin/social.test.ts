import { eq } from "drizzle-orm";
import type { AppLoadContext } from "react-router";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { socialMediaPosts } from "~/db/schema";
import { makeStory, makeUser } from "~/db/testing/factories";
import { testDatabaseForFile } from "~/db/testing/test-database";
import { createGraphClient, type GraphClient } from "~/integrations/facebook/graph-client";
import { graphErrors, startFakeGraph, type FakeGraph } from "~/integrations/facebook/testing/fake-graph";
import type { JobsApi } from "~/jobs/types";
import { z } from "zod";
import { adminAnswer, answerOf, refusalOf, routeArgs, routeContext } from "~/test/route-context";
import { loader as connectionLoader } from "./api.facebook";
import { action, loader } from "./social";

// The Social Media page's loader and action as the router runs them, with a signed-in admin, on a real database.

const t = testDatabaseForFile();
const SITE = "https://oddwire.test";
let fake: FakeGraph;
let graph: GraphClient;

beforeAll(async () => {
  fake = await startFakeGraph();
  graph = createGraphClient(fake.clientOptions());
});
afterAll(async () => {
  await graph.close();
  await fake.close();
});

/** A job queue that records what it is asked, as the runner would take it. */
function recordingJobs() {
  const queued: { kind: string; input: Record<string, unknown>; startAfter: Date | null }[] = [];
  const cancelled: string[] = [];
  const jobs: JobsApi = {
    enqueue: async (kind, input, options) => {
      queued.push({ kind, input, startAfter: options?.startAfter ?? null });
      return { jobId: `job-${queued.length}` };
    },
    get: async () => null,
    latestUnfinished: async () => null,
    cancel: async (id) => (cancelled.push(id), true),
  };
  return { jobs, queued, cancelled };
}

async function signedInAdmin(options: { connected?: boolean } = {}) {
  const admin = await makeUser(t.db, { isAdmin: true, email: "boss@oddwire.test" });
  const errors: unknown[] = [];
  const recorded = recordingJobs();
  const log = () => {};
  const context = routeContext({
    repos: t.repos,
    jobs: recorded.jobs,
    facebook: options.connected === false ? null : graph,
    getSessionUser: async () => ({ id: admin.id, email: admin.email, name: admin.name, emailVerified: true }),
    config: { siteUrl: SITE, contactEmail: "tips@oddwire.test", socialUrl: "" },
    logger: { error: (...args: unknown[]) => void errors.push(args), warn: log, info: log, debug: log },
    invalidatePublicPages: () => {},
  });
  return { admin, context, errors, ...recorded };
}

const socialAnswer = adminAnswer.extend({ postRowId: z.number().optional() });
const act = async (context: AppLoadContext, fields: Record<string, string>) =>
  answerOf(
    await action(routeArgs(new Request(`${SITE}/admin/social`, { method: "POST", headers: { origin: SITE }, body: new URLSearchParams(fields) }), context, {})),
    socialAnswer,
  );

describe("the Social Media page", () => {
  test("lists the newest published stories not yet posted, and says whether a Page is connected", async () => {
    const { context } = await signedInAdmin({ connected: false });
    const older = await makeStory(t.db, { title: "Older", publishDate: new Date("2026-01-01T00:00:00Z") });
    const newer = await makeStory(t.db, { title: "Newer", publishDate: new Date("2026-02-01T00:00:00Z") });
    await makeStory(t.db, { title: "Pending", status: "pending", publishDate: null });
    const data = await loader(routeArgs(new Request(`${SITE}/admin/social`), context, {}));
    expect(data.connected).toBe(false);
    expect(data.ready.map((s) => s.id)).toEqual([newer.id, older.id]);
    expect(data.recent).toEqual([]);
  });

  test("Post queues the post's job now; a time queues it for then; neither calls Facebook from the page", async () => {
    const { context, queued } = await signedInAdmin();
    const story = await makeStory(t.db, { title: "Goat" });
    const now = await act(context, { intent: "post", storyId: String(story.id), message: "Hello, Page" });
    expect(now).toMatchObject({ status: 200, body: { ok: true, intent: "post", jobId: "job-1", scheduledFor: null } });
    expect(queued[0]).toMatchObject({ kind: "facebook-post", input: { post_id: now.body.postRowId }, startAfter: null });

    const other = await makeStory(t.db, { title: "Later" });
    const at = new Date(Date.now() + 60 * 60_000);
    const later = await act(context, { intent: "post", storyId: String(other.id), message: "Later", at: at.toISOString() });
    expect(later.body).toMatchObject({ ok: true, scheduledFor: at.toISOString() });
    expect(queued[1]!.startAfter).toEqual(at);
    expect(fake.requests.filter((r) => r.endpoint === "feed")).toHaveLength(0);
  });

  test.each([
    ["no message", { message: "  " }, 400, /message/],
    ["a time that is not one", { message: "Hi", at: "soon" }, 400, /not understood/],
    ["a time in the past", { message: "Hi", at: "2020-01-01T00:00:00Z" }, 400, /future/],
  ])("a post with %s is refused with the reason, nothing stored", async (_name, fields, status, reason) => {
    const { context, queued } = await signedInAdmin();
    const story = await makeStory(t.db);
    const answer = await act(context, { intent: "post", storyId: String(story.id), ...fields });
    expect(answer.status).toBe(status);
    expect(answer.body.toast).toMatchObject({ title: "Error", description: expect.stringMatching(reason) });
    expect(queued).toEqual([]);
    expect(await t.db.select().from(socialMediaPosts)).toEqual([]);
  });

  test("a post while the site has no Page connection is refused with how to connect (409)", async () => {
    const { context } = await signedInAdmin({ connected: false });
    const story = await makeStory(t.db);
    const answer = await act(context, { intent: "post", storyId: String(story.id), message: "Hi" });
    expect(answer.status).toBe(409);
    expect(answer.body.toast?.description).toMatch(/FACEBOOK_PAGE_ID and FACEBOOK_PAGE_TOKEN/);
  });

  test("a second post of a story in flight is a conflict; an unknown story is not found", async () => {
    const { context } = await signedInAdmin();
    const story = await makeStory(t.db);
    await act(context, { intent: "post", storyId: String(story.id), message: "Once" });
    expect((await act(context, { intent: "post", storyId: String(story.id), message: "Twice" })).status).toBe(409);
    expect((await act(context, { intent: "post", storyId: "999999", message: "Nobody" })).status).toBe(404);
  });

  test("Repost loads a published story with the spec's toast title on failure", async () => {
    const { context } = await signedInAdmin();
    const story = await makeStory(t.db, { title: "Loaded" });
    const loaded = await act(context, { intent: "load-story", storyId: String(story.id) });
    expect(loaded.body).toMatchObject({ ok: true, intent: "load-story", story: { id: story.id, title: "Loaded" }, alreadyPosted: false });
    const gone = await makeStory(t.db, { status: "pending", publishDate: null });
    const refused = await act(context, { intent: "load-story", storyId: String(gone.id) });
    expect(refused.status).toBe(409);
    expect(refused.body.toast?.title).toBe("Failed to load story for reposting");
  });

  test("a story loaded from Recent Facebook Posts is a repost only when it is on the Page: one whose post failed is simply posted", async () => {
    const { context } = await signedInAdmin();
    const failedOnly = await makeStory(t.db, { title: "Failed once" });
    const onPage = await makeStory(t.db, { title: "On the Page" });
    await t.db.insert(socialMediaPosts).values([
      { storyId: failedOnly.id, platform: "facebook", status: "failed", message: "m", errorMessage: "The Facebook token has expired." },
      { storyId: onPage.id, platform: "facebook", status: "posted", message: "m", postId: "1_2" },
    ]);
    expect((await act(context, { intent: "load-story", storyId: String(failedOnly.id) })).body).toMatchObject({ alreadyPosted: false });
    expect((await act(context, { intent: "load-story", storyId: String(onPage.id) })).body).toMatchObject({ alreadyPosted: true });
  });

  test("a failure of our own (the job queue down) is logged and answered with 'Failed to post to Facebook'", async () => {
    const { context, errors } = await signedInAdmin();
    const broken = routeContext({ ...context, jobs: { ...context.jobs, enqueue: async () => Promise.reject(new Error("queue table missing")) } });
    const story = await makeStory(t.db);
    const answer = await act(broken, { intent: "post", storyId: String(story.id), message: "Hello" });
    expect(answer.status).toBe(500);
    expect(answer.body.toast).toMatchObject({ title: "Error", description: "Failed to post to Facebook" });
    expect(JSON.stringify(answer.body)).not.toContain("queue table missing");
    expect(errors).toHaveLength(1);
  });

  test("Cancel removes a scheduled post and cancels its job", async () => {
    const { context, cancelled } = await signedInAdmin();
    const story = await makeStory(t.db);
    const posted = await act(context, { intent: "post", storyId: String(story.id), message: "Later", at: new Date(Date.now() + 3_600_000).toISOString() });
    const answer = await act(context, { intent: "cancel", postRowId: String(posted.body.postRowId) });
    expect(answer.body.toast?.title).toBe("Scheduled post cancelled");
    expect(cancelled).toEqual(["job-1"]);
    expect(await t.db.select().from(socialMediaPosts).where(eq(socialMediaPosts.storyId, story.id))).toEqual([]);
    expect((await act(context, { intent: "cancel", postRowId: String(posted.body.postRowId) })).status).toBe(404);
  });
});

describe("GET /admin/api/facebook", () => {
  const check = async (context: AppLoadContext) => {
    const response = await connectionLoader(routeArgs(new Request(`${SITE}/admin/api/facebook`), context, {}));
    return { status: response.status, text: await response.text() };
  };

  test("answers the Page's health without the token; without a Page, that it is not connected", async () => {
    const { context } = await signedInAdmin();
    const answer = await check(context);
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text)).toMatchObject({
      connected: true,
      status: { token: "works", summary: "The token works.", health: { page: { id: fake.pageId }, tokenValid: true, missingPermissions: [] } },
    });
    expect(answer.text).not.toContain(fake.pageToken);
    const withoutPage = routeContext({ ...context, facebook: null });
    expect(JSON.parse((await check(withoutPage)).text)).toEqual({ connected: false });
  });

  test("says the token must be renewed when Facebook no longer takes it", async () => {
    const { context } = await signedInAdmin();
    const expired = { kind: "error", status: 400, error: graphErrors.expiredToken() } as const;
    fake.answerOnce("page", expired);
    fake.answerOnce("debug_token", expired);
    const body = JSON.parse((await check(context)).text) as { status: { token: string; health: { tokenValid: boolean; error: { message: string; code: number } } } };
    fake.clearAnswers();
    expect(body.status.token).toBe("not-working");
    expect(body.status.health.tokenValid).toBe(false);
    expect(body.status.health.error).toMatchObject({ code: 190, message: expect.stringContaining("renew FACEBOOK_PAGE_TOKEN") });
  });

  test("a token check Facebook answers with no data is not reported as expired or missing permissions", async () => {
    const { context } = await signedInAdmin();
    const noData = { kind: "raw", status: 200, body: JSON.stringify({ data: {} }), headers: { "content-type": "application/json" } } as const;
    fake.answerOnce("debug_token", noData);
    fake.answerOnce("permissions", { ...noData, body: JSON.stringify({ data: [] }) });
    const text = (await check(context)).text;
    fake.clearAnswers();
    expect(JSON.parse(text)).toMatchObject({ status: { token: "works", health: { tokenValid: true, permissions: null, missingPermissions: [], error: null } } });
    expect(text).not.toMatch(/expired|Missing|"code":190/);
  });

  test("is for admins only", async () => {
    const { context } = await signedInAdmin();
    const anonymous = routeContext({ ...context, getSessionUser: async () => null });
    const refused = await refusalOf(connectionLoader(routeArgs(new Request(`${SITE}/admin/api/facebook`), anonymous, {})));
    expect([302, 401, 403]).toContain(refused?.status);
  });
});
