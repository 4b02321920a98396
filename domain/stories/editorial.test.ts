import { eq } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { rejectedStories, stories } from "~/db/schema";
import { makeCategory, makeRejectedStory, makeSource, makeStory, makeUser } from "~/db/testing/factories";
import { useTestDatabase } from "~/db/testing/test-database";
import { normalizeUrl, rejectionContentHash } from "~/lib/normalize-url";
import {
  ALREADY_REJECTED_MESSAGE,
  changeStoryCategory,
  createStory,
  deleteStory,
  editStory,
  publishStory,
  REQUIRED_FIELDS_MESSAGE,
  rejectStory,
  unpublishStory,
} from "./editorial";

const t = useTestDatabase();
const NOW = new Date("2026-11-22T10:00:00Z");
const deps = () => ({ editorial: t.repos.editorial, clock: () => NOW, siteUrl: "https://oddwire.test" });
const trail = async (storyId: number) => (await t.repos.audit.forEntity("story", String(storyId))).map((e) => e.action);

describe("story transitions", () => {
  test("Publish makes a pending story published, with a publish date, and records who did it", async () => {
    const editor = await makeUser(t.db, { email: "ed@oddwire.test" });
    const story = await makeStory(t.db, { status: "pending" });
    const published = await publishStory(deps(), { actorUserId: editor.id, storyId: story.id });
    expect(published).toMatchObject({ status: "published" });
    expect(published?.publishDate).toBeInstanceOf(Date);
    const [entry] = await t.repos.audit.forEntity("story", String(story.id));
    expect(entry).toMatchObject({ action: "story.publish", actorEmail: "ed@oddwire.test" });
  });

  test("Publish keeps a publish date the story already has", async () => {
    const editor = await makeUser(t.db);
    const date = new Date("2025-01-02T03:04:05Z");
    const story = await makeStory(t.db, { status: "pending", publishDate: date });
    expect((await publishStory(deps(), { actorUserId: editor.id, storyId: story.id }))?.publishDate).toEqual(date);
  });

  test("Unpublish makes a published story pending", async () => {
    const editor = await makeUser(t.db);
    const story = await makeStory(t.db, { status: "published" });
    expect(await unpublishStory(deps(), { actorUserId: editor.id, storyId: story.id })).toMatchObject({ status: "pending" });
    expect(await trail(story.id)).toEqual(["story.unpublish"]);
  });

  test("transitions the spec does not have are refused", async () => {
    const editor = await makeUser(t.db);
    const published = await makeStory(t.db, { status: "published" });
    const pending = await makeStory(t.db, { status: "pending" });
    await expect(publishStory(deps(), { actorUserId: editor.id, storyId: published.id })).rejects.toMatchObject({ code: "WRONG_STATUS" });
    await expect(unpublishStory(deps(), { actorUserId: editor.id, storyId: pending.id })).rejects.toMatchObject({ code: "WRONG_STATUS" });
    await expect(rejectStory(deps(), { actorUserId: editor.id, storyId: published.id })).rejects.toMatchObject({ code: "WRONG_STATUS" });
    await expect(publishStory(deps(), { actorUserId: editor.id, storyId: 999_999 })).rejects.toMatchObject({ code: "STORY_NOT_FOUND" });
  });
});

describe("the reject flow", () => {
  test("copies the story into rejected_stories with the content hash and details, and removes it", async () => {
    const editor = await makeUser(t.db);
    const source = await makeSource(t.db);
    const story = await makeStory(t.db, { status: "pending", title: " Odd Title ", originalUrl: "https://news.example/odd", sourceId: source.id });
    const result = await rejectStory(deps(), { actorUserId: editor.id, storyId: story.id });
    expect(result).toEqual({ alreadyRejected: false, message: null });
    expect(await t.db.select().from(stories).where(eq(stories.id, story.id))).toEqual([]);
    const [rejected] = await t.db.select().from(rejectedStories);
    expect(rejected).toMatchObject({
      sourceId: source.id,
      title: " Odd Title ",
      originalUrl: "https://news.example/odd",
      normalizedUrl: story.normalizedUrl,
      urlHash: story.urlHash,
      contentHash: rejectionContentHash({ title: " Odd Title ", url: "https://news.example/odd", sourceId: source.id }),
      rejectionReason: "manual_rejection",
      rejectionDetails: { rejection_method: "admin_manual", original_story_id: story.id, rejected_by_admin: true, rejected_at: NOW.toISOString() },
      rejectedAt: NOW,
    });
    expect(await trail(story.id)).toEqual(["story.reject"]);
  });

  test("a URL rejected before is only removed from stories, with the spec's message", async () => {
    const editor = await makeUser(t.db);
    await makeRejectedStory(t.db, { originalUrl: "https://news.example/again" });
    const story = await makeStory(t.db, { status: "pending", originalUrl: "https://www.news.example/again?utm_source=x" });
    const result = await rejectStory(deps(), { actorUserId: editor.id, storyId: story.id });
    expect(result).toEqual({ alreadyRejected: true, message: ALREADY_REJECTED_MESSAGE });
    expect(await t.db.select().from(stories)).toEqual([]);
    expect(await t.db.select().from(rejectedStories)).toHaveLength(1);
  });

  test("rejected stories are listed with when and why", async () => {
    const editor = await makeUser(t.db);
    const story = await makeStory(t.db, { status: "pending", title: "Bad one" });
    await rejectStory(deps(), { actorUserId: editor.id, storyId: story.id });
    const { stories: rows, total } = await t.repos.editorial.listRejected({ search: "", limit: 10, offset: 0 });
    expect(total).toBe(1);
    expect(rows[0]).toMatchObject({ title: "Bad one", rejectionReason: "manual_rejection", rejectedAt: NOW });
  });
});

describe("edits", () => {
  test("category change, edit and delete are recorded", async () => {
    const editor = await makeUser(t.db);
    const animals = await makeCategory(t.db);
    const space = await makeCategory(t.db);
    const story = await makeStory(t.db, { categoryId: animals.id, slug: "keep-this-slug" });
    await changeStoryCategory(deps(), { actorUserId: editor.id, storyId: story.id, categoryId: space.id });
    const edited = await editStory(deps(), {
      actorUserId: editor.id,
      storyId: story.id,
      form: { title: "New title", categoryId: space.id, summary: " A summary ", isFeatured: true, slug: "ignored" },
    });
    expect(edited).toMatchObject({ title: "New title", summary: "A summary", isFeatured: true, categoryId: space.id, slug: "keep-this-slug" });
    await deleteStory(deps(), { actorUserId: editor.id, storyId: story.id });
    expect(await t.db.select().from(stories)).toEqual([]);
    expect(await trail(story.id)).toEqual(["story.delete", "story.edit", "story.category"]);
  });

  test("a new picture forgets the old one's measured size; an edit that keeps the picture keeps it", async () => {
    const editor = await makeUser(t.db);
    const category = await makeCategory(t.db);
    const story = await makeStory(t.db, { categoryId: category.id, imageUrl: "https://cdn.example/a.jpg", imageWidth: 480, imageHeight: 320 });
    const form = { title: "Kept picture", categoryId: category.id, imageUrl: "https://cdn.example/a.jpg" };
    expect(await editStory(deps(), { actorUserId: editor.id, storyId: story.id, form })).toMatchObject({ imageWidth: 480, imageHeight: 320 });
    const changed = await editStory(deps(), { actorUserId: editor.id, storyId: story.id, form: { ...form, imageUrl: "https://cdn.example/b.jpg" } });
    expect(changed).toMatchObject({ imageUrl: "https://cdn.example/b.jpg", imageWidth: null, imageHeight: null });
  });

  test.each([
    [{ title: "  ", categoryId: 1 }, REQUIRED_FIELDS_MESSAGE, { title: REQUIRED_FIELDS_MESSAGE }],
    [{ title: "A title", categoryId: "" }, REQUIRED_FIELDS_MESSAGE, { categoryId: REQUIRED_FIELDS_MESSAGE }],
    [{ title: "A title", categoryId: 1, imageUrl: "javascript:alert(1)" }, "imageUrl must be an http(s) URL", { imageUrl: "must be an http(s) URL" }],
  ])("a form %j is refused with %j, naming the field", async (form, message, fields) => {
    const editor = await makeUser(t.db);
    const story = await makeStory(t.db);
    await expect(editStory(deps(), { actorUserId: editor.id, storyId: story.id, form: form as never })).rejects.toMatchObject({
      code: "INVALID_STORY",
      message,
      fields,
    });
  });
});

describe("a story made by hand", () => {
  test("is published at once with the publish date now, a slug from its title and a normalised URL hash", async () => {
    const editor = await makeUser(t.db);
    const category = await makeCategory(t.db);
    const story = await createStory(deps(), {
      actorUserId: editor.id,
      form: { title: "Cat Runs For Mayor!", categoryId: category.id, sourceUrl: "https://www.news.example/cat/?utm_source=x" },
    });
    const url = normalizeUrl("https://news.example/cat");
    expect(story).toMatchObject({
      status: "published",
      publishDate: NOW,
      slug: "cat-runs-for-mayor",
      urlHash: url.ok ? url.hash : "",
      originalUrl: "https://www.news.example/cat/?utm_source=x",
    });
    expect(await trail(story.id)).toEqual(["story.create"]);
  });

  test("with a URL already in stories is refused", async () => {
    const editor = await makeUser(t.db);
    const category = await makeCategory(t.db);
    await makeStory(t.db, { originalUrl: "https://news.example/dup" });
    await expect(
      createStory(deps(), { actorUserId: editor.id, form: { title: "Dup", categoryId: category.id, sourceUrl: "https://news.example/dup#x" } }),
    ).rejects.toMatchObject({ code: "DUPLICATE_URL" });
  });

  test("gets a numbered slug when its slug is taken, and a URL of its own without a source", async () => {
    const editor = await makeUser(t.db);
    const category = await makeCategory(t.db);
    await makeStory(t.db, { slug: "same-title" });
    const story = await createStory(deps(), { actorUserId: editor.id, form: { title: "Same Title", categoryId: category.id } });
    expect(story.slug).toBe("same-title-2");
    expect(story.normalizedUrl).toBe("https://oddwire.test/story/same-title-2");
  });
});
