// Serves the built app on a fresh database filled with the journeys' fixtures. Started by Playwright.
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
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
import { ADMIN, CATEGORIES, CONTACT_EMAIL, EDITOR, FEATURED, PENDING, PROMOTABLE, PUBLISHED, REJECTED_TITLE, REVIEW, BULK } from "./fixtures";

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
