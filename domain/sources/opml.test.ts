import { describe, expect, test } from "vitest";
import { sources } from "~/db/schema";
import { makeSource, makeUser } from "~/db/testing/factories";
import { testDatabaseForFile } from "~/db/testing/test-database";
import { buildOpml, exportSourcesOpml, importSourcesOpml, OPML_MAX_FEEDS, parseOpml } from "./opml";

const t = testDatabaseForFile();
const NOW = new Date("2026-11-22T10:00:00Z");
const deps = () => ({ sources: t.repos.sources, now: () => NOW.getTime() });

const opml = (body: string, head = "<head><title>Mine</title></head>") => `<?xml version="1.0" encoding="UTF-8"?>\n<opml version="2.0">${head}<body>${body}</body></opml>`;
const feedsIn = async () =>
  (await t.db.select().from(sources)).map(({ name, rssFeedUrl, websiteUrl, sourceType, status }) => ({ name, rssFeedUrl, websiteUrl, sourceType, status }));

describe("writing OPML", () => {
  test("is an OPML 2.0 document with one rss outline per feed", () => {
    expect(
      buildOpml([{ name: "Odd Planet", rssFeedUrl: "https://oddplanet.example/feed.xml", websiteUrl: "https://oddplanet.example" }], { title: "Oddwire sources", now: NOW }),
    ).toBe(
      [
        `<?xml version="1.0" encoding="UTF-8"?>`,
        `<opml version="2.0">`,
        `  <head>`,
        `    <title>Oddwire sources</title>`,
        `    <dateCreated>Sun, 22 Nov 2026 10:00:00 GMT</dateCreated>`,
        `  </head>`,
        `  <body>`,
        `    <outline type="rss" text="Odd Planet" title="Odd Planet" xmlUrl="https://oddplanet.example/feed.xml" htmlUrl="https://oddplanet.example"/>`,
        `  </body>`,
        `</opml>`,
        ``,
      ].join("\n"),
    );
  });

  test("escapes what XML needs escaped and drops what XML cannot carry", () => {
    const name = `Tom & Jerry's "<Odd>"\nNews\u0001`;
    const url = "https://odd.example/feed?a=1&b=<2>";
    const xml = buildOpml([{ name, rssFeedUrl: url, websiteUrl: null }], { title: "A & B", now: NOW });
    expect(xml).toContain(`text="Tom &amp; Jerry&apos;s &quot;&lt;Odd&gt;&quot;&#10;News"`);
    expect(xml).toContain(`xmlUrl="https://odd.example/feed?a=1&amp;b=&lt;2&gt;"`);
    expect(xml).not.toContain("htmlUrl");
    expect(parseOpml(xml)).toEqual({ title: "A & B", feeds: [{ text: "Tom & Jerry's \"<Odd>\"\nNews", xmlUrl: url, htmlUrl: null }] });
  });
});

describe("reading OPML", () => {
  test("flattens nested outlines in document order and skips folders without a feed", () => {
    const xml = opml(`
      <outline text="Animals">
        <outline text="Goats" type="rss" xmlUrl="https://goats.example/rss" htmlUrl="https://goats.example/"/>
        <outline text="Deeper"><outline title="Owls" xmlUrl="https://owls.example/atom"/></outline>
      </outline>
      <outline TEXT="Shouting" XMLURL="https://loud.example/feed"/>
      <outline text="Empty folder"/>`);
    expect(parseOpml(xml)).toEqual({
      title: "Mine",
      feeds: [
        { text: "Goats", xmlUrl: "https://goats.example/rss", htmlUrl: "https://goats.example/" },
        { text: "Owls", xmlUrl: "https://owls.example/atom", htmlUrl: null },
        { text: "Shouting", xmlUrl: "https://loud.example/feed", htmlUrl: null },
      ],
    });
  });

  test("decodes character references and tolerates a byte-order mark", () => {
    expect(parseOpml(`\uFEFF${opml(`<outline text="Caf&#233; &#x26; Bar" xmlUrl="https://cafe.example/?a=1&amp;b=2"/>`)}`).feeds).toEqual([
      { text: "Café & Bar", xmlUrl: "https://cafe.example/?a=1&b=2", htmlUrl: null },
    ]);
  });

  test.each([
    [
      "an entity expansion bomb",
      `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]><opml><body><outline text="&lol2;" xmlUrl="https://a.example/"/></body></opml>`,
      "OPML files with a DOCTYPE or entity declarations are not accepted",
    ],
    [
      "an external entity",
      `<?xml version="1.0"?><!DOCTYPE opml [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><opml><body><outline text="&xxe;" xmlUrl="https://a.example/"/></body></opml>`,
      "OPML files with a DOCTYPE or entity declarations are not accepted",
    ],
    ["a plain DOCTYPE", `<!doctype opml><opml><body/></opml>`, "OPML files with a DOCTYPE or entity declarations are not accepted"],
    ["an RSS feed instead of OPML", `<rss version="2.0"><channel><title>x</title></channel></rss>`, "The file is not OPML: it has no <opml> element"],
    ["text that is not XML", "just some words", "The file is not OPML: it has no <opml> element"],
    ["outlines nested 200 deep", opml(`${'<outline text="x">'.repeat(200)}${"</outline>".repeat(200)}`), "The file is not readable OPML"],
    [
      "more feeds than anyone subscribes to by hand",
      opml(Array.from({ length: OPML_MAX_FEEDS + 1 }, (_, i) => `<outline xmlUrl="https://f${i}.example/"/>`).join("")),
      `The file lists more than ${OPML_MAX_FEEDS} feeds`,
    ],
    ["a file over 2 MiB", opml(`<outline text="${"x".repeat(2 * 1024 * 1024)}"/>`), "The file is larger than 2 MiB"],
  ])("refuses %s", (_what, xml, message) => {
    expect(() => parseOpml(xml)).toThrow(expect.objectContaining({ code: "INVALID_OPML", message: expect.stringContaining(message) }));
  });
});

describe("importing OPML", () => {
  test("adds each new feed as an active RSS source, skips feeds already added or listed twice, and reports unusable URLs", async () => {
    const editor = await makeUser(t.db, { email: "ed@oddwire.test" });
    await makeSource(t.db, { name: "Already here", rssFeedUrl: "https://here.example/feed", websiteUrl: null });
    const result = await importSourcesOpml(deps(), {
      actorUserId: editor.id,
      xml: opml(`
        <outline text="New one" xmlUrl="https://new.example/rss" htmlUrl="https://new.example"/>
        <outline text="Same feed, other spelling" xmlUrl="https://WWW.here.example/feed/?utm_source=opml"/>
        <outline text="Twice" xmlUrl="https://new.example/rss#again"/>
        <outline text="Script" xmlUrl="javascript:alert(1)"/>
        <outline text="Words" xmlUrl="not a url"/>
        <outline xmlUrl="https://www.nameless.example/feed" htmlUrl="javascript:alert(2)"/>`),
    });
    expect(result.imported.map((s) => s.name)).toEqual(["New one", "nameless.example"]);
    expect(result.skipped).toEqual([
      { name: "Same feed, other spelling", feedUrl: "https://WWW.here.example/feed/?utm_source=opml", reason: 'already added as "Already here"' },
      { name: "Twice", feedUrl: "https://new.example/rss#again", reason: "listed twice in the file" },
    ]);
    expect(result.invalid).toEqual([
      { name: "Script", feedUrl: "javascript:alert(1)", reason: "Feed URL must start with http:// or https://" },
      { name: "Words", feedUrl: "not a url", reason: "Feed URL must be a valid URL, such as https://example.com" },
    ]);
    expect(await feedsIn()).toEqual([
      { name: "Already here", rssFeedUrl: "https://here.example/feed", websiteUrl: null, sourceType: "rss", status: "active" },
      { name: "New one", rssFeedUrl: "https://new.example/rss", websiteUrl: "https://new.example", sourceType: "rss", status: "active" },
      { name: "nameless.example", rssFeedUrl: "https://www.nameless.example/feed", websiteUrl: null, sourceType: "rss", status: "active" },
    ]);
    const [entry] = await t.repos.audit.forEntity("source", String(result.imported[0]!.id));
    expect(entry).toMatchObject({ action: "source.create", actorEmail: "ed@oddwire.test", details: { via: "opml" } });
  });

  test("a refused file adds nothing", async () => {
    await expect(importSourcesOpml(deps(), { actorUserId: null, xml: "<!DOCTYPE x><opml/>" })).rejects.toMatchObject({ code: "INVALID_OPML" });
    expect(await feedsIn()).toEqual([]);
  });

  test("exporting then importing into an empty database gives the same sources", async () => {
    await makeSource(t.db, { name: `Tom & Jerry's "Odd" <News>`, rssFeedUrl: "https://odd.example/feed?a=1&b=2", websiteUrl: "https://odd.example/" });
    await makeSource(t.db, { name: "Ünïcødé Wire 📰", rssFeedUrl: "https://xn--wire.example/rss.xml", websiteUrl: null });
    await makeSource(t.db, { name: "Plain", rssFeedUrl: "http://plain.example/atom", websiteUrl: "http://plain.example" });
    await makeSource(t.db, { name: "Hand-fed", sourceType: "manual", rssFeedUrl: null });
    const withFeeds = (await feedsIn()).filter((s) => s.rssFeedUrl !== null);

    const xml = await exportSourcesOpml(deps());
    expect(xml).not.toContain("Hand-fed");
    await t.database.exec("TRUNCATE sources RESTART IDENTITY CASCADE");
    const result = await importSourcesOpml(deps(), { actorUserId: null, xml });

    expect(result).toMatchObject({ skipped: [], invalid: [] });
    const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);
    expect((await feedsIn()).sort(byName)).toEqual(withFeeds.sort(byName));
  });
});
