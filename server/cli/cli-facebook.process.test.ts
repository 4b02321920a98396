import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject, test } from "vitest";
import { openDatabase, type Database } from "~/db/client";
import { openEmbeddedDatabase } from "~/server/database";
import { createRepos } from "~/db/repos";
import { jobs, socialMediaPosts } from "~/db/schema";
import { makeCategory, makeStory } from "~/db/testing/factories";
import { adminUrl, createDatabaseSql, dropDatabaseSql } from "~/db/testing/postgres-admin";
import { graphErrors, startFakeGraph, type FakeGraph } from "~/integrations/facebook/testing/fake-graph";
import { runCli, useCliEnvironment } from "~/test/cli-harness";

const SITE = "https://oddwire.test";
const SUMMARY =
  "A goat called Lincoln has been sworn in as honorary mayor of a small Vermont town after winning a landslide vote organised to raise money for the school playground, beating a dog, a cat and a very determined hamster.";

let fake: FakeGraph;
const cli = useCliEnvironment("oddwire-cli-facebook");
beforeAll(async () => {
  fake = await startFakeGraph();
});
afterAll(() => fake.close());
beforeEach(() => {
  process.env.SITE_URL = SITE;
  process.env.FACEBOOK_GRAPH_URL = fake.url;
  process.env.FACEBOOK_PAGE_ID = fake.pageId;
  process.env.FACEBOOK_PAGE_TOKEN = fake.pageToken;
});
afterEach(() => {
  fake.clearAnswers();
  fake.requests.length = 0;
  fake.posts.length = 0;
});

/** Runs a command and checks that no token it was given shows on stdout or stderr. */
async function run(argv: string[]) {
  const result = await runCli(argv);
  const printed = [...result.out, ...result.err].join("\n");
  expect(printed).not.toContain(fake.pageToken);
  if (process.env.FACEBOOK_PAGE_TOKEN) expect(printed).not.toContain(process.env.FACEBOOK_PAGE_TOKEN);
  return result;
}

async function withDatabase<T>(work: (database: Database) => Promise<T>): Promise<T> {
  const database = process.env.DATABASE_URL ? await openDatabase({ databaseUrl: process.env.DATABASE_URL }) : await openEmbeddedDatabase(cli.dataDir());
  try {
    return await work(database);
  } finally {
    await database.close();
  }
}

/** A published story in the Animals category, in the database the CLI opens. */
async function publishedStory() {
  const migrated = await runCli(["migrate"]);
  expect(migrated.err).toEqual([]);
  expect(migrated.code).toBe(0);
  return withDatabase(async (database) => {
    const category = await makeCategory(database.db, { name: "Animals", slug: "animals" });
    return makeStory(database.db, { title: "Goat elected mayor", summary: SUMMARY, categoryId: category.id });
  });
}

const feedCalls = () => fake.requests.filter((request) => request.endpoint === "feed");

describe("facebook:check", () => {
  test("help lists the Facebook commands", async () => {
    const help = (await runCli(["--help"])).out.join("\n");
    for (const command of ["facebook:check", "facebook:post"]) expect(help).toMatch(new RegExp(`^\\s+${command}\\b`, "m"));
  });

  test("a healthy connection prints the Page, the token's permissions and expiry, and exits 0", async () => {
    const { code, json } = await run(["facebook:check"]);
    expect(code).toBe(0);
    expect(json()).toMatchObject({
      connected: true,
      page: { id: fake.pageId, name: "Oddwire" },
      tokenValid: true,
      permissions: expect.arrayContaining(["pages_manage_posts", "pages_read_engagement"]),
      missingPermissions: [],
      expiresAt: null,
      neverExpires: true,
      error: null,
    });
  });

  test("without a Page configured it says how to connect, and exits 1", async () => {
    delete process.env.FACEBOOK_PAGE_ID;
    delete process.env.FACEBOOK_PAGE_TOKEN;
    const { code, json } = await run(["facebook:check"]);
    expect(code).toBe(1);
    expect(json()).toEqual({ connected: false, how: expect.stringContaining("FACEBOOK_PAGE_TOKEN") });
    expect(fake.requests).toEqual([]);
  });

  test("a revoked token is reported as not valid, with what to do, and exits 1", async () => {
    process.env.FACEBOOK_PAGE_TOKEN = `EAAG${randomBytes(24).toString("hex")}`;
    const { code, json } = await run(["facebook:check"]);
    expect(code).toBe(1);
    const health = json() as { connected: boolean; page: unknown; tokenValid: boolean; error: { code: number; message: string } };
    expect(health).toMatchObject({ connected: true, page: null, tokenValid: false, error: { code: 190 } });
    expect(health.error.message).toMatch(/renew FACEBOOK_PAGE_TOKEN/);
  });
});

describe("facebook:post", () => {
  test("posts a published story now with the composed message and prints the posted row", async () => {
    const story = await publishedStory();
    const { code, json, err } = await run(["facebook:post", "--story", String(story.id)]);
    expect(err).toEqual([]);
    expect(code).toBe(0);
    const post = fake.posts.at(-1)!;
    const message = [
      "Goat elected mayor",
      `${SUMMARY.slice(0, 200).trimEnd()}…`,
      `Read more: ${SITE}/category/animals`,
      "#WeirdNews #Oddwire #StrangeButTrue",
    ].join("\n\n");
    expect(json()).toMatchObject({
      story_id: story.id,
      status: "posted",
      post_id: post.id,
      permalink_url: post.permalinkUrl,
      error_message: null,
      error_code: null,
      scheduled_for: null,
      attempts: 1,
      message,
      link: `${SITE}/story/${story.slug}`,
    });
    expect(feedCalls()).toHaveLength(1);
    expect(feedCalls()[0]!.body).toMatchObject({ message, link: `${SITE}/story/${story.slug}` });
  });

  test("a story already on the Page is refused, and posted again with --repost", async () => {
    const story = await publishedStory();
    expect((await run(["facebook:post", "--story", String(story.id)])).code).toBe(0);
    const again = await run(["facebook:post", "--story", String(story.id)]);
    expect(again.code).toBe(1);
    expect(again.out).toEqual([]);
    expect(again.error().code).toBe("ALREADY_POSTED");
    expect(feedCalls()).toHaveLength(1);

    const repost = await run(["facebook:post", "--story", String(story.id), "--repost"]);
    expect(repost.code).toBe(0);
    expect(repost.json()).toMatchObject({ status: "posted", post_id: fake.posts.at(-1)!.id });
    expect(feedCalls()).toHaveLength(2);
    // Three CLI processes, each starting Node and opening the database: slow on a loaded machine.
  }, 60_000);

  test("--message is posted as given", async () => {
    const story = await publishedStory();
    const { code, json } = await run(["facebook:post", "--story", String(story.id), "--message", "A goat runs the town now. 🐐"]);
    expect(code).toBe(0);
    expect(json()).toMatchObject({ status: "posted", message: "A goat runs the town now. 🐐" });
    expect(fake.posts.at(-1)!.message).toBe("A goat runs the town now. 🐐");
  });

  test("--at queues the post as a job and prints it pending with its time; nothing is posted yet", async () => {
    const story = await publishedStory();
    const at = new Date(Date.now() + 2 * 60 * 60_000);
    const { code, json } = await run(["facebook:post", "--story", String(story.id), "--at", at.toISOString()]);
    expect(code).toBe(0);
    const row = json() as { status: string; scheduled_for: string; job_id: string; attempts: number };
    expect(row).toMatchObject({ story_id: story.id, status: "pending", scheduled_for: at.toISOString(), attempts: 0, post_id: null });
    expect(feedCalls()).toEqual([]);
    const queued = await withDatabase((database) => database.db.select().from(jobs).where(eq(jobs.id, row.job_id)));
    expect(queued).toMatchObject([{ kind: "facebook-post", status: "queued", input: { post_id: (json() as { id: number }).id } }]);
  });

  test("--at in the past is refused by the rule, and one that is no time at all is a usage error", async () => {
    const story = await publishedStory();
    const past = await run(["facebook:post", "--story", String(story.id), "--at", new Date(Date.now() - 60_000).toISOString()]);
    expect(past.code).toBe(1);
    expect(past.error()).toMatchObject({ code: "INVALID_INPUT", message: "Choose a time in the future." });
    const nonsense = await run(["facebook:post", "--story", String(story.id), "--at", "next tuesday-ish"]);
    expect(nonsense.code).toBe(2);
    expect(nonsense.error().code).toBe("USAGE");
    expect(await withDatabase((database) => database.db.select().from(socialMediaPosts))).toEqual([]);
  });

  test("an expired token fails the post with Facebook's code and what to renew, and exits 1", async () => {
    const story = await publishedStory();
    fake.answerOnce("feed", { kind: "error", error: graphErrors.expiredToken() });
    const { code, json } = await run(["facebook:post", "--story", String(story.id)]);
    expect(code).toBe(1);
    const row = json() as { status: string; error_code: number; error_message: string };
    expect(row).toMatchObject({ status: "failed", error_code: 190, post_id: null });
    expect(row.error_message).toMatch(/renew FACEBOOK_PAGE_TOKEN/);
    expect(fake.posts).toEqual([]);
  });

  test("a rate limit leaves the post pending with its next attempt queued as a job", async () => {
    const story = await publishedStory();
    fake.answerOnce("feed", { kind: "error", error: graphErrors.rateLimited() });
    const { code, json } = await run(["facebook:post", "--story", String(story.id)]);
    expect(code).toBe(0);
    const row = json() as { id: number; status: string; next_attempt_at: string; job_id: string };
    expect(row).toMatchObject({ status: "pending", attempts: 1, next_attempt_at: expect.any(String), job_id: expect.any(String) });
    const queued = await withDatabase((database) => database.db.select().from(jobs).where(eq(jobs.id, row.job_id)));
    expect(queued).toMatchObject([{ kind: "facebook-post", status: "queued", input: { post_id: row.id } }]);
  });

  test("a story being posted elsewhere is refused without any call to Facebook", async () => {
    const story = await publishedStory();
    // What a worker's attempt under way leaves: a pending row whose publish call was sent.
    await withDatabase(async (database) => {
      const repos = createRepos(database.db);
      const row = await repos.social.insertPending(
        { storyId: story.id, message: "In flight", link: `${SITE}/story/${story.slug}`, requestedBy: null, scheduledFor: null },
        { actorUserId: null, action: "facebook.post", details: {} },
      );
      await repos.social.beginAttempt(row!.id, null, new Date());
    });
    const { code, out, error } = await run(["facebook:post", "--story", String(story.id), "--repost"]);
    expect(code).toBe(1);
    expect(out).toEqual([]);
    expect(error()).toMatchObject({ code: "POST_IN_FLIGHT", message: "This story is being posted right now." });
    expect(fake.requests).toEqual([]);
  });

  test("without a Page configured the post is refused, and a story that is not published cannot be posted", async () => {
    const story = await publishedStory();
    const draft = await withDatabase((database) => makeStory(database.db, { status: "pending" }));
    expect((await run(["facebook:post", "--story", String(draft.id)])).error().code).toBe("WRONG_STATUS");
    expect((await run(["facebook:post", "--story", "999999"])).error().code).toBe("STORY_NOT_FOUND");
    delete process.env.FACEBOOK_PAGE_ID;
    delete process.env.FACEBOOK_PAGE_TOKEN;
    const refused = await run(["facebook:post", "--story", String(story.id)]);
    expect(refused.code).toBe(1);
    expect(refused.error().code).toBe("FACEBOOK_NOT_CONNECTED");
    expect(fake.requests).toEqual([]);
  });

  test("--story is required and must be a whole number", async () => {
    expect((await run(["facebook:post"])).code).toBe(2);
    expect((await run(["facebook:post", "--story", "goat"])).error().code).toBe("USAGE");
    expect((await run(["facebook:post", "--story", "1", "--message", "  "])).code).toBe(2);
  });

  // Two processes cannot share an embedded data dir, so two runs at once need PostgreSQL.
  const testDatabase = inject("testDatabase");
  test("two runs at once for one story make exactly one call to Facebook (PostgreSQL)", async () => {
    const name = `oddwire_t_cli_fb_${process.pid}_${randomBytes(4).toString("hex")}`;
    const admin = await openDatabase({ databaseUrl: testDatabase.url, poolSize: 1 });
    await admin.exec(createDatabaseSql(name, testDatabase.template));
    try {
      process.env.DATABASE_URL = adminUrl(testDatabase.url, name);
      process.env.AUTH_SECRET = randomBytes(24).toString("hex");
      const story = await publishedStory();
      // The first call's answer comes late, so the other run starts while the post is in flight.
      fake.answerOnce("feed", { kind: "success", delayMs: 1_500 });
      const runs = await Promise.all([run(["facebook:post", "--story", String(story.id)]), run(["facebook:post", "--story", String(story.id)])]);
      expect(runs.map((r) => r.code).sort()).toEqual([0, 1]);
      const winner = runs.find((r) => r.code === 0)!;
      const loser = runs.find((r) => r.code === 1)!;
      expect(winner.json()).toMatchObject({ status: "posted" });
      expect(["POST_IN_FLIGHT", "ALREADY_POSTED"]).toContain(loser.error().code);
      expect(feedCalls()).toHaveLength(1);
      expect(await withDatabase((database) => database.db.select().from(socialMediaPosts))).toMatchObject([{ status: "posted" }]);
    } finally {
      await admin.exec(dropDatabaseSql(name));
      await admin.close();
    }
  });
});
