// Serves the built app on a fresh database filled with the journeys' fixtures. Started by Playwright.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { openDatabase } from "~/db/client";
import { runMigrations } from "~/db/migrate";
import { makeCategory, makeRejectedStory, makeSource, makeStory } from "~/db/testing/factories";
import { adminUrl, createDatabaseSql, dropDatabaseSql } from "~/db/testing/postgres-admin";
import { loadConfig } from "~/server/config";
import { serve } from "~/server/serve";
import { E2E_CATEGORY, PENDING_STORIES, PUBLISHED_STORIES, REJECTED_TITLE } from "./fixtures";

const dataDir = mkdtempSync(path.join(os.tmpdir(), "oddwire-e2e-"));
const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir };
delete env.DATABASE_URL;

const serverUrl = process.env.TEST_DATABASE_URL;
const databaseName = `oddwire_e2e_${process.pid}`;
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
const category = await makeCategory(database.db, E2E_CATEGORY);
const source = await makeSource(database.db, { name: "Odd Planet Wire" });
for (const [i, story] of PUBLISHED_STORIES.entries()) {
  await makeStory(database.db, {
    title: story.title,
    originalUrl: story.url,
    categoryId: category.id,
    sourceId: source.id,
    status: "published",
    publishDate: new Date(Date.now() - (i + 1) * 3_600_000),
    imageUrl: i === 0 ? null : "/demo/goat.svg",
  });
}
for (const story of PENDING_STORIES) {
  await makeStory(database.db, { title: story.title, originalUrl: story.url, status: "pending", categoryId: category.id });
}
await makeRejectedStory(database.db, { title: REJECTED_TITLE });
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
