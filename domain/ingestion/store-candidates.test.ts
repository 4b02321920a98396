import { asc } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { scrapedCandidates, stories } from "~/db/schema";
import { makeRejectedStory, makeSource, makeStory } from "~/db/testing/factories";
import { testDatabaseForFile } from "~/db/testing/test-database";
import { normalizeUrl } from "~/lib/normalize-url";
import { candidateFromUrl, settleKnownUrls, storeCandidates, type Candidate } from "./store-candidates";

const t = testDatabaseForFile();
const deps = () => ({ repos: t.repos });
const allStories = () => t.db.select().from(stories).orderBy(asc(stories.id));
const recorded = () => t.db.select().from(scrapedCandidates).orderBy(asc(scrapedCandidates.id));
const content = (title: string) => ({ title, summary: `About ${title}.`, contentHtml: `<p>${title}</p>`, imageUrl: null });
const hashOf = (url: string) => {
  const normalized = normalizeUrl(url);
  if (!normalized.ok) throw new Error(url);
  return normalized.hash;
};

describe("storing candidates", () => {
  test("a new URL becomes a pending story of its source, and every candidate is recorded with its outcome", async () => {
    const source = await makeSource(t.db);
    const goat = candidateFromUrl("https://odd.example/goat?utm_source=rss", content("Goat elected mayor"));
    const broken = candidateFromUrl("javascript:alert(1)", content("Nope"));
    const filtered: Candidate = { ...candidateFromUrl("https://odd.example/bakery", content("Bakery")), outcome: "filtered_out", reason: "excluded" };

    const counts = await storeCandidates(deps(), [goat, broken, filtered], { sourceId: source.id });

    expect(counts).toEqual({ inserted: 1, duplicate: 0, rejected: 0, filtered: 1, failed: 1 });
    const [story] = await allStories();
    expect(story).toMatchObject({
      status: "pending",
      sourceId: source.id,
      title: "Goat elected mayor",
      summary: "About Goat elected mayor.",
      originalUrl: "https://odd.example/goat?utm_source=rss",
      urlHash: hashOf("https://odd.example/goat"),
    });
    expect(goat).toMatchObject({ outcome: "inserted", storyId: story!.id });
    expect((await recorded()).map((r) => [r.url, r.outcome, r.storyId, r.sourceId])).toEqual([
      ["https://odd.example/goat?utm_source=rss", "inserted", story!.id, source.id],
      ["javascript:alert(1)", "failed", null, source.id],
      ["https://odd.example/bakery", "filtered_out", null, source.id],
    ]);
  });

  test("URLs already stories (in any spelling) or rejected before are not stored again", async () => {
    await makeStory(t.db, { originalUrl: "https://www.odd.example/goat/#comments" });
    await makeRejectedStory(t.db, { originalUrl: "https://odd.example/cat" });
    const candidates = ["https://odd.example/goat", "https://odd.example/cat"].map((url) => candidateFromUrl(url, content(url)));

    const counts = await storeCandidates(deps(), candidates, { sourceId: null });

    expect(counts).toMatchObject({ inserted: 0, duplicate: 1, rejected: 1 });
    expect(candidates.map((c) => [c.outcome, c.reason])).toEqual([
      ["duplicate", "This URL is already a story"],
      ["previously_rejected", "This URL was rejected before"],
    ]);
    expect(await allStories()).toHaveLength(1);
    expect((await recorded()).map((r) => r.outcome)).toEqual(["duplicate", "previously_rejected"]);
  });

  test("the same URL twice in one batch is stored once", async () => {
    const candidates = ["https://odd.example/owl", "https://odd.example/owl?fbclid=x"].map((url) => candidateFromUrl(url, content("Owl")));

    await storeCandidates(deps(), candidates, { sourceId: null });

    expect(candidates.map((c) => c.outcome)).toEqual(["inserted", "duplicate"]);
    expect(await allStories()).toHaveLength(1);
  });

  test("a valid canonical URL identifies the story and is what it links to; the found URL is what is recorded", async () => {
    const candidate = { ...candidateFromUrl("https://mirror.example/goat", content("Goat")), canonicalUrl: "https://odd.example/goat" };

    await storeCandidates(deps(), [candidate], { sourceId: null });

    expect((await allStories())[0]).toMatchObject({ originalUrl: "https://odd.example/goat", urlHash: hashOf("https://odd.example/goat") });
    expect((await recorded())[0]).toMatchObject({
      url: "https://mirror.example/goat",
      urlHash: hashOf("https://odd.example/goat"),
      outcome: "inserted",
    });
  });

  test("a candidate whose canonical URL is already a story, or was rejected, is not stored", async () => {
    await makeStory(t.db, { originalUrl: "https://odd.example/goat" });
    await makeRejectedStory(t.db, { originalUrl: "https://odd.example/cat" });
    const candidates = [
      { ...candidateFromUrl("https://mirror.example/goat", content("Goat")), canonicalUrl: "https://odd.example/goat" },
      { ...candidateFromUrl("https://mirror.example/cat", content("Cat")), canonicalUrl: "https://odd.example/cat" },
    ];

    await storeCandidates(deps(), candidates, { sourceId: null });

    expect(candidates.map((c) => [c.outcome, c.reason])).toEqual([
      ["duplicate", "Its canonical URL is already a story"],
      ["previously_rejected", "Its canonical URL was rejected before"],
    ]);
    expect(await allStories()).toHaveLength(1);
  });

  test("without a usable canonical URL the story links to the page's final URL, identified by the URL found", async () => {
    const candidate = {
      ...candidateFromUrl("https://odd.example/short-link", content("Llama")),
      storyUrl: "https://odd.example/llama-opens-a-bakery",
      canonicalUrl: "not a url",
    };

    await storeCandidates(deps(), [candidate], { sourceId: null });

    expect((await allStories())[0]).toMatchObject({
      originalUrl: "https://odd.example/llama-opens-a-bakery",
      urlHash: hashOf("https://odd.example/short-link"),
    });
  });

  test("settling known URLs first leaves only the new ones open, so only they cost a page fetch", async () => {
    await makeStory(t.db, { originalUrl: "https://odd.example/goat" });
    const candidates = ["https://odd.example/goat", "https://odd.example/newt", "https://odd.example/newt#top"].map((url) => candidateFromUrl(url));

    await settleKnownUrls(deps(), candidates);

    expect(candidates.map((c) => c.outcome)).toEqual(["duplicate", undefined, "duplicate"]);
    expect(candidates[2]!.reason).toBe("Repeated earlier in the same list");
    expect(await recorded()).toEqual([]);
  });

  test("an open candidate with nothing to store is recorded as failed", async () => {
    const candidate = candidateFromUrl("https://odd.example/empty");

    expect(await storeCandidates(deps(), [candidate], { sourceId: null })).toMatchObject({ failed: 1, inserted: 0 });
    expect((await recorded())[0]).toMatchObject({ outcome: "failed", reason: "Nothing to store" });
  });
});
