import { count, desc, sql } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { stories } from "../schema";
import { makeJob, makeStory } from "../testing/factories";
import { testDatabaseForFile } from "../testing/test-database";
import { NEEDS_IMAGE_WORK } from "./images.repo";

const t = testDatabaseForFile();

describe("the stories needing image work", () => {
  test("are those never enhanced or failed last time, less those failed for good", async () => {
    const fresh = await makeStory(t.db, { imageEnhanced: false });
    const failedPassing = await makeStory(t.db, { imageEnhanced: true, imageProcessingStatus: "failed" });
    await makeStory(t.db, { imageEnhanced: false, imageProcessingStatus: "failed", imageFailurePermanent: true });
    await makeStory(t.db, { imageEnhanced: true, imageProcessingStatus: "completed" });
    expect(await t.repos.images.countNeedingWork()).toBe(2);
    expect(await t.repos.images.idsNeedingWork(10)).toEqual([failedPassing.id, fresh.id]);
  });

  test("are read through stories_image_work_idx: the predicate is the index's own", async () => {
    await makeStory(t.db);
    const queries = [
      t.db.select({ n: count() }).from(stories).where(NEEDS_IMAGE_WORK),
      t.db.select({ id: stories.id }).from(stories).where(NEEDS_IMAGE_WORK).orderBy(desc(stories.id)).limit(10),
    ];
    for (const query of queries) {
      const { sql: text, params } = query.toSQL();
      await t.db.execute(sql`SET enable_seqscan = off`);
      try {
        const explained = (await t.db.execute(sql.raw(`EXPLAIN ${text.replace(/\$(\d+)/g, (_m, i: string) => String(params[Number(i) - 1]))}`))) as unknown as {
          rows: { "QUERY PLAN": string }[];
        };
        expect(explained.rows.map((r) => r["QUERY PLAN"]).join("\n")).toContain("stories_image_work_idx");
      } finally {
        await t.db.execute(sql`SET enable_seqscan = on`);
      }
    }
  });
});

describe("the measured speed of recent runs", () => {
  const at = (seconds: number) => new Date(Date.parse("2026-11-26T10:00:00Z") + seconds * 1000);
  const run = (overrides: Parameters<typeof makeJob>[1]) => makeJob(t.db, { kind: "enhance-images", status: "succeeded", input: { storyIds: [1, 2, 3] }, ...overrides });

  test("is null before any bulk run", async () => {
    await run({ input: { singleStoryId: 4 }, progress: 1, startedAt: at(0), finishedAt: at(3) });
    expect(await t.repos.images.recentThroughput(5)).toBeNull();
  });

  test("sums the stories and seconds of the newest bulk runs, finished or cancelled, that looked at a story", async () => {
    await run({ progress: 300, startedAt: at(0), finishedAt: at(100), createdAt: at(0) }); // the oldest: left out by the limit
    await run({ progress: 331, startedAt: at(200), finishedAt: at(209), createdAt: at(200) });
    await run({ status: "cancelled", progress: 20, startedAt: at(300), finishedAt: at(302), createdAt: at(300) });
    await run({ progress: 50, startedAt: at(400), finishedAt: at(401.3), createdAt: at(400) });
    // Not measures of a bulk run's speed: a single-story test, a failed run, one that looked at nothing, one still going.
    await run({ input: { singleStoryId: 9 }, progress: 1, startedAt: at(500), finishedAt: at(530), createdAt: at(500) });
    await run({ status: "failed", progress: 5, startedAt: at(600), finishedAt: at(900), createdAt: at(600) });
    await run({ progress: 0, startedAt: at(700), finishedAt: at(760), createdAt: at(700) });
    await run({ status: "running", progress: 3, startedAt: at(800), createdAt: at(800) });
    await makeJob(t.db, { kind: "ingest", status: "succeeded", progress: 9, input: { storyIds: [1] }, startedAt: at(900), finishedAt: at(990), createdAt: at(900) });
    const speed = await t.repos.images.recentThroughput(3);
    expect(speed).toMatchObject({ runs: 3, stories: 401 });
    expect(speed!.seconds).toBeCloseTo(12.3, 5);
  });
});
