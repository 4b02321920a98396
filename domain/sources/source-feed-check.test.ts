import { afterAll, beforeAll, beforeEach, expect, test } from "vitest";
import { makeSource, makeUser } from "~/db/testing/factories";
import { testDatabaseForFile } from "~/db/testing/test-database";
import { isDomainError } from "~/domain/errors";
import { validateFeed } from "~/domain/ingestion/validate-feed";
import { testHttpClient } from "~/integrations/http/testing";
import { rssFeed, startTestServer, type TestServer } from "~/test/http-test-server";
import { createSource, updateSource } from "./sources";
import { sourceForm } from "./testing";

// Saving an RSS source reads its feed first, over real HTTP from a site on 127.0.0.1: a feed that
// cannot be read is not accepted silently, but the editor may save it anyway.

const t = testDatabaseForFile();
const http = testHttpClient();
let site: TestServer;
beforeAll(async () => {
  site = await startTestServer();
  site.handle("/feed.xml", (_req, res) => res.writeHead(200, { "content-type": "application/rss+xml" }).end(rssFeed([{ title: "One", link: "https://odd.example/1" }])));
  site.handle("/page.html", (_req, res) => res.writeHead(200, { "content-type": "text/html" }).end("<!doctype html><title>Not a feed</title><p>Hello"));
});
afterAll(async () => {
  await http.close();
  await site.close();
});
beforeEach(() => {
  site.hits.length = 0;
});

const deps = () => ({ sources: t.repos.sources, checkFeed: (url: string) => validateFeed({ http }, url) });
const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: unknown) => (isDomainError(error) ? { code: error.code, fields: error.fields } : error),
  );

test("a new RSS source whose feed reads is saved; one whose feed cannot be read is refused with why, and saved when the editor says so", async () => {
  const editor = await makeUser(t.db);
  const good = await createSource(deps(), { actorUserId: editor.id, form: sourceForm({ name: "Good", rssFeedUrl: `${site.url}/feed.xml` }) });
  expect(good.rssFeedUrl).toBe(`${site.url}/feed.xml`);
  expect(site.hits).toEqual(["/feed.xml"]);

  const page = sourceForm({ name: "A page", rssFeedUrl: `${site.url}/page.html` });
  expect(await refusal(createSource(deps(), { actorUserId: editor.id, form: page }))).toEqual({
    code: "NOT_A_FEED",
    fields: { rssFeedUrl: "The feed could not be read: The URL returned a web page, not a feed" },
  });
  expect(await refusal(createSource(deps(), { actorUserId: editor.id, form: sourceForm({ name: "Gone", rssFeedUrl: `${site.url}/gone.xml` }) }))).toEqual({
    code: "NOT_A_FEED",
    fields: { rssFeedUrl: "The feed could not be read: The server answered HTTP 404" },
  });
  expect((await t.repos.sources.listNames()).map((s) => s.name)).toEqual(["Good"]);

  const anyway = await createSource(deps(), { actorUserId: editor.id, form: page, saveAnyway: true });
  expect(anyway.name).toBe("A page");
});

test("an edit reads the feed only when its URL changes or the source becomes RSS", async () => {
  const editor = await makeUser(t.db);
  const source = await makeSource(t.db, { name: "Odd", rssFeedUrl: `${site.url}/page.html` });
  // The URL is the one it had: the feed is not read again (it stays failing if it fails).
  await updateSource(deps(), { actorUserId: editor.id, sourceId: source.id, form: sourceForm({ name: "Odd, renamed", rssFeedUrl: `${site.url}/page.html` }) });
  expect(site.hits).toEqual([]);

  const moved = sourceForm({ name: "Odd, renamed", rssFeedUrl: `${site.url}/moved.xml` });
  expect(await refusal(updateSource(deps(), { actorUserId: editor.id, sourceId: source.id, form: moved }))).toMatchObject({ code: "NOT_A_FEED" });
  expect((await t.repos.sources.findById(source.id))?.rssFeedUrl).toBe(`${site.url}/page.html`);
  await updateSource(deps(), { actorUserId: editor.id, sourceId: source.id, form: sourceForm({ name: "Odd, renamed", rssFeedUrl: `${site.url}/feed.xml` }) });
  expect(site.hits).toEqual(["/moved.xml", "/feed.xml"]);

  const manual = await makeSource(t.db, { name: "By hand", sourceType: "manual", rssFeedUrl: `${site.url}/page.html` });
  const toRss = sourceForm({ name: "By hand", rssFeedUrl: `${site.url}/page.html` });
  expect(await refusal(updateSource(deps(), { actorUserId: editor.id, sourceId: manual.id, form: toRss }))).toMatchObject({ code: "NOT_A_FEED" });
});

test("Web Scraping and Manual sources are saved without reading any feed", async () => {
  const editor = await makeUser(t.db);
  await createSource(deps(), { actorUserId: editor.id, form: sourceForm({ name: "Crawled", sourceType: "web_scraping", rssFeedUrl: `${site.url}/page.html` }) });
  await createSource(deps(), { actorUserId: editor.id, form: sourceForm({ name: "By hand", sourceType: "manual", rssFeedUrl: "" }) });
  expect(site.hits).toEqual([]);
});
