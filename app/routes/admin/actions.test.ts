import type { AppLoadContext } from "react-router";
import { describe, expect, test } from "vitest";
import { jobs } from "~/db/schema";
import { makeCategory, makeSource, makeStory, makeUser } from "~/db/testing/factories";
import { testDatabaseForFile } from "~/db/testing/test-database";
import { REQUIRED_FIELDS_MESSAGE } from "~/domain/stories/messages";
import { queueingRunnerForFile } from "~/jobs/testing";
import { answerOf, refusalOf, routeArgs, routeContext, type RouteArgs } from "~/test/route-context";
import { loader as ingestionLoader } from "./api.ingestion";
import { loader as jobsLoader } from "./api.jobs";
import { action as categoriesAction } from "./categories";
import { action as sourcesAction } from "./sources";
import { action as storiesAction } from "./stories";
import { action as usersAction } from "./users";

// The admin actions answer failures through the one error mapping: these run them as the router
// does, with a signed-in admin, on a real database.

const t = testDatabaseForFile();
const SITE = "https://oddwire.test";

// A runner without handlers only queues jobs, as a web process does: a queued job is the outcome.
const queueing = queueingRunnerForFile(() => t.database);

async function signedInAdmin(options: { isAdmin?: boolean } = {}) {
  const admin = await makeUser(t.db, { isAdmin: options.isAdmin ?? true, email: "boss@oddwire.test" });
  const errors: unknown[] = [];
  const log = () => {};
  const context = routeContext({
    repos: t.repos,
    getSessionUser: async () => ({ id: admin.id, email: admin.email, name: admin.name, emailVerified: true }),
    config: { siteUrl: SITE, contactEmail: "tips@oddwire.test", socialUrl: "" },
    logger: { error: (...args: unknown[]) => void errors.push(args), warn: log, info: log, debug: log },
    invalidatePublicPages: () => {},
    // Which site pictures exist is tested in domain/stories; here every one does.
    sitePictureExists: async () => true,
  });
  return { admin, context, errors };
}

const post = (path: string, fields: Record<string, string>) =>
  new Request(`${SITE}${path}`, { method: "POST", headers: { origin: SITE }, body: new URLSearchParams(fields) });

const run = async <T>(act: (args: RouteArgs) => Promise<T>, request: Request, context: AppLoadContext) =>
  answerOf(await act(routeArgs(request, context, {})));

describe("story actions", () => {
  test("an action on a story that no longer exists answers 404 with the reason", async () => {
    const { context, errors } = await signedInAdmin();
    const answer = await run(storiesAction, post("/admin/stories", { intent: "delete", storyId: "999999" }), context);
    expect(answer).toMatchObject({ status: 404, body: { ok: false, toast: { title: "Error", description: "That story no longer exists" } } });
    expect(errors).toEqual([]);
  });

  test("an invalid story form answers 400 with each field's problem, and is not logged as a failure", async () => {
    const { context, errors } = await signedInAdmin();
    const answer = await run(storiesAction, post("/admin/stories", { intent: "create", title: " ", categoryId: "", imageUrl: "javascript:alert(1)" }), context);
    expect(answer).toMatchObject({ status: 400, body: { toast: { description: REQUIRED_FIELDS_MESSAGE } } });
    expect(answer.body).toHaveProperty("fields", {
      title: REQUIRED_FIELDS_MESSAGE,
      categoryId: REQUIRED_FIELDS_MESSAGE,
      imageUrl: "must be an http(s) URL or a picture on this site, such as /demo/cat.svg",
    });
    expect(errors).toEqual([]);
  });

  test("an unreadable story id or bulk list answers 400, not a logged failure", async () => {
    const { context, errors } = await signedInAdmin();
    expect((await run(storiesAction, post("/admin/stories", { intent: "publish", storyId: "abc" }), context)).status).toBe(400);
    expect((await run(storiesAction, post("/admin/stories", { intent: "bulk-reject", ids: "[1," }), context)).status).toBe(400);
    expect(errors).toEqual([]);
  });

  test("a bulk publish publishes the pending stories and names the skipped ones", async () => {
    const { context } = await signedInAdmin();
    const category = await makeCategory(t.db);
    const pending = await makeStory(t.db, { status: "pending", categoryId: category.id });
    const bare = await makeStory(t.db, { status: "pending", title: "Owl post" });
    const live = await makeStory(t.db, { status: "published" });
    const answer = await run(storiesAction, post("/admin/stories", { intent: "bulk-publish", ids: JSON.stringify([pending.id, bare.id, live.id]) }), context);
    expect(answer).toMatchObject({
      status: 200,
      body: {
        ok: true,
        toast: {
          title: "Published 1 story",
          description: `Skipped 2: #${bare.id}: "Owl post" has no category: choose one to publish it; #${live.id}: Only a pending story can be published`,
        },
      },
    });
  });

  test("a bulk publish takes the category chosen for each story without one; nothing published reads as a failure; unreadable choices answer 400", async () => {
    const { context, errors } = await signedInAdmin();
    const animals = await makeCategory(t.db, { name: "Animals" });
    const owl = await makeStory(t.db, { status: "pending", title: "Owl post" });
    const newt = await makeStory(t.db, { status: "pending", title: "Newt elected" });
    const bulkPublish = (fields: Record<string, string>) => run(storiesAction, post("/admin/stories", { intent: "bulk-publish", ...fields }), context);
    expect(await bulkPublish({ ids: JSON.stringify([owl.id, newt.id]), categories: JSON.stringify([[owl.id, animals.id]]) })).toMatchObject({
      status: 200,
      body: { ok: true, toast: { title: "Published 1 story", description: `Skipped 1: #${newt.id}: "Newt elected" has no category: choose one to publish it` } },
    });
    expect((await t.repos.editorial.findById(owl.id))?.categoryId).toBe(animals.id);
    expect(await bulkPublish({ ids: JSON.stringify([newt.id]) })).toMatchObject({
      status: 200,
      body: { ok: false, toast: { title: "Published 0 stories", tone: "error" } },
    });
    expect((await bulkPublish({ ids: JSON.stringify([newt.id]), categories: JSON.stringify([[newt.id, "animals"]]) })).status).toBe(400);
    expect((await bulkPublish({ ids: JSON.stringify([newt.id]), categories: "[[1," })).status).toBe(400);
    // A choice for a story not chosen, or two for one story, is refused; so is a category deleted meanwhile, in words.
    expect((await bulkPublish({ ids: JSON.stringify([newt.id]), categories: JSON.stringify([[owl.id, animals.id]]) })).status).toBe(400);
    expect((await bulkPublish({ ids: JSON.stringify([newt.id]), categories: JSON.stringify([[newt.id, animals.id], [newt.id, animals.id]]) })).status).toBe(400);
    expect(await bulkPublish({ ids: JSON.stringify([newt.id]), categories: JSON.stringify([[newt.id, 999_999]]) })).toMatchObject({
      status: 400,
      body: { ok: false, toast: { tone: "error", description: "That category no longer exists: choose another" } },
    });
    expect((await t.repos.editorial.findById(newt.id))?.status).toBe("pending");
    expect(errors).toEqual([]);
  });

  test("Publish on a story without a category is refused naming the category field; Publish with one sets it", async () => {
    const { context, errors } = await signedInAdmin();
    const category = await makeCategory(t.db);
    const bare = await makeStory(t.db, { status: "pending", title: "Owl post" });
    const refused = await run(storiesAction, post("/admin/stories", { intent: "publish", storyId: String(bare.id) }), context);
    expect(refused).toMatchObject({ status: 400, body: { ok: false, fields: { categoryId: "Choose a category to publish this story" } } });
    const published = await run(storiesAction, post("/admin/stories", { intent: "publish", storyId: String(bare.id), categoryId: String(category.id) }), context);
    expect(published).toMatchObject({ status: 200, body: { ok: true } });
    expect(await t.repos.editorial.findById(bare.id)).toMatchObject({ status: "published", categoryId: category.id });
    expect(errors).toEqual([]);
  });
});

describe("user actions", () => {
  test("removing the last admin's right is a conflict: 409", async () => {
    const { admin, context } = await signedInAdmin();
    const answer = await run(usersAction, post("/admin/users", { intent: "set-admin", userId: admin.id, isAdmin: "false" }), context);
    expect(answer).toEqual({ status: 409, body: { ok: false, toast: { title: "Error", description: "The last admin cannot lose the admin right: grant it to someone else first", tone: "error" } } });
    expect(await t.repos.users.findById(admin.id)).toMatchObject({ isAdmin: true });
  });

  test("a user who no longer exists is not found: 404, not a conflict", async () => {
    const { context } = await signedInAdmin();
    const answer = await run(usersAction, post("/admin/users", { intent: "set-admin", userId: "no-such-user", isAdmin: "true" }), context);
    expect(answer).toEqual({ status: 404, body: { ok: false, toast: { title: "Error", description: "That user no longer exists", tone: "error" } } });
  });

  test("a request that is not understood is invalid: 400", async () => {
    const { context } = await signedInAdmin();
    const answer = await run(usersAction, post("/admin/users", { intent: "set-admin", isAdmin: "maybe" }), context);
    expect(answer).toMatchObject({ status: 400, body: { ok: false, toast: { title: "Error", description: "That request was not understood." }, fields: { userId: "That request was not understood." } } });
  });

  test("granting the admin right answers a toast, and the user is an admin", async () => {
    const { context } = await signedInAdmin();
    const editor = await makeUser(t.db, { isAdmin: false, email: "ed@oddwire.test" });
    const answer = await run(usersAction, post("/admin/users", { intent: "set-admin", userId: editor.id, isAdmin: "true" }), context);
    expect(answer).toEqual({ status: 200, body: { ok: true, toast: { title: "Admin right granted" } } });
    expect(await t.repos.users.findById(editor.id)).toMatchObject({ isAdmin: true });
  });
});

describe("source actions", () => {
  test("a delete that fails in the database is logged and answered with the generic text, never the database's words", async () => {
    const { context, errors } = await signedInAdmin();
    const failing = routeContext({
      ...context,
      repos: {
        ...t.repos,
        sources: { ...t.repos.sources, deleteWithData: async () => ({ deleted: false, reason: "step-failed", step: "stories", error: new Error("deadlock detected on relation stories") }) },
      },
    });
    const answer = await run(sourcesAction, post("/admin/sources", { intent: "delete", sourceId: "7" }), failing);
    expect(answer).toMatchObject({ status: 500, body: { ok: false, toast: { title: "Failed to delete source", description: "Error: Something went wrong. Please try again." } } });
    expect(JSON.stringify(answer.body)).not.toContain("deadlock");
    expect(errors).toHaveLength(1);
  });

  test("deleting a source that no longer exists answers 404 in the spec's words", async () => {
    const { context } = await signedInAdmin();
    const answer = await run(sourcesAction, post("/admin/sources", { intent: "delete", sourceId: "999" }), context);
    expect(answer).toMatchObject({ status: 404, body: { toast: { title: "Failed to delete source", description: "Error: That source no longer exists" } } });
  });

  test("a refused source form answers 400 with the fields to fix", async () => {
    const { context, errors } = await signedInAdmin();
    const answer = await run(sourcesAction, post("/admin/sources", { intent: "create", name: "", sourceType: "rss", status: "active" }), context);
    expect(answer).toMatchObject({
      status: 400,
      body: {
        toast: { title: "Failed to create source", description: "Please fix the highlighted fields." },
        fields: { name: "Name is required", rssFeedUrl: "RSS Feed URL is required for RSS sources" },
      },
    });
    expect(errors).toEqual([]);
  });
});

describe("category actions", () => {
  test.each([
    ["a blank name", { name: " ", slug: "odd" }],
    ["a slug with no word characters", { name: "Odd", slug: "!!!" }],
  ])("%s is refused in the words the browser shows beside Add", async (_name, fields) => {
    const { context, errors } = await signedInAdmin();
    const answer = await run(categoriesAction, post("/admin/categories", { intent: "create", ...fields }), context);
    expect(answer).toMatchObject({ status: 400, body: { ok: false, toast: { title: "Error", description: "A category needs a name and a URL slug" } } });
    expect(await t.repos.categories.listAll()).toEqual([]);
    expect(errors).toEqual([]);
  });

  test("a category is added with its slug cleaned", async () => {
    const { context } = await signedInAdmin();
    const answer = await run(categoriesAction, post("/admin/categories", { intent: "create", name: " Odd Jobs ", slug: "Odd Jobs!" }), context);
    expect(answer).toEqual({ status: 200, body: { ok: true, toast: { title: "Category added" } } });
    expect(await t.repos.categories.listAll()).toMatchObject([{ name: "Odd Jobs", slug: "odd-jobs" }]);
  });

  test("an unknown intent is refused: 400", async () => {
    const { context } = await signedInAdmin();
    expect(await run(categoriesAction, post("/admin/categories", { intent: "paint" }), context)).toMatchObject({ status: 400, body: { toast: { description: "Unknown action" } } });
  });
});

describe("'Discover now' on a source", () => {
  const withJobs = (context: AppLoadContext) => routeContext({ ...context, jobs: queueing() });
  const discover = (sourceId: number) => post("/admin/sources", { intent: "discover", sourceId: String(sourceId) });

  test("queues a discovery of a Web Scraping source, requested by the admin, and answers its job", async () => {
    const { admin, context, errors } = await signedInAdmin();
    const scraper = await makeSource(t.db, { sourceType: "web_scraping", rssFeedUrl: null, status: "inactive" });
    const answer = await run(sourcesAction, discover(scraper.id), withJobs(context));
    expect(answer).toEqual({ status: 200, body: { ok: true, jobId: expect.any(String) } });
    const jobId = (answer.body as { jobId: string }).jobId;
    expect(await t.repos.jobs.findById(jobId)).toMatchObject({ kind: "crawl-discovery", status: "queued", input: { source_id: scraper.id }, requestedBy: admin.id });
    expect(await queueing().get(jobId)).toMatchObject({ status: "queued" });
    expect(errors).toEqual([]);
  });

  test("an RSS source has no URLs to discover: 409 with the reason, and no job", async () => {
    const { context, errors } = await signedInAdmin();
    const feed = await makeSource(t.db, { name: "Odd Feed" });
    const answer = await run(sourcesAction, discover(feed.id), withJobs(context));
    expect(answer).toEqual({
      status: 409,
      body: { ok: false, toast: { title: "Discovery failed", description: 'Only a Web Scraping source has URLs to discover; "Odd Feed" is an RSS source.', tone: "error" } },
    });
    expect(await t.db.select().from(jobs)).toEqual([]);
    expect(errors).toEqual([]);
  });

  test("a source that no longer exists is not found: 404", async () => {
    const { context } = await signedInAdmin();
    const answer = await run(sourcesAction, discover(424242), withJobs(context));
    expect(answer).toMatchObject({ status: 404, body: { ok: false, toast: { title: "Discovery failed", description: "That source no longer exists" } } });
  });

  test("a signed-in user who is not an admin is refused: 403, and no job", async () => {
    const { context } = await signedInAdmin({ isAdmin: false });
    const scraper = await makeSource(t.db, { sourceType: "web_scraping", rssFeedUrl: null });
    expect((await refusalOf(run(sourcesAction, discover(scraper.id), withJobs(context))))?.status).toBe(403);
    expect(await t.db.select().from(jobs)).toEqual([]);
  });
});

describe("'Trigger RSS Ingestion' starts a job as every other start does", () => {
  const withJobs = (context: AppLoadContext) => routeContext({ ...context, jobs: queueing() });

  test("the sources page's ingest intent queues one cycle, requested by the admin, with the canonical URL choice", async () => {
    const { admin, context, errors } = await signedInAdmin();
    const answer = await run(sourcesAction, post("/admin/sources", { intent: "ingest", useCanonical: "true" }), withJobs(context));
    expect(answer).toEqual({ status: 200, body: { ok: true, jobId: expect.any(String) } });
    const jobId = (answer.body as { jobId: string }).jobId;
    expect(await t.repos.jobs.findById(jobId)).toMatchObject({ kind: "rss-ingestion", status: "queued", input: { use_canonical: true }, requestedBy: admin.id });
    const plain = await run(sourcesAction, post("/admin/sources", { intent: "ingest" }), withJobs(context));
    expect(await t.repos.jobs.findById((plain.body as { jobId: string }).jobId)).toMatchObject({ input: { use_canonical: false } });
    expect(errors).toEqual([]);
  });

  test("a signed-in user who is not an admin is refused: 403, and no job", async () => {
    const { context } = await signedInAdmin({ isAdmin: false });
    expect((await refusalOf(run(sourcesAction, post("/admin/sources", { intent: "ingest" }), withJobs(context))))?.status).toBe(403);
    expect(await t.db.select().from(jobs)).toEqual([]);
  });
});

describe("the job endpoints answer through the one error mapping", () => {
  const get = (path: string) => new Request(`${SITE}${path}`);
  const read = async (response: unknown) => ({ status: (response as Response).status, body: await (response as Response).json() });

  test("a job that does not exist is not found: 404 with its code", async () => {
    const { context } = await signedInAdmin();
    const answer = await read(await jobsLoader(routeArgs(get("/admin/api/jobs/nope"), routeContext({ ...context, jobs: queueing() }), { id: "nope" })));
    expect(answer).toEqual({ status: 404, body: { error: "No such job.", code: "JOB_NOT_FOUND" } });
  });

  test("an ingestion run that has not finished is a conflict: 409; one that does not exist, 404", async () => {
    const { admin, context } = await signedInAdmin();
    const withJobs = routeContext({ ...context, jobs: queueing() });
    const { jobId } = await queueing().enqueue("rss-ingestion", { use_canonical: false }, { requestedBy: admin.id });
    const running = await read(await ingestionLoader(routeArgs(get(`/admin/api/ingestion?job=${jobId}`), withJobs, {})));
    expect(running).toEqual({ status: 409, body: { error: "The run has not finished yet.", code: "JOB_NOT_FINISHED" } });
    const missing = await read(await ingestionLoader(routeArgs(get("/admin/api/ingestion?job=nope"), withJobs, {})));
    expect(missing).toEqual({ status: 404, body: { error: "No such ingestion run.", code: "JOB_NOT_FOUND" } });
  });

  test("a query that does not fit is invalid input with its code and field", async () => {
    const { context } = await signedInAdmin();
    const thrown = await ingestionLoader(routeArgs(get("/admin/api/ingestion"), routeContext({ ...context, jobs: queueing() }), {})).catch((error: unknown) => error);
    expect(await read(thrown)).toEqual({ status: 400, body: { error: "Which run? Add ?job=ID.", code: "INVALID_INPUT", fields: { _: "Which run? Add ?job=ID." } } });
  });
});
