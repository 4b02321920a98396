import { eq, sql } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { feedProcessingLog, rejectedStories, scrapedCandidates, socialMediaPosts, sources, stories, urlQueue } from "~/db/schema";
import {
  makeCategory,
  makeFeedLog,
  makeRejectedStory,
  makeScrapedCandidate,
  makeSocialPost,
  makeSource,
  makeStory,
  makeUrlQueueItem,
  makeUser,
} from "~/db/testing/factories";
import { testDatabaseForFile } from "~/db/testing/test-database";
import { isDomainError } from "~/domain/errors";
import { createSource, deleteSource, ingestionFailures, InvalidSourceError, listSources, updateSource } from "./sources";
import { sourceForm } from "./testing";

const t = testDatabaseForFile();
const NOW = new Date("2026-11-22T10:00:00Z");
const DAY = 86_400_000;
const deps = () => ({ sources: t.repos.sources, crawl: t.repos.crawl, now: () => NOW.getTime() });
const trail = async (sourceId: number) => (await t.repos.audit.forEntity("source", String(sourceId))).map((e) => e.action);

const form = sourceForm;

describe("creating a source", () => {
  test("stores the form's values and records who added it", async () => {
    const editor = await makeUser(t.db, { email: "ed@oddwire.test" });
    const created = await createSource(deps(), {
      actorUserId: editor.id,
      form: form({
        sourceType: "web_scraping",
        rssFeedUrl: "",
        scrapingConfig: '{"startUrls": ["https://oddplanet.example/news"], "crawlDelay": 1000}',
        includeKeywords: ["weird", " Weird ", "odd"],
        excludeKeywords: ["sport"],
        notes: "Checked weekly",
        pollIntervalMinutes: "60",
      }),
    });
    expect(created).toMatchObject({
      name: "Odd Planet",
      websiteUrl: "https://oddplanet.example",
      rssFeedUrl: null,
      sourceType: "web_scraping",
      status: "active",
      scrapingConfig: { startUrls: ["https://oddplanet.example/news"], crawlDelay: 1000 },
      includeKeywords: ["weird", "odd"],
      excludeKeywords: ["sport"],
      notes: "Checked weekly",
      pollIntervalMinutes: 60,
    });
    const [entry] = await t.repos.audit.forEntity("source", String(created.id));
    expect(entry).toMatchObject({ action: "source.create", actorEmail: "ed@oddwire.test" });
  });

  test("names a default category for the stories it brings in, shown back on its card; one that no longer exists is refused", async () => {
    const animals = await makeCategory(t.db, { name: "Animals" });
    const withCategories = () => ({ ...deps(), categories: t.repos.categories });
    const created = await createSource(withCategories(), { actorUserId: null, form: form({ defaultCategoryId: String(animals.id) }) });
    expect(created.defaultCategoryId).toBe(animals.id);
    expect((await listSources(deps())).find((s) => s.id === created.id)?.defaultCategoryId).toBe(animals.id);
    const cleared = await updateSource(withCategories(), { actorUserId: null, sourceId: created.id, form: form({ rssFeedUrl: created.rssFeedUrl!, defaultCategoryId: "" }) });
    expect(cleared.defaultCategoryId).toBeNull();
    const error = await updateSource(withCategories(), { actorUserId: null, sourceId: created.id, form: form({ rssFeedUrl: created.rssFeedUrl!, defaultCategoryId: "999999" }) }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidSourceError);
    expect((error as InvalidSourceError).fields).toEqual({ defaultCategoryId: "That category no longer exists: choose another, or none" });
  });

  test("a refused form stores nothing and says what is wrong with each field", async () => {
    const error = await createSource(deps(), { actorUserId: null, form: form({ name: " ", rssFeedUrl: "" }) }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidSourceError);
    expect((error as InvalidSourceError).fields).toEqual({ name: "Name is required", rssFeedUrl: "RSS Feed URL is required for RSS sources" });
    expect(await t.db.select().from(sources)).toEqual([]);
  });

  test("a feed another source already has is refused, however it is written", async () => {
    await makeSource(t.db, { name: "First", rssFeedUrl: "https://oddplanet.example/feed.xml" });
    const error = await createSource(deps(), {
      actorUserId: null,
      form: form({ name: "Second", rssFeedUrl: "https://www.OddPlanet.example/feed.xml/?utm_source=x" }),
    }).catch((e: unknown) => e);
    expect((error as InvalidSourceError).fields).toEqual({ rssFeedUrl: 'This feed is already added as "First"' });
    expect(await t.db.select().from(sources)).toHaveLength(1);
  });
});

describe("the sources list", () => {
  test("is newest first, unpaginated, and searched by name, ignoring case", async () => {
    for (let i = 0; i < 60; i++) await makeSource(t.db, { name: `Feed ${i}`, createdAt: new Date(NOW.getTime() - (60 - i) * 1000) });
    await makeSource(t.db, { name: "Weird News Daily", createdAt: new Date(NOW.getTime() - 100 * DAY) });
    await makeSource(t.db, { name: "100% Odd", createdAt: NOW });
    const all = await listSources(deps());
    expect(all).toHaveLength(62);
    expect(all.slice(0, 3).map((s) => s.name)).toEqual(["100% Odd", "Feed 59", "Feed 58"]);
    expect(all.at(-1)?.name).toBe("Weird News Daily");
    expect((await listSources(deps(), { search: "wEIRD news" })).map((s) => s.name)).toEqual(["Weird News Daily"]);
    expect((await listSources(deps(), { search: "%" })).map((s) => s.name)).toEqual(["100% Odd"]);
    expect(await listSources(deps(), { search: "nothing like this" })).toEqual([]);
  });

  // What each source yields is domain/triage/yield.ts's, shown beside the health.
  test("shows each source's health: last fetch and last error", async () => {
    const busy = await makeSource(t.db, {
      name: "Busy",
      status: "error",
      lastFetchedAt: new Date("2026-11-22T09:30:00Z"),
      lastError: "HTTP 503 Service Unavailable",
      consecutiveErrors: 3,
    });
    const quiet = await makeSource(t.db, { name: "Quiet" });

    const list = await listSources(deps());
    expect(list.find((s) => s.id === busy.id)?.health).toEqual({
      lastFetchedAt: "2026-11-22T09:30:00.000Z",
      lastError: "HTTP 503 Service Unavailable",
      consecutiveErrors: 3,
      failing: true,
    });
    expect(list.find((s) => s.id === quiet.id)?.health).toEqual({
      lastFetchedAt: null,
      lastError: null,
      consecutiveErrors: 0,
      failing: false,
    });
  });

  test("a source whose last run failed is in trouble whatever its status says, and the list can show only those", async () => {
    await makeSource(t.db, { name: "Healthy", status: "active", consecutiveErrors: 0, createdAt: new Date(NOW.getTime() - 4000) });
    await makeSource(t.db, { name: "Failing", status: "active", consecutiveErrors: 1, lastError: "HTTP 404", createdAt: new Date(NOW.getTime() - 3000) });
    await makeSource(t.db, { name: "In error", status: "error", consecutiveErrors: 3, lastError: "DNS_FAILURE", createdAt: new Date(NOW.getTime() - 2000) });
    await makeSource(t.db, { name: "Off", status: "inactive", createdAt: new Date(NOW.getTime() - 1000) });
    const all = await listSources(deps());
    expect(all.map((s) => [s.name, s.health.failing])).toEqual([
      ["Off", false],
      ["In error", true],
      ["Failing", true],
      ["Healthy", false],
    ]);
    expect((await listSources(deps(), { troubled: true })).map((s) => s.name)).toEqual(["In error", "Failing"]);
    expect((await listSources(deps(), { troubled: true, search: "err" })).map((s) => s.name)).toEqual(["In error"]);
  });

  test("a Web Scraping source shows its last discovery and its URLs queued now; other types have no discovery", async () => {
    const lastRun = {
      at: "2026-11-22T09:45:00.000Z",
      durationMs: 2100,
      found: 4,
      queued: 3,
      skippedRobots: 1,
      skippedKnown: 0,
      skippedFiltered: 0,
      errors: ["Sitemap https://oddplanet.example/extra.xml: HTTP 404"],
    };
    const scraper = await makeSource(t.db, { name: "Scraper", sourceType: "web_scraping", rssFeedUrl: null, lastDiscovery: lastRun });
    const fresh = await makeSource(t.db, { name: "Fresh scraper", sourceType: "web_scraping", rssFeedUrl: null });
    const feed = await makeSource(t.db, { name: "Feed" });
    for (const status of ["queued", "queued", "queued", "scraped"] as const) await makeUrlQueueItem(t.db, { sourceId: scraper.id, status });

    const list = await listSources(deps());
    expect(list.find((s) => s.id === scraper.id)?.discovery).toEqual({ lastRun, queuedNow: 3 });
    expect(list.find((s) => s.id === fresh.id)?.discovery).toEqual({ lastRun: null, queuedNow: 0 });
    expect(list.find((s) => s.id === feed.id)?.discovery).toBeNull();
  });
});

describe("editing a source", () => {
  test("saves the form and records which fields changed", async () => {
    const editor = await makeUser(t.db);
    const source = await makeSource(t.db, { name: "Old name", rssFeedUrl: "https://oddplanet.example/feed.xml", websiteUrl: "https://oddplanet.example" });
    const saved = await updateSource(deps(), {
      actorUserId: editor.id,
      sourceId: source.id,
      form: form({ name: "New name", status: "inactive", includeKeywords: ["ghost"] }),
    });
    expect(saved).toMatchObject({ name: "New name", status: "inactive", includeKeywords: ["ghost"] });
    const [entry] = await t.repos.audit.forEntity("source", String(source.id));
    expect(entry?.action).toBe("source.update");
    expect(entry?.details).toMatchObject({ status: { from: "active", to: "inactive" } });
    expect((entry?.details?.changed as string[]).sort()).toEqual(["includeKeywords", "name", "status"]);
  });

  test("a source in error saved with the switch on is active again and due at once", async () => {
    const source = await makeSource(t.db, { status: "error", consecutiveErrors: 4, lastError: "timeout", nextCheckAt: new Date(NOW.getTime() + DAY) });
    const saved = await updateSource(deps(), { actorUserId: null, sourceId: source.id, form: form({ rssFeedUrl: source.rssFeedUrl!, status: "active" }) });
    expect(saved).toMatchObject({ status: "active", consecutiveErrors: 0, nextCheckAt: null });
  });

  test("a new feed URL forgets the old feed's conditional-GET state; the same URL keeps it", async () => {
    const source = await makeSource(t.db, { etag: '"abc"', lastModified: "Wed, 21 Oct 2026 07:28:00 GMT" });
    const same = await updateSource(deps(), { actorUserId: null, sourceId: source.id, form: form({ rssFeedUrl: source.rssFeedUrl! }) });
    expect(same).toMatchObject({ etag: '"abc"', lastModified: "Wed, 21 Oct 2026 07:28:00 GMT" });
    const moved = await updateSource(deps(), { actorUserId: null, sourceId: source.id, form: form({ rssFeedUrl: "https://moved.example/rss" }) });
    expect(moved).toMatchObject({ rssFeedUrl: "https://moved.example/rss", etag: null, lastModified: null });
  });

  test("config text that is not JSON keeps the stored config of a type that does not need one", async () => {
    const source = await makeSource(t.db, { scrapingConfig: { minBodyThreshold: 800 } });
    const saved = await updateSource(deps(), { actorUserId: null, sourceId: source.id, form: form({ rssFeedUrl: source.rssFeedUrl!, scrapingConfig: "{broken" }) });
    expect(saved.scrapingConfig).toEqual({ minBodyThreshold: 800 });
  });

  test("a source may keep its own feed URL, but not take another's", async () => {
    const mine = await makeSource(t.db, { rssFeedUrl: "https://mine.example/feed" });
    await makeSource(t.db, { name: "Theirs", rssFeedUrl: "https://theirs.example/feed" });
    await expect(updateSource(deps(), { actorUserId: null, sourceId: mine.id, form: form({ rssFeedUrl: "https://mine.example/feed" }) })).resolves.toBeTruthy();
    await expect(updateSource(deps(), { actorUserId: null, sourceId: mine.id, form: form({ rssFeedUrl: "https://theirs.example/feed" }) })).rejects.toMatchObject({
      fields: { rssFeedUrl: 'This feed is already added as "Theirs"' },
    });
  });

  test("a source that is gone cannot be edited", async () => {
    await expect(updateSource(deps(), { actorUserId: null, sourceId: 999_999, form: form() })).rejects.toMatchObject({ code: "SOURCE_NOT_FOUND" });
  });
});

/** A source with one row in every table that hangs off it. */
async function sourceWithData(name: string) {
  const source = await makeSource(t.db, { name });
  const story = await makeStory(t.db, { sourceId: source.id });
  await makeSocialPost(t.db, { storyId: story.id });
  await makeFeedLog(t.db, { sourceId: source.id });
  await makeScrapedCandidate(t.db, { sourceId: source.id, storyId: story.id });
  await makeRejectedStory(t.db, { sourceId: source.id });
  await makeUrlQueueItem(t.db, { sourceId: source.id });
  return source;
}

async function rowsOf(sourceId: number) {
  const count = async (rows: Promise<unknown[]>) => (await rows).length;
  return {
    logs: await count(t.db.select().from(feedProcessingLog).where(eq(feedProcessingLog.sourceId, sourceId))),
    candidates: await count(t.db.select().from(scrapedCandidates).where(eq(scrapedCandidates.sourceId, sourceId))),
    rejected: await count(t.db.select().from(rejectedStories).where(eq(rejectedStories.sourceId, sourceId))),
    stories: await count(t.db.select().from(stories).where(eq(stories.sourceId, sourceId))),
    queue: await count(t.db.select().from(urlQueue).where(eq(urlQueue.sourceId, sourceId))),
    source: await count(t.db.select().from(sources).where(eq(sources.id, sourceId))),
  };
}

const TABLE_OF_STEP = {
  "feed processing logs": "feed_processing_log",
  "scraped candidates": "scraped_candidates",
  "rejected stories": "rejected_stories",
  stories: "stories",
  source: "sources",
} as const;

describe("deleting a source", () => {
  test("removes it with its logs, candidates, rejected stories and stories, leaves other sources alone, and records it", async () => {
    const editor = await makeUser(t.db);
    const doomed = await sourceWithData("Doomed");
    const kept = await sourceWithData("Kept");
    const counts = await deleteSource(deps(), { actorUserId: editor.id, sourceId: doomed.id });
    expect(counts).toEqual({ "feed processing logs": 1, "scraped candidates": 1, "rejected stories": 1, stories: 1, source: 1 });
    expect(await rowsOf(doomed.id)).toEqual({ logs: 0, candidates: 0, rejected: 0, stories: 0, queue: 0, source: 0 });
    expect(await rowsOf(kept.id)).toEqual({ logs: 1, candidates: 1, rejected: 1, stories: 1, queue: 1, source: 1 });
    expect(await t.db.select().from(socialMediaPosts)).toHaveLength(1);
    expect(await trail(doomed.id)).toEqual(["source.delete"]);
  });

  test("runs the spec's steps in order: logs, candidates, rejected stories, stories, then the source", async () => {
    const source = await sourceWithData("Ordered");
    await t.database.exec(`
      CREATE TABLE IF NOT EXISTS test_delete_order (n serial, table_name text);
      CREATE OR REPLACE FUNCTION test_note_delete() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN INSERT INTO test_delete_order (table_name) VALUES (TG_TABLE_NAME); RETURN NULL; END $$;
      ${Object.values(TABLE_OF_STEP)
        .map((table) => `CREATE TRIGGER test_note_delete AFTER DELETE ON ${table} FOR EACH STATEMENT EXECUTE FUNCTION test_note_delete();`)
        .join("\n")}`);
    try {
      await deleteSource(deps(), { actorUserId: null, sourceId: source.id });
      const result = (await t.db.execute(sql`SELECT string_agg(table_name, ',' ORDER BY n) AS tables FROM test_delete_order`)) as unknown as {
        rows: { tables: string }[];
      };
      const log = result.rows[0];
      // The source's own delete then cascades to url_queue and its stories' leftovers: only the explicit steps count here.
      expect(log?.tables.split(",").slice(0, 5)).toEqual(Object.values(TABLE_OF_STEP));
    } finally {
      await t.database.exec(Object.values(TABLE_OF_STEP).map((table) => `DROP TRIGGER test_note_delete ON ${table};`).join("\n"));
    }
  });

  test.each(Object.entries(TABLE_OF_STEP))("when deleting %s fails, nothing is deleted and the error names that step", async (step, table) => {
    const source = await sourceWithData("Stubborn");
    const before = await rowsOf(source.id);
    await t.database.exec(`
      CREATE OR REPLACE FUNCTION test_refuse_delete() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN RAISE EXCEPTION 'deletes from % are frozen', TG_TABLE_NAME; END $$;
      CREATE TRIGGER test_refuse_delete BEFORE DELETE ON ${table} FOR EACH ROW EXECUTE FUNCTION test_refuse_delete();`);
    try {
      const error = await deleteSource(deps(), { actorUserId: null, sourceId: source.id }).catch((e: unknown) => e);
      // A database failure is not the editor's doing: a plain error (logged, answered generically), not a DomainError.
      expect(isDomainError(error)).toBe(false);
      expect(error).toMatchObject({ message: `Failed to delete ${step}: deletes from ${table} are frozen` });
    } finally {
      await t.database.exec(`DROP TRIGGER test_refuse_delete ON ${table};`);
    }
    expect(await rowsOf(source.id)).toEqual(before);
    expect(await t.db.select().from(socialMediaPosts)).toHaveLength(1);
    expect(await trail(source.id)).toEqual([]);
  });

  test("a source that is gone cannot be deleted", async () => {
    await expect(deleteSource(deps(), { actorUserId: null, sourceId: 999_999 })).rejects.toMatchObject({ code: "SOURCE_NOT_FOUND" });
  });
});

describe("what went wrong in an ingestion run", () => {
  test("lists, by name and with why, the sources fetched during the run whose fetch failed", async () => {
    const start = new Date("2026-11-22T10:00:00Z");
    const end = new Date("2026-11-22T10:00:30Z");
    const during = new Date("2026-11-22T10:00:10Z");
    await makeSource(t.db, { name: "Zeta Wire", lastFetchedAt: during, consecutiveErrors: 1, lastError: "HTTP 404" });
    await makeSource(t.db, { name: "Alpha Post", lastFetchedAt: during, consecutiveErrors: 4, status: "error", lastError: "DNS_FAILURE: cannot resolve alpha.example" });
    await makeSource(t.db, { name: "Fine", lastFetchedAt: during, consecutiveErrors: 0 });
    // Failed before the run started, and not fetched in it.
    await makeSource(t.db, { name: "Earlier", lastFetchedAt: new Date("2026-11-22T09:00:00Z"), consecutiveErrors: 2, lastError: "timeout" });
    expect(await ingestionFailures(t.repos, { from: start, to: end })).toEqual([
      { id: expect.any(Number), name: "Alpha Post", error: "DNS_FAILURE: cannot resolve alpha.example" },
      { id: expect.any(Number), name: "Zeta Wire", error: "HTTP 404" },
    ]);
  });
});
