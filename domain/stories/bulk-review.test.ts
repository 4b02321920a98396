import { describe, expect, test } from "vitest";
import { rejectedStories, stories } from "~/db/schema";
import { makeCategory, makeStory, makeUser } from "~/db/testing/factories";
import { testDatabaseForFile } from "~/db/testing/test-database";
import { bulkOutcomeMessage, bulkPublishStories, bulkRejectStories, sameStoryOutcomeMessage } from "./bulk-review";

const t = testDatabaseForFile();
const deps = () => ({ editorial: t.repos.editorial, now: () => Date.parse("2026-11-22T10:00:00Z") });
const statusOf = async (id: number) => (await t.repos.editorial.findById(id))?.status ?? "gone";

describe("bulk review", () => {
  test("publishing several stories publishes each pending one with a category and skips the others with the reason", async () => {
    const editor = await makeUser(t.db);
    const category = await makeCategory(t.db);
    const a = await makeStory(t.db, { status: "pending", categoryId: category.id });
    const b = await makeStory(t.db, { status: "pending", categoryId: category.id });
    const bare = await makeStory(t.db, { status: "pending", title: "Newt elected" });
    const live = await makeStory(t.db, { status: "published", categoryId: category.id });
    const outcome = await bulkPublishStories(deps(), { actorUserId: editor.id, storyIds: [a.id, live.id, bare.id, b.id, 999_999] });
    expect(outcome).toEqual({
      done: 2,
      skipped: [
        { storyId: live.id, reason: "Only a pending story can be published" },
        { storyId: bare.id, reason: '"Newt elected" has no category: choose one to publish it' },
        { storyId: 999_999, reason: "That story no longer exists" },
      ],
    });
    expect([await statusOf(a.id), await statusOf(b.id), await statusOf(live.id), await statusOf(bare.id)]).toEqual(["published", "published", "published", "pending"]);
    expect((await t.repos.audit.forEntity("story", String(a.id))).map((e) => e.action)).toEqual(["story.publish"]);
  });

  test("a category chosen that no longer exists refuses the list in words before any story is published", async () => {
    const crime = await makeCategory(t.db, { name: "Crime" });
    const filed = await makeStory(t.db, { status: "pending", categoryId: crime.id });
    const newt = await makeStory(t.db, { status: "pending", title: "Newt elected" });
    const categoryOf = new Map([[newt.id, 999_999]]);
    await expect(bulkPublishStories(deps(), { actorUserId: null, storyIds: [filed.id, newt.id], categoryOf })).rejects.toMatchObject({
      code: "INVALID_CATEGORY",
      message: "That category no longer exists: choose another",
    });
    expect([await statusOf(filed.id), await statusOf(newt.id)]).toEqual(["pending", "pending"]);
  });

  test("stories without a category are published into the one chosen for each; the others keep their own", async () => {
    const editor = await makeUser(t.db);
    const animals = await makeCategory(t.db, { name: "Animals" });
    const crime = await makeCategory(t.db, { name: "Crime" });
    const filed = await makeStory(t.db, { status: "pending", categoryId: crime.id });
    const newt = await makeStory(t.db, { status: "pending", title: "Newt elected" });
    const heist = await makeStory(t.db, { status: "pending", title: "Cheese heist" });
    const left = await makeStory(t.db, { status: "pending", title: "Left out" });
    const categoryOf = new Map([
      [newt.id, animals.id],
      [heist.id, crime.id],
      [filed.id, animals.id],
    ]);
    const outcome = await bulkPublishStories(deps(), { actorUserId: editor.id, storyIds: [filed.id, newt.id, heist.id, left.id], categoryOf });
    expect(outcome).toEqual({ done: 3, skipped: [{ storyId: left.id, reason: '"Left out" has no category: choose one to publish it' }] });
    const row = async (id: number) => {
      const story = await t.repos.editorial.findById(id);
      return [story?.status, story?.categoryId];
    };
    expect([await row(filed.id), await row(newt.id), await row(heist.id), await row(left.id)]).toEqual([
      ["published", crime.id],
      ["published", animals.id],
      ["published", crime.id],
      ["pending", null],
    ]);
  });

  test("rejecting several stories moves each pending one to the rejected list; a story named twice counts once", async () => {
    const editor = await makeUser(t.db);
    const a = await makeStory(t.db, { status: "pending" });
    const live = await makeStory(t.db, { status: "published" });
    const outcome = await bulkRejectStories(deps(), { actorUserId: editor.id, storyIds: [a.id, a.id, live.id] });
    expect(outcome).toEqual({ done: 1, skipped: [{ storyId: live.id, reason: "Only a pending story can be rejected" }] });
    expect((await t.db.select().from(stories)).map((s) => s.id)).toEqual([live.id]);
    expect(await t.db.select().from(rejectedStories)).toHaveLength(1);
  });

  test("a failure that is not a business rule stops the run and reaches the caller", async () => {
    const editor = await makeUser(t.db);
    const a = await makeStory(t.db, { status: "pending", categoryId: (await makeCategory(t.db)).id });
    const broken = { ...t.repos.editorial, setStatus: async () => Promise.reject(new Error("connection lost")) };
    await expect(bulkPublishStories({ editorial: broken }, { actorUserId: editor.id, storyIds: [a.id] })).rejects.toThrow("connection lost");
    expect(await statusOf(a.id)).toBe("pending");
  });

  test.each([
    [{ done: 1, skipped: [] }, { title: "Published 1 story" }],
    [
      { done: 0, skipped: [{ storyId: 7, reason: "Only a pending story can be published" }] },
      { title: "Published 0 stories", description: "Skipped 1: #7: Only a pending story can be published", tone: "error" },
    ],
    [
      { done: 1, skipped: [{ storyId: 7, reason: "Only a pending story can be published" }] },
      { title: "Published 1 story", description: "Skipped 1: #7: Only a pending story can be published" },
    ],
  ])("the outcome %j reads %j", (outcome, message) => {
    expect(bulkOutcomeMessage("Published", outcome)).toEqual(message);
  });

  test.each([
    [{ done: 1, skipped: [] }, "The story is live on the website; 1 other report rejected as a duplicate."],
    [{ done: 2, skipped: [] }, "The story is live on the website; 2 other reports rejected as duplicates."],
    [{ done: 0, skipped: [{ storyId: 9, reason: "Only a pending story can be rejected" }] }, "The story is live on the website; 0 other reports rejected as duplicates; skipped #9: Only a pending story can be rejected."],
  ])("one report published, the others rejected: %j reads %j", (outcome, description) => {
    expect(sameStoryOutcomeMessage(outcome)).toEqual({ title: "Story Published", description });
  });
});
