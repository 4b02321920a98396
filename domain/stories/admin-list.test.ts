import { expect, test } from "vitest";
import { makeCategory, makeRejectedStory, makeSource, makeStory, makeUser } from "~/db/testing/factories";
import { testDatabaseForFile } from "~/db/testing/test-database";
import { ADMIN_PAGE_SIZE, listAdminStories, type AdminListQuery } from "./admin-list";
import { publishStory, rejectStory } from "./editorial";

const t = testDatabaseForFile();

const query = (overrides: Partial<AdminListQuery> = {}): AdminListQuery => ({
  status: "all",
  search: "",
  categoryId: null,
  sourceId: null,
  sort: "newest",
  page: 1,
  ...overrides,
});
const titles = async (overrides: Partial<AdminListQuery>) => (await listAdminStories(t.repos, query(overrides))).stories.map((s) => s.title);
const minutesAgo = (n: number) => new Date(Date.now() - n * 60_000);

test("the back-office list pages on the server and filters by status and text", async () => {
  for (let i = 0; i < ADMIN_PAGE_SIZE + 2; i++) await makeStory(t.db, { status: "pending", title: `Pending ${i}` });
  await makeStory(t.db, { status: "published", title: "Published walrus" });
  const pending = await listAdminStories(t.repos, query({ status: "pending", page: 2 }));
  expect(pending).toMatchObject({ total: ADMIN_PAGE_SIZE + 2, page: 2, pageCount: 2 });
  expect(pending.stories).toHaveLength(2);
  expect(await titles({ search: "walrus" })).toEqual(["Published walrus"]);
});

test("each story carries its audit trail, and rejected stories have their own list", async () => {
  const admin = await makeUser(t.db, { email: "chief@oddwire.test" });
  const kept = await makeStory(t.db, { status: "pending", title: "Kept", categoryId: (await makeCategory(t.db)).id });
  const dropped = await makeStory(t.db, { status: "pending", title: "Dropped" });
  await publishStory({ editorial: t.repos.editorial }, { actorUserId: admin.id, storyId: kept.id });
  await rejectStory({ editorial: t.repos.editorial }, { actorUserId: admin.id, storyId: dropped.id });
  const { stories } = await listAdminStories(t.repos, query({ status: "published" }));
  expect(stories[0]?.history).toEqual([{ action: "story.publish", by: "chief@oddwire.test", at: expect.any(String) }]);
  const rejected = await listAdminStories(t.repos, query({ status: "rejected" }));
  expect(rejected.rejected.map((r) => [r.title, r.rejectionReason, r.note])).toEqual([["Dropped", "manual_rejection", null]]);
});

test("a rejection's list entry says the story it repeats and the editor's own words", async () => {
  const published = await makeStory(t.db, { status: "pending", title: "Goat elected mayor", categoryId: (await makeCategory(t.db)).id });
  const copy = await makeStory(t.db, { status: "pending", title: "Goat is elected mayor" });
  const dull = await makeStory(t.db, { status: "pending", title: "Council budget" });
  await publishStory({ editorial: t.repos.editorial }, { actorUserId: null, storyId: published.id });
  await rejectStory({ editorial: t.repos.editorial }, { actorUserId: null, storyId: copy.id, duplicateOf: published.id });
  await rejectStory({ editorial: t.repos.editorial }, { actorUserId: null, storyId: dull.id, reason: "  Not for this desk " });
  const { rejected } = await listAdminStories(t.repos, query({ status: "rejected", sort: "oldest" }));
  expect(rejected.map((r) => [r.title, r.rejectionReason, r.note])).toEqual([
    ["Goat is elected mayor", "duplicate", `same story as #${published.id}`],
    ["Council budget", "manual_rejection", "Not for this desk"],
  ]);
});

test("the list is narrowed to one category or source, or to the stories without one", async () => {
  const animals = await makeCategory(t.db, { name: "Animals" });
  const space = await makeCategory(t.db, { name: "Space" });
  const wire = await makeSource(t.db, { name: "Odd Wire" });
  const post = await makeSource(t.db, { name: "Bizarre Post" });
  await makeStory(t.db, { title: "Goat mayor", categoryId: animals.id, sourceId: wire.id, createdAt: minutesAgo(1) });
  await makeStory(t.db, { title: "Moon cheese", categoryId: space.id, sourceId: post.id, createdAt: minutesAgo(2) });
  await makeStory(t.db, { title: "Parrot pizza", categoryId: animals.id, sourceId: post.id, status: "pending", createdAt: minutesAgo(3) });
  await makeStory(t.db, { title: "Hand-made yeti", categoryId: null, sourceId: null, createdAt: minutesAgo(4) });

  expect(await titles({ categoryId: animals.id })).toEqual(["Goat mayor", "Parrot pizza"]);
  expect(await titles({ categoryId: "none" })).toEqual(["Hand-made yeti"]);
  expect(await titles({ sourceId: post.id })).toEqual(["Moon cheese", "Parrot pizza"]);
  expect(await titles({ sourceId: "none" })).toEqual(["Hand-made yeti"]);
  expect(await titles({ categoryId: animals.id, sourceId: post.id, status: "pending" })).toEqual(["Parrot pizza"]);
});

test("the list is sorted newest or oldest first by the date a story came in, or by source name", async () => {
  const wire = await makeSource(t.db, { name: "Odd Wire" });
  const post = await makeSource(t.db, { name: "Bizarre Post" });
  await makeStory(t.db, { title: "Second", sourceId: wire.id, createdAt: minutesAgo(20) });
  await makeStory(t.db, { title: "Newest", sourceId: wire.id, createdAt: minutesAgo(10) });
  await makeStory(t.db, { title: "Oldest", sourceId: post.id, createdAt: minutesAgo(30) });
  await makeStory(t.db, { title: "No source", sourceId: null, createdAt: minutesAgo(5) });

  expect(await titles({ sort: "newest" })).toEqual(["No source", "Newest", "Second", "Oldest"]);
  expect(await titles({ sort: "oldest" })).toEqual(["Oldest", "Second", "Newest", "No source"]);
  // By name, then newest first; stories without a source last.
  expect(await titles({ sort: "source" })).toEqual(["Oldest", "Newest", "Second", "No source"]);

  await makeRejectedStory(t.db, { title: "Rejected from the wire", sourceId: wire.id, rejectedAt: minutesAgo(1) });
  await makeRejectedStory(t.db, { title: "Rejected from the post", sourceId: post.id, rejectedAt: minutesAgo(2) });
  const rejected = async (sort: AdminListQuery["sort"]) => (await listAdminStories(t.repos, query({ status: "rejected", sort }))).rejected.map((r) => r.title);
  expect(await rejected("newest")).toEqual(["Rejected from the wire", "Rejected from the post"]);
  expect(await rejected("oldest")).toEqual(["Rejected from the post", "Rejected from the wire"]);
  expect(await rejected("source")).toEqual(["Rejected from the post", "Rejected from the wire"]);
});

test("each status button's count is what it would list with the other filters", async () => {
  const animals = await makeCategory(t.db, { name: "Animals" });
  const wire = await makeSource(t.db, { name: "Odd Wire" });
  await makeStory(t.db, { title: "Goat mayor", categoryId: animals.id, sourceId: wire.id });
  await makeStory(t.db, { title: "Goat choir", categoryId: animals.id, status: "pending" });
  await makeStory(t.db, { title: "Moon cheese", status: "pending" });
  await makeRejectedStory(t.db, { title: "Goat rejected", sourceId: wire.id });
  await makeRejectedStory(t.db, { title: "Moon rejected" });

  const counts = async (overrides: Partial<AdminListQuery>) => (await listAdminStories(t.repos, query(overrides))).counts;
  expect(await counts({})).toEqual({ all: 3, published: 1, pending: 2, rejected: 2 });
  expect(await counts({ search: "goat" })).toEqual({ all: 2, published: 1, pending: 1, rejected: 1 });
  expect(await counts({ sourceId: wire.id })).toEqual({ all: 1, published: 1, pending: 0, rejected: 1 });
  // Rejected stories keep no category: a category filter leaves their count as the other filters make it.
  expect(await counts({ categoryId: animals.id, search: "moon" })).toEqual({ all: 0, published: 0, pending: 0, rejected: 1 });
  // The same numbers whichever status is shown.
  expect(await counts({ status: "rejected", search: "goat" })).toEqual(await counts({ status: "pending", search: "goat" }));
});

test("a search that finds nothing offers the public search's 'Did you mean'; one that finds something does not", async () => {
  await makeStory(t.db, { title: "Parrot orders forty pizzas", status: "published" });
  await makeStory(t.db, { title: "Walrus joins a choir", status: "pending" });
  const miss = await listAdminStories(t.repos, query({ search: "parot" }));
  expect(miss.stories).toEqual([]);
  expect(miss.didYouMean).toBe("parrot");
  expect((await listAdminStories(t.repos, query({ search: "parrot" }))).didYouMean).toBeNull();
  expect((await listAdminStories(t.repos, query({ search: "" }))).didYouMean).toBeNull();
  // Nothing pending matches, but the word is right: no correction.
  expect((await listAdminStories(t.repos, query({ search: "parrot", status: "pending" }))).didYouMean).toBeNull();
});

test("a story shows its link, its source's own date, and the category its source gives as the one to publish with", async () => {
  const animals = await makeCategory(t.db, { name: "Animals" });
  const feed = await makeSource(t.db, { name: "Odd Feed", defaultCategoryId: animals.id });
  const reported = new Date("2026-11-20T08:30:00Z");
  await makeStory(t.db, { status: "pending", title: "Found", sourceId: feed.id, originalUrl: "https://found.example/a", sourceUrl: null, sourcePublishedAt: reported });
  await makeStory(t.db, { status: "pending", title: "Given", originalUrl: null, sourceUrl: "https://given.example/b" });
  const { stories } = await listAdminStories(t.repos, query({ status: "pending", sort: "oldest" }));
  expect(stories.map((s) => [s.title, s.sourceUrl, s.sourcePublishedAt, s.suggestedCategoryId])).toEqual([
    ["Found", "https://found.example/a", reported.toISOString(), animals.id],
    ["Given", "https://given.example/b", null, null],
  ]);
});
