import { eq } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { categories, rejectedStories, stories } from "~/db/schema";
import { makeCategory, makeRejectedStory, makeSource, makeStory, makeUser } from "~/db/testing/factories";
import { testDatabaseForFile } from "~/db/testing/test-database";
import { slugsFor } from "~/domain/ingestion/story-draft";
import { normalizeUrl, rejectionContentHash } from "~/lib/normalize-url";
import {
  ALREADY_REJECTED_MESSAGE,
  changeStoryCategory,
  createStory,
  deleteStory,
  editStory,
  GONE_CATEGORY_MESSAGE,
  publishStory,
  REQUIRED_FIELDS_MESSAGE,
  rejectStory,
  unpublishStory,
} from "./editorial";

const t = testDatabaseForFile();
const NOW = new Date("2026-11-22T10:00:00Z");
const deps = () => ({ editorial: t.repos.editorial, now: () => NOW.getTime(), siteUrl: "https://oddwire.test" });
const trail = async (storyId: number) => (await t.repos.audit.forEntity("story", String(storyId))).map((e) => e.action);

describe("story transitions", () => {
  test("Publish makes a pending story published, with a publish date, and records who did it", async () => {
    const editor = await makeUser(t.db, { email: "ed@oddwire.test" });
    const category = await makeCategory(t.db);
    const story = await makeStory(t.db, { status: "pending", categoryId: category.id });
    const published = await publishStory(deps(), { actorUserId: editor.id, storyId: story.id });
    expect(published).toMatchObject({ status: "published" });
    expect(published?.publishDate).toBeInstanceOf(Date);
    const [entry] = await t.repos.audit.forEntity("story", String(story.id));
    expect(entry).toMatchObject({ action: "story.publish", actorEmail: "ed@oddwire.test" });
  });

  test("Publish keeps a publish date the story already has", async () => {
    const editor = await makeUser(t.db);
    const date = new Date("2025-01-02T03:04:05Z");
    const category = await makeCategory(t.db);
    const story = await makeStory(t.db, { status: "pending", publishDate: date, categoryId: category.id });
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

describe("nothing is published without a category", () => {
  test("Publish refuses a story without a category, naming the story and what is missing, and leaves it pending", async () => {
    const editor = await makeUser(t.db);
    const story = await makeStory(t.db, { status: "pending", title: "Owl delivers the post" });
    await expect(publishStory(deps(), { actorUserId: editor.id, storyId: story.id })).rejects.toMatchObject({
      code: "MISSING_CATEGORY",
      message: '"Owl delivers the post" has no category: choose one to publish it',
      fields: { categoryId: "Choose a category to publish this story" },
    });
    const [row] = await t.db.select().from(stories).where(eq(stories.id, story.id));
    expect(row).toMatchObject({ status: "pending", categoryId: null, publishDate: null });
    expect(await trail(story.id)).toEqual([]);
  });

  test("Publish with a category sets it as the story goes live, in one change recorded with it", async () => {
    const editor = await makeUser(t.db);
    const category = await makeCategory(t.db);
    const story = await makeStory(t.db, { status: "pending" });
    const published = await publishStory(deps(), { actorUserId: editor.id, storyId: story.id, categoryId: category.id });
    expect(published).toMatchObject({ status: "published", categoryId: category.id });
    const [entry] = await t.repos.audit.forEntity("story", String(story.id));
    expect(entry).toMatchObject({ action: "story.publish", details: { category: { from: null, to: category.id } } });
  });

  test("a category deleted since the form was drawn is refused in words beside the field, on every path that sets one", async () => {
    const category = await makeCategory(t.db);
    const gone = (await makeCategory(t.db)).id;
    await t.db.delete(categories).where(eq(categories.id, gone));
    const refusal = { code: "INVALID_CATEGORY", message: GONE_CATEGORY_MESSAGE, fields: { categoryId: GONE_CATEGORY_MESSAGE } };
    const pending = await makeStory(t.db, { status: "pending", title: "Owl post", categoryId: category.id });
    await expect(publishStory(deps(), { actorUserId: null, storyId: pending.id, categoryId: gone })).rejects.toMatchObject(refusal);
    await expect(changeStoryCategory(deps(), { actorUserId: null, storyId: pending.id, categoryId: gone })).rejects.toMatchObject(refusal);
    await expect(editStory(deps(), { actorUserId: null, storyId: pending.id, form: { title: "Owl post", categoryId: gone } })).rejects.toMatchObject(refusal);
    await expect(createStory(deps(), { actorUserId: null, form: { title: "Owl two", categoryId: gone } })).rejects.toMatchObject(refusal);
    expect(await t.repos.editorial.findById(pending.id)).toMatchObject({ status: "pending", categoryId: category.id });
    expect(await trail(pending.id)).toEqual([]);
  });

  test("a published story keeps its category: taking it away is refused", async () => {
    const editor = await makeUser(t.db);
    const category = await makeCategory(t.db);
    const story = await makeStory(t.db, { status: "published", categoryId: category.id });
    await expect(changeStoryCategory(deps(), { actorUserId: editor.id, storyId: story.id, categoryId: null })).rejects.toMatchObject({ code: "MISSING_CATEGORY" });
    const pending = await makeStory(t.db, { status: "pending", categoryId: category.id });
    expect(await changeStoryCategory(deps(), { actorUserId: editor.id, storyId: pending.id, categoryId: null })).toMatchObject({ categoryId: null });
  });
});

describe("the reject flow", () => {
  test("copies the story into rejected_stories with the content hash and details, and removes it", async () => {
    const editor = await makeUser(t.db);
    const source = await makeSource(t.db);
    const story = await makeStory(t.db, { status: "pending", title: " Odd Title ", summary: "A goat ran the town meeting.", originalUrl: "https://news.example/odd", sourceId: source.id });
    const result = await rejectStory(deps(), { actorUserId: editor.id, storyId: story.id });
    expect(result).toEqual({ alreadyRejected: false, message: null });
    expect(await t.db.select().from(stories).where(eq(stories.id, story.id))).toEqual([]);
    const [rejected] = await t.db.select().from(rejectedStories);
    expect(rejected).toMatchObject({
      sourceId: source.id,
      title: " Odd Title ",
      // What the triage model learns a rejection from.
      summary: "A goat ran the town meeting.",
      ingestedAt: story.createdAt,
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
    const { stories: rows, total } = await t.repos.stories.adminRejectedList({ search: "", categoryId: null, sourceId: null, sort: "newest", limit: 10, offset: 0 });
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
    [
      { title: "A title", categoryId: 1, imageUrl: "javascript:alert(1)" },
      "imageUrl must be an http(s) URL or a picture on this site, such as /demo/cat.svg",
      { imageUrl: "must be an http(s) URL or a picture on this site, such as /demo/cat.svg" },
    ],
    [{ title: "A title", categoryId: 1, imageUrl: "/about" }, "imageUrl must be an http(s) URL or a picture on this site, such as /demo/cat.svg", { imageUrl: expect.any(String) }],
    [{ title: "A title", categoryId: 1, imageUrl: "data:image/png;base64,AAAA" }, "imageUrl must be an http(s) URL or a picture on this site, such as /demo/cat.svg", { imageUrl: expect.any(String) }],
    [{ title: "A title", categoryId: 1, sourceUrl: "ftp://files.example/a" }, "sourceUrl must be an http(s) URL", { sourceUrl: "must be an http(s) URL" }],
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

describe("every field of the Edit dialog is saved", () => {
  const sitePictures = new Set(["/demo/cat.svg", "/demo/ufo.svg"]);
  const withPictures = () => ({ ...deps(), sitePictureExists: async (path: string) => sitePictures.has(path) });

  test("a picture on the site itself (a path the site serves) is a valid picture; one it does not have is refused, saying so", async () => {
    const editor = await makeUser(t.db);
    const category = await makeCategory(t.db);
    const story = await makeStory(t.db, { categoryId: category.id, imageUrl: "/demo/ufo.svg" });
    const form = { title: story.title, categoryId: category.id, imageUrl: "/demo/cat.svg", sourceUrl: story.originalUrl };
    expect(await editStory(withPictures(), { actorUserId: editor.id, storyId: story.id, form })).toMatchObject({ imageUrl: "/demo/cat.svg" });
    await expect(editStory(withPictures(), { actorUserId: editor.id, storyId: story.id, form: { ...form, imageUrl: "/demo/missing.svg" } })).rejects.toMatchObject({
      code: "INVALID_STORY",
      fields: { imageUrl: "there is no picture at /demo/missing.svg on this site" },
    });
  });

  test("a new Source URL is the story's link: shown back, deduplicated by, and read again by image enhancement", async () => {
    const editor = await makeUser(t.db);
    const category = await makeCategory(t.db);
    const story = await makeStory(t.db, {
      categoryId: category.id,
      originalUrl: "https://old.example/story",
      sourceUrl: "https://old.example/story",
      imageEnhanced: true,
      imageProcessingStatus: "failed",
      imageFailurePermanent: true,
    });
    const edited = await editStory(deps(), {
      actorUserId: editor.id,
      storyId: story.id,
      form: { title: story.title, summary: story.summary, content: story.content, categoryId: category.id, sourceUrl: "https://www.new.example/story/?utm_source=x" },
    });
    const moved = normalizeUrl("https://www.new.example/story/?utm_source=x");
    expect(moved.ok).toBe(true);
    expect(edited).toMatchObject({
      originalUrl: "https://www.new.example/story/?utm_source=x",
      sourceUrl: "https://www.new.example/story/?utm_source=x",
      normalizedUrl: moved.ok ? moved.normalized : "",
      urlHash: moved.ok ? moved.hash : "",
      // A new page is image work again.
      imageEnhanced: false,
      imageProcessingStatus: null,
      imageFailurePermanent: false,
    });
    const [entry] = await t.repos.audit.forEntity("story", String(story.id));
    expect(entry?.details).toMatchObject({ changed: ["sourceUrl"] });
  });

  test("an edit that keeps the link and the picture keeps the image work as it was", async () => {
    const editor = await makeUser(t.db);
    const category = await makeCategory(t.db);
    const story = await makeStory(t.db, { categoryId: category.id, imageUrl: "https://cdn.example/a.jpg", imageEnhanced: true, imageProcessingStatus: "failed", imageFailurePermanent: true });
    const edited = await editStory(deps(), {
      actorUserId: editor.id,
      storyId: story.id,
      form: { title: "Only the title", categoryId: category.id, imageUrl: "https://cdn.example/a.jpg", sourceUrl: story.originalUrl },
    });
    expect(edited).toMatchObject({ title: "Only the title", urlHash: story.urlHash, imageEnhanced: true, imageProcessingStatus: "failed", imageFailurePermanent: true });
    const repictured = await editStory(deps(), {
      actorUserId: editor.id,
      storyId: story.id,
      form: { title: "Only the title", categoryId: category.id, imageUrl: "https://cdn.example/b.jpg", sourceUrl: story.originalUrl },
    });
    expect(repictured).toMatchObject({ imageFailurePermanent: false, urlHash: story.urlHash });
  });

  test("a Source URL another story has is refused beside the field; emptying a story's link is refused", async () => {
    const editor = await makeUser(t.db);
    const category = await makeCategory(t.db);
    const other = await makeStory(t.db, { originalUrl: "https://taken.example/a" });
    const story = await makeStory(t.db, { categoryId: category.id });
    const form = { title: story.title, categoryId: category.id };
    await expect(editStory(deps(), { actorUserId: editor.id, storyId: story.id, form: { ...form, sourceUrl: "https://www.taken.example/a/" } })).rejects.toMatchObject({
      code: "DUPLICATE_URL",
      fields: { sourceUrl: "Another story already has this source URL" },
    });
    await expect(editStory(deps(), { actorUserId: editor.id, storyId: story.id, form: { ...form, sourceUrl: " " } })).rejects.toMatchObject({
      code: "INVALID_STORY",
      fields: { sourceUrl: expect.stringContaining("keeps its source URL") },
    });
    const [row] = await t.db.select().from(stories).where(eq(stories.id, story.id));
    expect(row?.originalUrl).toBe(story.originalUrl);
    expect(other.id).not.toBe(story.id);
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

  test.each([
    "- Goat elected mayor of a town whose name is far too long to fit in any sensible web address at all -",
    "Crime & Courts: the parrot testifies!",
  ])("gets the slug a story found in a feed with the title %j gets", async (title) => {
    const editor = await makeUser(t.db);
    const category = await makeCategory(t.db);
    const story = await createStory(deps(), { actorUserId: editor.id, form: { title, categoryId: category.id } });
    expect(story.slug).toBe(slugsFor(title, "0".repeat(64)).slug);
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
