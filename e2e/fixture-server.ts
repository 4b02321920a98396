// Serves the built app on a fresh database filled with the journeys' fixtures. Playwright starts one
// per worker (playwright.config.ts), each with its own data dir, database name and port.
import { randomBytes } from "node:crypto";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { openDatabase } from "~/db/client";
import { openEmbeddedDatabase } from "~/server/database";
import { runMigrations } from "~/db/migrate";
import { makeCategory, makeRejectedStory, makeSource, makeStory, makeUrlQueueItem } from "~/db/testing/factories";
import { adminUrl, createDatabaseSql, dropDatabaseSql } from "~/db/testing/postgres-admin";
import { loadConfig } from "~/server/config";
import { serve } from "~/server/processes/serve";
import { createRepos } from "~/db/repos";
import { createUser } from "~/domain/users/users";
import { serveFixtures } from "~/test/fixture-server";
import { TOOLS_FEED_PATH, TOOLS_SITE_FILE, TOOLS_SOURCE_NAME, toolsSitePages } from "./fixtures";
import { ADMIN, CATEGORIES, CONTACT_EMAIL, EDITOR, FEATURED, PENDING, PROMOTABLE, PUBLISHED, REJECTED_TITLE, REVIEW, BULK, EDITS } from "./fixtures";
import { SOURCES_PAGE } from "./fixtures";
import { QUEUE_ARTICLES, QUEUE_FAILED_ERROR, QUEUE_RETRY_ERROR, QUEUE_ROWS, QUEUE_SOURCES, queueSitePages } from "./fixtures";
import { IMAGES_BATCH, IMAGES_FIRST_ID, IMAGES_TEST_STORY, imagesSiteUrl } from "./fixtures";
import { SOCIAL_GRAPH_FILE, SOCIAL_NOT_CONNECTED_ENV, SOCIAL_PAGE_NAME, SOCIAL_STORIES } from "./fixtures";
import { startFakeGraph, type FakeAnswer, type FakeEndpoint } from "~/integrations/facebook/testing/fake-graph";
import { createServer } from "node:http";
import { tempDir } from "~/test/temp-dir";

// The worker's journeys read this server's outbox, and on PostgreSQL run the CLI against its database: both are named by the config.
const dataDir = process.env.E2E_DATA_DIR ?? tempDir("oddwire-e2e-");
mkdirSync(dataDir, { recursive: true });
const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, CONTACT_EMAIL };
delete env.DATABASE_URL;

const serverUrl = process.env.TEST_DATABASE_URL;
const databaseName = process.env.E2E_DATABASE_NAME ?? `oddwire_e2e_${process.pid}`;
if (serverUrl) {
  const admin = await openDatabase({ databaseUrl: serverUrl, poolSize: 1 });
  await admin.exec(dropDatabaseSql(databaseName));
  await admin.exec(createDatabaseSql(databaseName));
  await admin.close();
  env.DATABASE_URL = adminUrl(serverUrl, databaseName);
  env.AUTH_SECRET = randomBytes(32).toString("hex");
}

// ---- Social Media (admin-social.spec.ts): the Page is a fake Graph API; the journey steers its next answers over a control server ----
if (!process.env[SOCIAL_NOT_CONNECTED_ENV]) {
  const graph = await startFakeGraph({ pageName: SOCIAL_PAGE_NAME });
  env.FACEBOOK_GRAPH_URL = graph.url;
  env.FACEBOOK_PAGE_ID = graph.pageId;
  env.FACEBOOK_PAGE_TOKEN = graph.pageToken;
  const control = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      const { endpoint, answer } = JSON.parse(body || "{}") as { endpoint?: FakeEndpoint; answer?: FakeAnswer };
      if (req.url === "/answer-once" && endpoint && answer) graph.answerOnce(endpoint, answer);
      else if (req.url === "/clear") graph.clearAnswers();
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ posts: graph.posts.length }));
    });
  });
  await new Promise<void>((resolve) => control.listen(0, "127.0.0.1", resolve));
  const address = control.address();
  writeFileSync(path.join(dataDir, SOCIAL_GRAPH_FILE), JSON.stringify({ control: `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}` }));
  for (const signal of ["SIGTERM", "SIGINT"] as const) process.once(signal, () => void graph.close().then(() => control.close()));
}
// ---- end of the Social Media block ----

// Sources page tools: the app fetches the journeys' fixture site on 127.0.0.1 (see the block below).
env.FETCH_ALLOW_HOSTS = "127.0.0.1";

const config = loadConfig(env);
const database = config.databaseUrl
  ? await openDatabase({ databaseUrl: config.databaseUrl })
  : await openEmbeddedDatabase(config.dataDir);
await runMigrations(database);
const categoryIds: Record<string, number> = {};
for (const [key, category] of Object.entries(CATEGORIES)) categoryIds[key] = (await makeCategory(database.db, category)).id;
const source = await makeSource(database.db, { name: "Odd Planet Wire" });
for (const story of [FEATURED, ...PUBLISHED]) {
  await makeStory(database.db, {
    title: story.title,
    slug: story.slug,
    originalUrl: story.url,
    summary: `Summary: ${story.title}.`,
    categoryId: categoryIds[story.category],
    sourceId: source.id,
    status: "published",
    isFeatured: story.featured ?? false,
    publishDate: new Date(Date.now() - story.hoursAgo * 3_600_000),
    imageUrl: story.image,
  });
}
for (const story of PENDING) {
  await makeStory(database.db, {
    title: story.title,
    slug: story.slug,
    originalUrl: story.url,
    status: "pending",
    isFeatured: true,
    categoryId: categoryIds.animals,
  });
}
for (const story of [...REVIEW, ...BULK]) {
  await makeStory(database.db, { title: story.title, slug: story.slug, originalUrl: story.url, status: "pending" });
}
for (const story of EDITS) {
  await makeStory(database.db, { title: story.title, slug: story.slug, originalUrl: story.url, status: "pending", imageUrl: story.image, sourceId: source.id });
}
await makeRejectedStory(database.db, { title: REJECTED_TITLE });
for (const [i, story] of SOCIAL_STORIES.entries()) {
  await makeStory(database.db, {
    ...story,
    originalUrl: `https://oddplanet.example/social/${story.slug}`,
    categoryId: categoryIds.desk,
    sourceId: source.id,
    status: "published",
    publishDate: new Date(Date.now() - (96 + i) * 3_600_000),
    imageUrl: null,
  });
}
const repos = createRepos(database.db);
await createUser(repos, { ...ADMIN, admin: true });
await createUser(repos, { ...EDITOR, admin: false });
await createUser(repos, { ...PROMOTABLE, admin: false });

// ---- Sources page tools: a fixture site on 127.0.0.1 with a feed, a non-feed page and articles, and an RSS source reading it ----
const toolsSite = await serveFixtures({ routes: {} });
for (const [pathname, page] of Object.entries(toolsSitePages(toolsSite.url))) toolsSite.route(pathname, page);
await makeSource(database.db, { name: TOOLS_SOURCE_NAME, websiteUrl: `${toolsSite.url}/`, rssFeedUrl: `${toolsSite.url}${TOOLS_FEED_PATH}` });
writeFileSync(path.join(dataDir, TOOLS_SITE_FILE), JSON.stringify({ url: toolsSite.url }));
for (const signal of ["SIGTERM", "SIGINT"] as const) process.once(signal, () => void toolsSite.close());
// ---- end of the Sources page tools block ----

// ---- Sources page (admin-sources.spec.ts) ----
await makeSource(database.db, {
  ...SOURCES_PAGE.broken,
  status: "error",
  consecutiveErrors: 3,
  lastFetchedAt: new Date(Date.now() - 3_600_000),
});
await makeSource(database.db, { ...SOURCES_PAGE.scraper, sourceType: "web_scraping", status: "inactive", rssFeedUrl: null, scrapingConfig: { startUrls: [`${SOURCES_PAGE.scraper.websiteUrl}/news`], crawlDelay: 1000 } });
// ---- end of the Sources page block ----

// ---- URL Que (admin-url-queue.spec.ts): two inactive Web Scraping sources, their queue, and two article pages to scrape ----
for (const [pathname, page] of Object.entries(queueSitePages(toolsSite.url))) toolsSite.route(pathname, page);
const marsh = await makeSource(database.db, {
  name: QUEUE_SOURCES.marsh,
  sourceType: "web_scraping",
  status: "inactive",
  websiteUrl: `${toolsSite.url}/`,
  rssFeedUrl: null,
  // A second and a half between its two pages: long enough for the journey to watch the progress.
  scrapingConfig: { startUrls: [`${toolsSite.url}/queue/`], crawlDelay: 1500 },
});
const dune = await makeSource(database.db, {
  name: QUEUE_SOURCES.dune,
  sourceType: "web_scraping",
  status: "inactive",
  websiteUrl: "https://dune-crawler.example",
  rssFeedUrl: null,
  scrapingConfig: { startUrls: ["https://dune-crawler.example/news"] },
});
const queueRows = [
  ...QUEUE_ARTICLES.map((article) => ({ url: `${toolsSite.url}${article.path}`, sourceId: marsh.id })),
  { url: QUEUE_ROWS.rejectA, sourceId: marsh.id },
  { url: QUEUE_ROWS.rejectB, sourceId: marsh.id },
  { url: QUEUE_ROWS.deleteA, sourceId: marsh.id },
  { url: QUEUE_ROWS.deleteB, sourceId: marsh.id },
  { url: QUEUE_ROWS.duneQueued, sourceId: dune.id },
  { url: QUEUE_ROWS.duneRetry, sourceId: dune.id, error: QUEUE_RETRY_ERROR, attempts: 1 },
  { url: QUEUE_ROWS.duneScraped, sourceId: dune.id, status: "scraped" as const },
  { url: QUEUE_ROWS.duneFailed, sourceId: dune.id, status: "failed" as const, error: QUEUE_FAILED_ERROR, attempts: 3 },
];
// Newest first in the list: the rows are an hour apart, in this order.
for (const [i, row] of queueRows.entries()) await makeUrlQueueItem(database.db, { ...row, lastmod: new Date(Date.UTC(2025, 4, 20, 12 - i, 15)) });
// ---- end of the URL Que block ----

// ---- Image enhancement (admin-images.spec.ts): pending stories on the journey's own image site ----
const imagesSite = imagesSiteUrl(config.siteUrl);
// Their ids start at IMAGES_FIRST_ID (see fixtures.ts); then the stories table goes on counting from where it was.
await database.exec(`ALTER TABLE stories ALTER COLUMN id RESTART WITH ${IMAGES_FIRST_ID}`);
await makeStory(database.db, {
  title: IMAGES_TEST_STORY.title,
  slug: IMAGES_TEST_STORY.slug,
  originalUrl: `${imagesSite}${IMAGES_TEST_STORY.path}`,
  imageUrl: `${imagesSite}${IMAGES_TEST_STORY.smallImage}`,
  status: "pending",
});
for (const story of IMAGES_BATCH) {
  await makeStory(database.db, {
    title: story.title,
    slug: story.slug,
    originalUrl: `${imagesSite}${story.path}`,
    imageUrl: story.currentImage ? `${imagesSite}${story.currentImage}` : null,
    status: "pending",
  });
}
await database.exec(`SELECT setval(pg_get_serial_sequence('stories', 'id'), (SELECT max(id) FROM stories WHERE id < ${IMAGES_FIRST_ID}))`);
// ---- end of the image enhancement block ----

await database.close();

let cleaned = false;
process.on("beforeExit", async () => {
  if (cleaned) return;
  cleaned = true;
  rmSync(dataDir, { recursive: true, force: true });
  if (serverUrl) {
    const admin = await openDatabase({ databaseUrl: serverUrl, poolSize: 1 });
    await admin.exec(dropDatabaseSql(databaseName));
    await admin.close();
  }
});

await serve({ config });
