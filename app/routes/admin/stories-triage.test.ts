import { eq } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { rejectedStories, stories } from "~/db/schema";
import { makeCategory, makeSource, makeStory, makeUser } from "~/db/testing/factories";
import { testDatabaseForFile } from "~/db/testing/test-database";
import { queueingRunnerForFile } from "~/jobs/testing";
import { answerOf, routeArgs, routeContext } from "~/test/route-context";
import { action, loader } from "./stories";

// The Stories screen's triage, as the router runs it for a signed-in admin, on a real database.

const t = testDatabaseForFile();
const SITE = "https://oddwire.test";
const queueing = queueingRunnerForFile(() => t.database);

async function admin() {
  const user = await makeUser(t.db, { isAdmin: true });
  const log = () => {};
  const context = routeContext({
    repos: t.repos,
    jobs: queueing(),
    getSessionUser: async () => ({ id: user.id, email: user.email, name: user.name, emailVerified: true }),
    config: { siteUrl: SITE },
    logger: { error: log, warn: log, info: log, debug: log },
    invalidatePublicPages: () => {},
    sitePictureExists: async () => true,
  });
  return { user, context };
}
const load = async (search: string) => loader(routeArgs(new Request(`${SITE}/admin/stories${search}`), (await admin()).context, {}));
const post = async (fields: Record<string, string>) =>
  answerOf(await action(routeArgs(new Request(`${SITE}/admin/stories`, { method: "POST", headers: { origin: SITE }, body: new URLSearchParams(fields) }), (await admin()).context, {})));

describe("the Pending list's order", () => {
  test("newest first before there is a ranking, saying what it waits for; most likely first once there is one, unless the editor chose", async () => {
    const low = await makeStory(t.db, { status: "pending", title: "Council budget", createdAt: new Date("2026-11-20T10:00:00Z") });
    const high = await makeStory(t.db, { status: "pending", title: "Goat mayor", createdAt: new Date("2026-11-10T10:00:00Z") });
    const before = await load("?status=pending");
    expect(before.order).toBe("newest");
    expect(before.triage).toMatchObject({ model: null, needed: { published: 50, rejected: 50 }, runningJobId: null });
    expect(before.stories.map((s) => s.id)).toEqual([low.id, high.id]);

    await t.repos.triage.save("ranking", { published: 50, rejected: 50, model: {}, at: new Date() });
    await t.repos.triage.writeScores([
      { id: low.id, score: 0.1, categoryId: null, confidence: null },
      { id: high.id, score: 0.9, categoryId: null, confidence: null },
    ]);
    const after = await load("?status=pending");
    expect(after.order).toBe("likely");
    expect(after.stories.map((s) => [s.id, s.triageScore])).toEqual([
      [high.id, expect.closeTo(0.9, 5)],
      [low.id, expect.closeTo(0.1, 5)],
    ]);
    expect((await load("?status=pending&sort=newest")).stories.map((s) => s.id)).toEqual([low.id, high.id]);
    // Other lists keep their order and have no triage line.
    expect(await load("?status=published")).toMatchObject({ order: "newest", triage: null });
  });

  test("stories that report one event take one row, the most likely, listing the others and why", async () => {
    const source = await makeSource(t.db, { name: "Odd Wire" });
    const first = await makeStory(t.db, { status: "pending", title: "Goat elected mayor" });
    const best = await makeStory(t.db, { status: "pending", title: "Goat is elected mayor", sourceId: source.id });
    await t.db.update(stories).set({ sameStoryGroup: first.id, sameStoryReason: "Titles 90% alike" }).where(eq(stories.status, "pending"));
    await t.repos.triage.writeScores([
      { id: first.id, score: 0.4, categoryId: null, confidence: null },
      { id: best.id, score: 0.8, categoryId: null, confidence: null },
    ]);
    const list = await load("?status=pending");
    expect(list.stories).toHaveLength(1);
    expect(list.stories[0]).toMatchObject({ id: best.id, sameStory: { groupId: first.id, others: [{ id: first.id, status: "pending", reason: "Titles 90% alike" }] } });
  });
});

describe("the Stories screen's triage actions", () => {
  test("publish one report into the suggested category and reject the others as its duplicates", async () => {
    const animals = await makeCategory(t.db, { name: "Animals", slug: "animals" });
    const best = await makeStory(t.db, { status: "pending", title: "Goat elected mayor" });
    const copy = await makeStory(t.db, { status: "pending", title: "Goat is mayor now" });
    const answer = await post({ intent: "publish-group", storyId: String(best.id), categoryId: String(animals.id), duplicateIds: JSON.stringify([copy.id]) });
    expect(answer).toMatchObject({ status: 200, body: { ok: true, toast: { title: "Story Published", description: expect.stringContaining("1 other report rejected as a duplicate.") } } });
    expect((await t.db.select().from(stories).where(eq(stories.id, best.id)))[0]).toMatchObject({ status: "published", categoryId: animals.id });
    expect(await t.db.select().from(rejectedStories)).toMatchObject([{ title: "Goat is mayor now", rejectionReason: "duplicate", rejectionDetails: { duplicate_of: best.id } }]);
  });

  test("reject as a duplicate of a published story", async () => {
    const published = await makeStory(t.db, { status: "published" });
    const copy = await makeStory(t.db, { status: "pending" });
    expect(await post({ intent: "reject", storyId: String(copy.id), duplicateOf: String(published.id) })).toMatchObject({ status: 200, body: { ok: true } });
    expect(await t.db.select().from(rejectedStories)).toMatchObject([{ rejectionReason: "duplicate", rejectionDetails: { duplicate_of: published.id } }]);
  });

  test("'Retrain now' queues one triage job that trains again, and a second click follows it", async () => {
    const first = await post({ intent: "retrain" });
    expect(first).toMatchObject({ status: 200, body: { ok: true, jobId: expect.any(String) } });
    const jobId = (first.body as { jobId: string }).jobId;
    expect(await t.repos.jobs.findById(jobId)).toMatchObject({ kind: "triage", status: "queued", input: { retrain: true } });
    expect(await post({ intent: "retrain" })).toMatchObject({ body: { jobId } });
    expect((await load("?status=pending")).triage?.runningJobId).toBe(jobId);
  });
});
