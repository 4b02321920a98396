import { eq } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { stories } from "~/db/schema";
import { makeSource, makeStory } from "~/db/testing/factories";
import { testDatabaseForFile } from "~/db/testing/test-database";
import { regroupSameStories } from "./same-story-regroup";

const t = testDatabaseForFile();
const NOW = new Date("2026-11-22T10:00:00Z");
const HOUR = 3_600_000;
const ago = (hours: number) => new Date(NOW.getTime() - hours * HOUR);
const deps = () => ({ triage: t.repos.triage, now: () => NOW.getTime() });
const groupOf = async (id: number) => {
  const [row] = await t.db.select({ group: stories.sameStoryGroup, reason: stories.sameStoryReason }).from(stories).where(eq(stories.id, id));
  return row;
};

const KANGAROO = [
  ["Runaway kangaroo hops into Austrian supermarket", "A kangaroo that escaped from a private zoo near Salzburg hopped into a supermarket and was caught among the cereal boxes."],
  ["Escaped kangaroo hops into supermarket in Austria", "Police near Salzburg caught a kangaroo in a supermarket after it escaped from a private zoo, shoppers said."],
  ["Kangaroo escapes zoo, hops into Austrian supermarket", "Shoppers near Salzburg found a kangaroo among cereal boxes after it escaped from a private zoo."],
] as const;

describe("regrouping the inbox", () => {
  test("writes each pending story's group and reason, leaves stories alone that stand alone, and changes nothing when run again", async () => {
    const [one, two, three] = [await makeSource(t.db, { name: "One" }), await makeSource(t.db, { name: "Two" }), await makeSource(t.db, { name: "Three" })];
    const a = await makeStory(t.db, { status: "pending", sourceId: one!.id, title: KANGAROO[0][0], summary: KANGAROO[0][1], originalUrl: "https://one.example/k", createdAt: ago(40) });
    const b = await makeStory(t.db, { status: "pending", sourceId: two!.id, title: KANGAROO[1][0], summary: KANGAROO[1][1], originalUrl: "https://two.example/k", createdAt: ago(20) });
    const c = await makeStory(t.db, {
      status: "pending",
      sourceId: three!.id,
      title: KANGAROO[2][0],
      summary: KANGAROO[2][1],
      originalUrl: "https://www.three.example/k",
      // Its source's own date comes before it was fetched: that is the time compared.
      sourcePublishedAt: ago(30),
      createdAt: ago(1),
    });
    const alone = await makeStory(t.db, { status: "pending", sourceId: one!.id, title: "Parrot learns to order pizza", summary: "A parrot in Leeds has learned to order pizza through a smart speaker, its owner says." });

    const first = await regroupSameStories(deps());
    expect(first).toMatchObject({ pending: 4, published: 0, groups: 1, grouped: 3, changed: 3 });
    expect(await groupOf(a.id)).toEqual({ group: a.id, reason: `First of 3 reports of this story, from 3 sources, within a day (also #${b.id}, #${c.id})` });
    expect(await groupOf(b.id)).toEqual({ group: a.id, reason: expect.stringMatching(new RegExp(`^Titles \\d+% alike, summaries \\d+% alike with #${a.id} \\(One\\), within a day$`)) });
    expect(await groupOf(c.id)).toEqual({ group: a.id, reason: expect.stringMatching(new RegExp(`with #${a.id} \\(One\\), within a day$`)) });
    expect(await groupOf(alone.id)).toEqual({ group: null, reason: null });

    expect(await regroupSameStories(deps())).toMatchObject({ groups: 1, grouped: 3, changed: 0 });
  });

  test("a pending story that repeats a recently published one is flagged with it; once its partner is gone, a story is cleared", async () => {
    const [one, two] = [await makeSource(t.db, { name: "One" }), await makeSource(t.db, { name: "Two" })];
    const published = await makeStory(t.db, { status: "published", publishDate: ago(10), sourceId: one!.id, title: KANGAROO[0][0], summary: KANGAROO[0][1], originalUrl: "https://one.example/k", createdAt: ago(30) });
    const late = await makeStory(t.db, { status: "pending", sourceId: two!.id, title: KANGAROO[1][0], summary: KANGAROO[1][1], originalUrl: "https://two.example/k", createdAt: ago(2) });
    // Published too long ago to be compared.
    await makeStory(t.db, { status: "published", publishDate: ago(24 * 40), sourceId: one!.id, title: "Parrot learns to order pizza", summary: "A parrot in Leeds has learned to order pizza through a smart speaker, its owner says.", createdAt: ago(24 * 40) });

    expect(await regroupSameStories(deps())).toMatchObject({ pending: 1, published: 1, groups: 1, grouped: 1, changed: 1 });
    expect(await groupOf(late.id)).toEqual({ group: published.id, reason: expect.stringMatching(new RegExp(`: already published as #${published.id} \\(One\\)$`)) });
    // The published story itself is not written.
    expect(await groupOf(published.id)).toEqual({ group: null, reason: null });

    await t.db.update(stories).set({ status: "pending", publishDate: null }).where(eq(stories.id, published.id));
    await t.db.delete(stories).where(eq(stories.id, published.id));
    expect(await regroupSameStories(deps())).toMatchObject({ pending: 1, groups: 0, grouped: 0, changed: 1 });
    expect(await groupOf(late.id)).toEqual({ group: null, reason: null });
  });

  test("a story published or rejected meanwhile is not written over", async () => {
    const story = await makeStory(t.db, { status: "published" });
    expect(await t.repos.triage.writeSameStory([{ id: story.id, group: 1, reason: "Same title and summary as #1" }])).toBe(0);
    expect(await groupOf(story.id)).toEqual({ group: null, reason: null });
  });

  test("reads the inbox in pages and writes it in batches", async () => {
    const source = await makeSource(t.db, { name: "Many" });
    const other = await makeSource(t.db, { name: "Copies" });
    // 25 pending stories, read 10 at a time: pairs of word-for-word copies from two sources, and one alone.
    await t.db.insert(stories).values(
      Array.from({ length: 25 }, (_, i) => {
        const pair = Math.floor(i / 2);
        return {
          title: `Pumpkin number ${pair} wins the giant vegetable show at Gorseyfield`,
          summary: `Grower ${pair} from Gorseyfield took first prize with pumpkin number ${pair}, the judges said after weighing every entry.`,
          normalizedUrl: `https://copies.example/${i}`,
          urlHash: `hash-${i}`,
          slug: `pumpkin-${i}`,
          status: "pending" as const,
          sourceId: i % 2 === 0 ? source.id : other.id,
          createdAt: ago(i % 48),
        };
      }),
    );
    const batches: number[] = [];
    const triage = { ...t.repos.triage, writeSameStory: (rows: Parameters<typeof t.repos.triage.writeSameStory>[0]) => (batches.push(rows.length), t.repos.triage.writeSameStory(rows)) };
    expect(await regroupSameStories({ ...deps(), triage, readPage: 10, writeBatch: 7 })).toMatchObject({ pending: 25, groups: 12, grouped: 24, changed: 24 });
    expect(batches).toEqual([7, 7, 7, 3]);
    // Each pair's group is its earlier story: the copy from "Copies", an hour older.
    const firsts = await t.db.select({ id: stories.id, group: stories.sameStoryGroup }).from(stories).where(eq(stories.sourceId, source.id));
    expect(firsts.filter((row) => row.group !== null).every((row) => row.group === row.id + 1)).toBe(true);
  });
});
