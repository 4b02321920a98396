import { expect, test } from "vitest";
import { makeStory, makeUser } from "~/db/testing/factories";
import { useTestDatabase } from "~/db/testing/test-database";
import { ADMIN_PAGE_SIZE, listAdminStories } from "./admin-list";
import { publishStory, rejectStory } from "./editorial";

const t = useTestDatabase();

test("the back-office list pages on the server and filters by status and text", async () => {
  for (let i = 0; i < ADMIN_PAGE_SIZE + 2; i++) await makeStory(t.db, { status: "pending", title: `Pending ${i}` });
  await makeStory(t.db, { status: "published", title: "Published walrus" });
  const pending = await listAdminStories(t.repos, { status: "pending", search: "", page: 2 });
  expect(pending).toMatchObject({ total: ADMIN_PAGE_SIZE + 2, page: 2, pageCount: 2 });
  expect(pending.stories).toHaveLength(2);
  expect((await listAdminStories(t.repos, { status: "all", search: "walrus", page: 1 })).stories.map((s) => s.title)).toEqual([
    "Published walrus",
  ]);
});

test("each story carries its audit trail, and rejected stories have their own list", async () => {
  const admin = await makeUser(t.db, { email: "chief@oddwire.test" });
  const kept = await makeStory(t.db, { status: "pending", title: "Kept" });
  const dropped = await makeStory(t.db, { status: "pending", title: "Dropped" });
  await publishStory({ editorial: t.repos.editorial }, { actorUserId: admin.id, storyId: kept.id });
  await rejectStory({ editorial: t.repos.editorial }, { actorUserId: admin.id, storyId: dropped.id });
  const { stories } = await listAdminStories(t.repos, { status: "published", search: "", page: 1 });
  expect(stories[0]?.history).toEqual([{ action: "story.publish", by: "chief@oddwire.test", at: expect.any(String) }]);
  const rejected = await listAdminStories(t.repos, { status: "rejected", search: "", page: 1 });
  expect(rejected.rejected.map((r) => [r.title, r.rejectionReason])).toEqual([["Dropped", "manual_rejection"]]);
});
