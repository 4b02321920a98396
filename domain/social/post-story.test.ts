import { eq } from "drizzle-orm";
import pino from "pino";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { socialMediaPosts } from "~/db/schema";
import { makeCategory, makeStory } from "~/db/testing/factories";
import { useTestDatabase } from "~/db/testing/test-database";
import { isDomainError } from "~/domain/errors";
import { createGraphClient, type GraphClient } from "~/integrations/facebook/graph-client";
import { graphErrors, startFakeGraph, type FakeGraph } from "~/integrations/facebook/testing/fake-graph";
import { NOT_CONFIRMED, postStory } from "./post-story";

const t = useTestDatabase();
const logger = pino({ level: "silent" });
const SITE = "https://oddwire.test";
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
});

const deps = () => ({ repos: t.repos, graph, siteUrl: SITE, logger });
const feedCalls = () => fake.requests.filter((r) => r.endpoint === "feed" && r.method === "POST").length;
const rowsOf = (storyId: number) => t.db.select().from(socialMediaPosts).where(eq(socialMediaPosts.storyId, storyId));
const refusal = (code: string) => (error: unknown) => isDomainError(error) && error.code === code;

describe("posting a story to the Facebook Page", () => {
  test("composes the spec's message, links to the story page, re-reads its card, and stores the posted row", async () => {
    const category = await makeCategory(t.db, { name: "Animals", slug: "animals" });
    const story = await makeStory(t.db, { title: "Goat elected mayor", summary: "A goat won.", slug: "goat", categoryId: category.id });
    const row = await postStory(deps(), { storyId: story.id, actorUserId: null });
    expect(row).toMatchObject({ status: "posted", link: `${SITE}/story/goat`, errorMessage: null });
    expect(row.postId).toBeTruthy();
    expect(row.message).toBe(`Goat elected mayor\n\nA goat won.\n\nRead more: ${SITE}/category/animals\n\n#WeirdNews #Oddwire #StrangeButTrue`);
    expect(fake.requests.some((r) => r.endpoint === "scrape")).toBe(true);
    const feed = fake.requests.find((r) => r.endpoint === "feed")!;
    expect(feed.body).toMatchObject({ message: row.message, link: `${SITE}/story/goat` });
  });

  test("a double submit makes one Graph call: the second finds the first in flight", async () => {
    const story = await makeStory(t.db);
    fake.answerOnce("feed", { kind: "success", delayMs: 200 });
    const results = await Promise.allSettled([
      postStory(deps(), { storyId: story.id, actorUserId: null }),
      postStory(deps(), { storyId: story.id, actorUserId: null }),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const rejected = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect(refusal("POST_IN_FLIGHT")(rejected.reason)).toBe(true);
    expect(feedCalls()).toBe(1);
    expect(await rowsOf(story.id)).toHaveLength(1);
  });

  test("a story already posted is refused, unless it is a deliberate repost", async () => {
    const story = await makeStory(t.db);
    await postStory(deps(), { storyId: story.id, actorUserId: null });
    await expect(postStory(deps(), { storyId: story.id, actorUserId: null })).rejects.toSatisfy(refusal("ALREADY_POSTED"));
    const again = await postStory(deps(), { storyId: story.id, repost: true, message: "Once more, with feeling", actorUserId: null });
    expect(again).toMatchObject({ status: "posted", message: "Once more, with feeling" });
    expect(feedCalls()).toBe(2);
  });

  test("an unpublished story is refused before anything is sent", async () => {
    const story = await makeStory(t.db, { status: "pending", publishDate: null });
    await expect(postStory(deps(), { storyId: story.id, actorUserId: null })).rejects.toSatisfy(refusal("WRONG_STATUS"));
    expect(fake.requests).toHaveLength(0);
  });

  test("a Graph error is stored with the editor's reason, its code, subcode and trace id", async () => {
    const story = await makeStory(t.db);
    fake.answerOnce("feed", { kind: "error", error: graphErrors.expiredToken() });
    const row = await postStory(deps(), { storyId: story.id, actorUserId: null });
    expect(row).toMatchObject({ status: "failed", errorCode: 190, errorSubcode: 463 });
    expect(row.errorMessage).toMatch(/token/i);
    expect(row.errorMessage).not.toContain(fake.clientOptions().pageToken);
  });

  test("an answer that came after the time limit is reconciled from the Page's posts: posted, not sent twice", async () => {
    const story = await makeStory(t.db);
    fake.answerOnce("feed", { kind: "success", delayMs: 1_500 });
    const row = await postStory(deps(), { storyId: story.id, actorUserId: null });
    expect(row.status).toBe("posted");
    expect(row.postId).toBe(fake.posts.at(-1)!.id);
    expect(feedCalls()).toBe(1);
  });

  test("no answer and no post on the Page leaves the row failed with a plain reason", async () => {
    const story = await makeStory(t.db);
    fake.answerOnce("feed", { kind: "hang" });
    const row = await postStory(deps(), { storyId: story.id, actorUserId: null });
    expect(row).toMatchObject({ status: "failed", errorMessage: NOT_CONFIRMED });
  });
});
