import { describe, expect, test } from "vitest";
import { makeRejectedStory, makeSource, makeStory, makeUrlQueueItem, makeUser } from "~/db/testing/factories";
import { testDatabaseForFile } from "~/db/testing/test-database";
import { isDomainError } from "~/domain/errors";
import { rejectStory } from "~/domain/stories/editorial";
import { byWorstYield, orderByYield, sourceYields } from "./yield";

const t = testDatabaseForFile();
const NOW = new Date("2026-11-22T10:00:00Z");
const DAY = 86_400_000;
const ago = (days: number) => new Date(NOW.getTime() - days * DAY);
const deps = () => ({ triage: t.repos.triage, now: () => NOW.getTime() });
const row = async (days: number, sourceId: number) => (await sourceYields(deps(), { days })).sources.find((s) => s.sourceId === sourceId);

describe("a source's yield over a window", () => {
  test("counts the items it brought in and what became of each: published, rejected (by hand or otherwise), still pending", async () => {
    const source = await makeSource(t.db, { name: "Weird Wire" });
    const editor = await makeUser(t.db);
    await makeStory(t.db, { sourceId: source.id, status: "published", createdAt: ago(2), publishDate: ago(1) });
    await makeStory(t.db, { sourceId: source.id, status: "pending", createdAt: ago(3) });
    await makeStory(t.db, { sourceId: source.id, status: "pending", createdAt: ago(20) });
    // Rejected at the desk: it came in 5 days ago, which is what places it in a window.
    const rejected = await makeStory(t.db, { sourceId: source.id, status: "pending", createdAt: ago(5) });
    await rejectStory({ editorial: t.repos.editorial, now: () => NOW.getTime() }, { actorUserId: editor.id, storyId: rejected.id });
    // A rejection made by the grouping of a duplicate counts the same way.
    await makeRejectedStory(t.db, { sourceId: source.id, rejectionReason: "duplicate", ingestedAt: ago(1), rejectedAt: ago(0.5) });
    // Came in 40 days ago, rejected yesterday: outside the 30-day window, inside the 90-day one.
    await makeRejectedStory(t.db, { sourceId: source.id, ingestedAt: ago(40), rejectedAt: ago(1) });
    // Rows made before ingested_at was kept: their rejection date stands for it.
    await makeRejectedStory(t.db, { sourceId: source.id, ingestedAt: null, rejectedAt: ago(6) });
    // A URL rejected from the crawl queue never reached Pending.
    await makeRejectedStory(t.db, {
      sourceId: source.id,
      ingestedAt: null,
      rejectedAt: ago(1),
      rejectionDetails: { rejection_method: "admin_manual", from: "url_queue", original_story_id: null, rejected_by_admin: true, rejected_at: ago(1).toISOString() },
    });
    // Older than every window.
    await makeStory(t.db, { sourceId: source.id, status: "published", createdAt: ago(200), publishDate: ago(150) });

    expect(await row(7, source.id)).toEqual({
      sourceId: source.id,
      name: "Weird Wire",
      status: "active",
      broughtIn: 5,
      published: 1,
      rejected: 3,
      pending: 1,
      publishRate: 1 / 5,
      lastPublishedAt: ago(1).toISOString(),
    });
    expect(await row(30, source.id)).toMatchObject({ broughtIn: 6, published: 1, rejected: 3, pending: 2 });
    expect(await row(90, source.id)).toMatchObject({ broughtIn: 7, published: 1, rejected: 4, pending: 2 });
  });

  test("a source with no items shows zeros and no rate, its last published story still dated", async () => {
    const quiet = await makeSource(t.db, { name: "Quiet Gazette" });
    const empty = await makeSource(t.db, { name: "Never Anything" });
    await makeStory(t.db, { sourceId: quiet.id, status: "published", createdAt: ago(300), publishDate: ago(299) });
    expect(await row(7, quiet.id)).toMatchObject({ broughtIn: 0, published: 0, rejected: 0, pending: 0, publishRate: null, lastPublishedAt: ago(299).toISOString() });
    expect(await row(90, empty.id)).toEqual({
      sourceId: empty.id,
      name: "Never Anything",
      status: "active",
      broughtIn: 0,
      published: 0,
      rejected: 0,
      pending: 0,
      publishRate: null,
      lastPublishedAt: null,
    });
  });

  test("sources come best yield first, those with nothing brought in last; worst first puts the noisiest first", async () => {
    const noisy = await makeSource(t.db, { name: "Noisy" });
    const good = await makeSource(t.db, { name: "Good" });
    const silent = await makeSource(t.db, { name: "Silent" });
    const alsoNoisy = await makeSource(t.db, { name: "Also noisy" });
    for (let i = 0; i < 10; i++) await makeStory(t.db, { sourceId: noisy.id, status: "pending", createdAt: ago(1) });
    await makeStory(t.db, { sourceId: good.id, status: "published", createdAt: ago(1) });
    await makeStory(t.db, { sourceId: good.id, status: "pending", createdAt: ago(1) });
    for (let i = 0; i < 3; i++) await makeStory(t.db, { sourceId: alsoNoisy.id, status: "pending", createdAt: ago(1) });
    const report = await sourceYields(deps(), { days: 7 });
    expect(report.sources.map((s) => s.name)).toEqual(["Good", "Also noisy", "Noisy", "Silent"]);
    expect([...report.sources].sort(byWorstYield).map((s) => s.name)).toEqual(["Noisy", "Also noisy", "Good", "Silent"]);
    expect(report).toMatchObject({ days: 7, since: ago(7).toISOString() });
    void silent;
  });

  test("is one query whatever the number of sources", async () => {
    for (let i = 0; i < 5; i++) await makeStory(t.db, { sourceId: (await makeSource(t.db)).id, status: "pending", createdAt: ago(1) });
    await makeUrlQueueItem(t.db);
    const queries = await t.queriesOf(() => sourceYields(deps(), { days: 30 }));
    expect(queries).toHaveLength(1);
  });

  test.each([0, -1, 1.5, 3_651, Number.NaN])("a window of %s days is refused as invalid input", async (days) => {
    const error = await sourceYields(deps(), { days }).catch((e: unknown) => e);
    expect(isDomainError(error) && error.code).toBe("INVALID_INPUT");
  });
});

describe("the Sources page's order by yield", () => {
  const figures = (sourceId: number, broughtIn: number, published: number) => ({
    sourceId,
    name: `Source ${sourceId}`,
    status: "active" as const,
    broughtIn,
    published,
    rejected: 0,
    pending: broughtIn - published,
    publishRate: broughtIn > 0 ? published / broughtIn : null,
    lastPublishedAt: null,
  });
  const yields = [figures(1, 100, 1), figures(2, 10, 5), figures(3, 0, 0), figures(4, 50, 0)];
  const listed = [{ id: 4 }, { id: 3 }, { id: 2 }, { id: 1 }, { id: 5 }];

  test.each([
    ["newest", [4, 3, 2, 1, 5]],
    ["best-yield", [2, 1, 4, 3, 5]],
    ["worst-yield", [4, 1, 2, 3, 5]],
  ] as const)("%s puts the sources in the order %j (a source newer than the figures last)", (sort, order) => {
    expect(orderByYield(listed, yields, sort).map((s) => s.id)).toEqual(order);
  });
});
