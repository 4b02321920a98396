import { eq, sql } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { stories, triageModels } from "~/db/schema";
import { makeCategory, makeSource, makeStory, makeUser } from "~/db/testing/factories";
import { testDatabaseForFile } from "~/db/testing/test-database";
import { publishOneRejectCopies } from "~/domain/stories/bulk-review";
import { rejectStory } from "~/domain/stories/editorial";
import { regroupSameStories } from "./same-story-regroup";
import { explainScore, retrainDue, runTriage, scorePending, triageListing, triageStatus } from "./triage";

const t = testDatabaseForFile();
const models = () => t.repos.triage;
const editorial = () => ({ editorial: t.repos.editorial });
const regroup = () => regroupSameStories({ triage: t.repos.triage });

/**
 * A desk that publishes animal oddities and rejects council business: 50 of each decided (the least
 * the ranking learns from), published into "animals", the rejections made through the reject flow.
 */
async function deskWithDecisions(options: { published?: number; rejected?: number } = {}) {
  const editor = await makeUser(t.db);
  const animals = await makeCategory(t.db, { name: "Animals", slug: "animals" });
  const source = await makeSource(t.db, { name: "Odd Wire" });
  for (let i = 0; i < (options.published ?? 50); i++) {
    await makeStory(t.db, { status: "published", categoryId: animals.id, sourceId: source.id, title: `Goat number ${i} escapes the zoo and rides a llama`, summary: "A goat, a llama and a zoo keeper chase." });
  }
  for (let i = 0; i < (options.rejected ?? 50); i++) {
    const story = await makeStory(t.db, { status: "pending", sourceId: source.id, title: `Council budget meeting ${i} approves the parking levy`, summary: "The council voted on the budget and the levy." });
    await rejectStory(editorial(), { actorUserId: editor.id, storyId: story.id });
  }
  return { editor, animals, source };
}

describe("the Pending list's triage", () => {
  test("before 50 published and 50 rejected there is no ranking: no model, no score, newest first", async () => {
    await deskWithDecisions({ published: 50, rejected: 49 });
    const inbox = await makeStory(t.db, { status: "pending", title: "A goat escapes the zoo" });
    const status = await triageStatus({ models: models() });
    expect(status).toMatchObject({ decisions: { published: 50, rejected: 49 }, needed: { published: 50, rejected: 50 }, model: null });
    // Due for the category model alone: it learns from published stories only.
    expect(await retrainDue({ models: models() })).toBe(true);
    const result = await runTriage({ models: models(), regroup }, { retrain: false });
    expect(result).toMatchObject({ retrained: true, ranking: false, category: true });
    expect((await t.db.select().from(triageModels).where(eq(triageModels.kind, "ranking")))).toEqual([]);
    const listing = await triageListing({ models: models() }, { limit: 10 });
    expect(listing.model).toBeNull();
    expect(listing.stories[0]).toMatchObject({ id: inbox.id, score: null });
  });

  test("with enough decisions a pass trains both models, scores every pending story, and the likely one comes first", async () => {
    const { animals } = await deskWithDecisions();
    const dull = await makeStory(t.db, { status: "pending", title: "Council approves the budget for the parking levy", summary: "The council voted." });
    const odd = await makeStory(t.db, { status: "pending", title: "A goat escapes the zoo on a llama", summary: "The zoo keeper gave chase." });
    expect(await retrainDue({ models: models() })).toBe(true);

    const result = await runTriage({ models: models(), regroup }, { retrain: false });
    expect(result).toMatchObject({ retrained: true, ranking: true, category: true, scored: 2 });
    const [oddRow] = await t.db.select().from(stories).where(eq(stories.id, odd.id));
    const [dullRow] = await t.db.select().from(stories).where(eq(stories.id, dull.id));
    expect(oddRow!.triageScore).toBeGreaterThan(0.5);
    expect(dullRow!.triageScore).toBeLessThan(0.5);
    // The category the desk publishes such stories in, preselected for publishing.
    expect(oddRow!.suggestedCategoryId).toBe(animals.id);

    const listing = await triageListing({ models: models() }, { limit: 10 });
    expect(listing.model).toMatchObject({ published: 50, rejected: 50 });
    expect(listing.stories.map((s) => s.id)).toEqual([odd.id, dull.id]);
    expect(listing.stories[0]!.suggestedCategory).toMatchObject({ slug: "animals", name: "Animals" });

    const explained = await explainScore({ models: models(), story: (id) => models().storyForTriage(id) }, odd.id);
    expect(explained!.reasons.find((r) => r.weight > 0)?.feature).toMatch(/^words?: /);
    expect(explained!.reasons.some((r) => r.feature === "word: goat" && r.weight > 0)).toBe(true);
    // A story no longer pending has nothing to explain.
    expect(await explainScore({ models: models(), story: (id) => models().storyForTriage(id) }, (await makeStory(t.db, { status: "published" })).id)).toBeNull();

    // Nothing new decided: the next pass keeps the model and scores only stories not scored yet.
    const later = await makeStory(t.db, { status: "pending", title: "Llama joins a goat choir" });
    expect(await retrainDue({ models: models() })).toBe(false);
    expect(await runTriage({ models: models(), regroup }, { retrain: false })).toMatchObject({ retrained: false, scored: 1 });
    expect((await t.db.select().from(stories).where(eq(stories.id, later.id)))[0]!.triageScore).not.toBeNull();
    expect(await t.db.select().from(triageModels).where(eq(triageModels.kind, "ranking"))).toHaveLength(1);
  });

  test("a desk past 10,000 rejections, more than a model learns from, is trained again only after new decisions", async () => {
    await deskWithDecisions({ published: 50, rejected: 0 });
    // 10,030 rejections made through the reject flow earlier: a general feed's year.
    await t.db.execute(sql`
      INSERT INTO rejected_stories (title, summary, original_url, normalized_url, url_hash, rejection_reason, rejection_details, rejected_at)
      SELECT 'Council meeting ' || i || ' approves the levy', 'The council voted.', 'https://news.example/r/' || i, 'news.example/r/' || i, md5(i::text),
             'manual_rejection', jsonb_build_object('rejection_method', 'admin_manual', 'original_story_id', i, 'rejected_by_admin', true, 'rejected_at', now()),
             now() - interval '1 day'
      FROM generate_series(1, 10030) AS i`);
    expect(await retrainDue({ models: models() })).toBe(true);
    expect(await runTriage({ models: models(), regroup }, { retrain: false })).toMatchObject({ retrained: true, ranking: true });
    // It learned from the newest 10,000; nothing was decided since, so the next passes do not train again.
    expect(await retrainDue({ models: models() })).toBe(false);
    expect(await runTriage({ models: models(), regroup }, { retrain: false })).toMatchObject({ retrained: false });
    // 25 decisions later it is due again.
    const editor = await makeUser(t.db);
    for (let i = 0; i < 25; i++) {
      const story = await makeStory(t.db, { status: "pending", title: `Parking levy hearing ${i}` });
      await rejectStory(editorial(), { actorUserId: editor.id, storyId: story.id });
    }
    expect(await retrainDue({ models: models() })).toBe(true);
  });

  test("a desk that publishes but rejects little still gets category suggestions, trained without being asked", async () => {
    const { animals } = await deskWithDecisions({ published: 50, rejected: 3 });
    const odd = await makeStory(t.db, { status: "pending", title: "A goat escapes the zoo on a llama" });
    expect(await retrainDue({ models: models() })).toBe(true);
    expect(await runTriage({ models: models(), regroup }, { retrain: false })).toMatchObject({ retrained: true, ranking: false, category: true });
    expect((await t.db.select().from(stories).where(eq(stories.id, odd.id)))[0]!.suggestedCategoryId).toBe(animals.id);
    expect(await retrainDue({ models: models() })).toBe(false);
  });

  test("published stories no category model can learn from (each category too small) are not tried again on every pass", async () => {
    for (let i = 0; i < 50; i++) {
      const category = await makeCategory(t.db, { name: `Section ${i}`, slug: `section-${i}` });
      await makeStory(t.db, { status: "published", categoryId: category.id, title: `Story ${i} of its own section` });
    }
    expect(await retrainDue({ models: models() })).toBe(true);
    expect(await runTriage({ models: models(), regroup }, { retrain: false })).toMatchObject({ ranking: false, category: false });
    // An empty category model marks the attempt; the next waits for 25 more published stories.
    const [kept] = await t.db.select().from(triageModels).where(eq(triageModels.kind, "category"));
    expect((kept!.model as { categories: unknown[] }).categories).toEqual([]);
    expect(await retrainDue({ models: models() })).toBe(false);
  });

  test("a retrain that fails keeps the last good models in use and says why", async () => {
    await deskWithDecisions();
    const odd = await makeStory(t.db, { status: "pending", title: "A goat escapes the zoo on a llama" });
    await runTriage({ models: models(), regroup }, { retrain: true });
    const before = await t.db.select({ id: triageModels.id, kind: triageModels.kind }).from(triageModels);
    const [scored] = await t.db.select({ score: stories.triageScore }).from(stories).where(eq(stories.id, odd.id));
    expect(before.map((m) => m.kind).sort()).toEqual(["category", "ranking"]);

    // The database refuses to keep new models (a full disk, say).
    await t.db.execute(sql`CREATE FUNCTION refuse_models() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'could not extend file: No space left on device'; END $$`);
    await t.db.execute(sql`CREATE TRIGGER refuse_models BEFORE INSERT ON triage_models FOR EACH ROW EXECUTE FUNCTION refuse_models()`);
    try {
      const failures: string[] = [];
      const result = await runTriage({ models: models(), regroup, onModelFailure: (kind) => void failures.push(kind) }, { retrain: true });
      expect(result).toMatchObject({ retrained: false, ranking: false, category: false });
      expect(failures.sort()).toEqual(["category", "ranking"]);
      expect(await t.db.select({ id: triageModels.id, kind: triageModels.kind }).from(triageModels)).toEqual(before);
      // The inbox keeps the scores of the models in use, and the listing still reads most likely first.
      expect((await t.db.select({ score: stories.triageScore }).from(stories).where(eq(stories.id, odd.id)))[0]).toEqual(scored);
      expect((await triageListing({ models: models() }, { limit: 5 })).model).toMatchObject({ published: 50, rejected: 50 });
    } finally {
      await t.db.execute(sql`DROP TRIGGER refuse_models ON triage_models`);
      await t.db.execute(sql`DROP FUNCTION refuse_models()`);
    }
  });

  test("duplicates rejected for a published copy do not count as the desk's rejections", async () => {
    const { editor, animals } = await deskWithDecisions({ published: 1, rejected: 2 });
    const best = await makeStory(t.db, { status: "pending", title: "Goat mayor elected again", categoryId: animals.id });
    const copy = await makeStory(t.db, { status: "pending", title: "Goat mayor re-elected" });
    const outcome = await publishOneRejectCopies(editorial(), { actorUserId: editor.id, storyId: best.id, duplicateIds: [copy.id] });
    expect(outcome).toEqual({ done: 1, skipped: [] });
    expect((await triageStatus({ models: models() })).decisions).toEqual({ published: 2, rejected: 2 });
  });

  test("bad input gets sensible answers: empty summaries, other languages, a 100 KB summary", async () => {
    await deskWithDecisions();
    await makeStory(t.db, { status: "pending", title: "Козёл сбежал из зоопарка", summary: null });
    await makeStory(t.db, { status: "pending", title: "山羊逃出动物园", summary: "山羊".repeat(50_000) });
    await makeStory(t.db, { status: "pending", title: "x", summary: "word ".repeat(20_000) });
    await runTriage({ models: models(), regroup }, { retrain: true });
    const scores = (await t.db.select({ score: stories.triageScore }).from(stories).where(eq(stories.status, "pending"))).map((r) => r.score);
    expect(scores).toHaveLength(3);
    for (const score of scores) expect(score).toBeGreaterThanOrEqual(0);
    for (const score of scores) expect(score).toBeLessThanOrEqual(1);
  });

  test("scoring pages through the inbox and reports its progress", async () => {
    await deskWithDecisions();
    await runTriage({ models: models(), regroup }, { retrain: true });
    for (let i = 0; i < 5; i++) await makeStory(t.db, { status: "pending", title: `Pending ${i}` });
    const progress: number[] = [];
    const { scored } = await scorePending({ models: models() }, { all: true, onProgress: (p) => void progress.push(p.done) });
    expect(scored).toBe(5);
    expect(progress.at(-1)).toBe(5);
  });
});
