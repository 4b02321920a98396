import { expect, test } from "vitest";
import { makeSource, makeStory } from "~/db/testing/factories";
import { testDatabaseForFile } from "~/db/testing/test-database";
import { getDashboardStats } from "./dashboard";

const t = testDatabaseForFile();

test("the dashboard counts stories by status, active RSS sources and the last 7 days", async () => {
  const now = new Date("2026-06-15T12:00:00Z");
  await makeStory(t.db, { status: "published", createdAt: new Date("2026-06-14T00:00:00Z") });
  await makeStory(t.db, { status: "published", createdAt: new Date("2026-05-01T00:00:00Z") });
  await makeStory(t.db, { status: "pending", createdAt: new Date("2026-06-10T00:00:00Z") });
  await makeSource(t.db, { status: "active", sourceType: "rss" });
  await makeSource(t.db, { status: "inactive", sourceType: "rss" });
  await makeSource(t.db, { status: "active", sourceType: "manual", rssFeedUrl: null });
  expect(await getDashboardStats(t.repos, now)).toEqual({ total: 3, published: 2, pending: 1, activeSources: 1, addedLastWeek: 2 });
});
