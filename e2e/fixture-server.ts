// Serves the built app on a fresh database filled with the journeys' fixtures. Started by Playwright.
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { openDatabase } from "~/db/client";
import { runMigrations } from "~/db/migrate";
import { makeCategory, makeRejectedStory, makeSource, makeStory } from "~/db/testing/factories";
import { adminUrl, createDatabaseSql, dropDatabaseSql } from "~/db/testing/postgres-admin";
import { loadConfig } from "~/server/config";
import { serve } from "~/server/serve";
import { createRepos } from "~/db/repos";
import { createUser } from "~/domain/users/users";
import { serveFixtures } from "~/test/fixture-server";
import { TOOLS_FEED_PATH, TOOLS_SITE_FILE, TOOLS_SOURCE_NAME, toolsSitePages } from "./fixtures";
import { ADMIN, CATEGORIES, CONTACT_EMAIL, EDITOR, FEATURED, PENDING, PROMOTABLE, PUBLISHED, REJECTED_TITLE, REVIEW, BULK } from "./fixtures";
import { SOURCES_PAGE } from "./fixtures";

// The journeys read this run's outbox, and on PostgreSQL run the CLI against its database: both are named by the config.
const dataDir = process.env.E2E_DATA_DIR ?? mkdtempSync(path.join(os.tmpdir(), "oddwire-e2e-"));
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

// Sources page tools: the app fetches the journeys' fixture site on 127.0.0.1 (see the block below).
env.FETCH_ALLOW_HOSTS = "127.0.0.1";

const config = loadConfig(env);
const database = config.databaseUrl
  ? await openDatabase({ databaseUrl: config.databaseUrl })
  : await openDatabase({ dataDir: config.dataDir });
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
await makeRejectedStory(database.db, { title: REJECTED_TITLE });
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
