import pino from "pino";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { makeStory } from "~/db/testing/factories";
import { testDatabaseForFile } from "~/db/testing/test-database";
import { createGraphClient, type GraphClient } from "~/integrations/facebook/graph-client";
import { graphErrors, startFakeGraph, type FakeAnswer, type FakeGraph } from "~/integrations/facebook/testing/fake-graph";
import { connectionStatus, POST_VOUCHES_FOR_MS, TOKEN_TEXT } from "./connection-status";
import { attemptPost, requestPost } from "./post-story";

// The connection panel's verdict, from a fake Graph API on 127.0.0.1 and the posts on a real database.

const t = testDatabaseForFile();
const logger = pino({ level: "silent" });
let fake: FakeGraph;
let graph: GraphClient;
let clockNow = new Date();
const now = () => clockNow.getTime();

beforeAll(async () => {
  fake = await startFakeGraph();
  graph = createGraphClient({ ...fake.clientOptions(), timeoutMs: 1_000 });
});
afterAll(async () => {
  await graph.close();
  await fake.close();
});
afterEach(() => {
  fake.clearAnswers();
  clockNow = new Date();
});

const raw = (body: unknown): FakeAnswer => ({ kind: "raw", status: 200, body: JSON.stringify(body), headers: { "content-type": "application/json" } });

/** Facebook gives nothing of the token: debug_token answers with no data, the rest fail for a while. */
function noTokenDetails() {
  fake.answerAlways("debug_token", raw({ data: {} }));
  fake.answerAlways("permissions", { kind: "error", error: graphErrors.serviceUnavailable() });
  fake.answerAlways("page", { kind: "error", error: graphErrors.serviceUnavailable() });
}

/** Posts a story through the page's own path (request, then the job's attempt) against the fake. */
async function postAStory() {
  const story = await makeStory(t.db, { title: "Cat elected mayor", slug: "cat-elected-mayor", status: "published", publishDate: new Date() });
  const row = await requestPost({ repos: t.repos, siteUrl: "https://oddwire.test", connected: true, schedule: async () => ({ jobId: "job-1" }) }, { storyId: story.id, actorUserId: null });
  return attemptPost({ repos: t.repos, graph, schedule: async () => ({ jobId: "job-2" }), logger }, row.id);
}

const status = () => connectionStatus({ graph, repos: t.repos, now });

describe("what the connection panel says of the token", () => {
  test("a Page token that posts fine, whose check Facebook answers with no data, works: its details could not be read", async () => {
    fake.answerAlways("debug_token", raw({ data: {} }));
    fake.answerAlways("permissions", raw({ data: [] }));
    const answer = await status();
    expect(answer).toMatchObject({ token: "works", summary: TOKEN_TEXT.worksNoDetails });
    expect(answer.health).toMatchObject({ tokenValid: true, permissions: null, missingPermissions: [], error: null, tokenCheck: "none" });
    expect(await postAStory()).toMatchObject({ outcome: "posted" });
  });

  test("a token Facebook gives no details of is 'details could not be read', never expired, code 190 or missing permissions", async () => {
    noTokenDetails();
    const answer = await status();
    expect(answer.token).toBe("unknown");
    expect(answer.summary).toBe(TOKEN_TEXT.unknown);
    expect(answer.health).toMatchObject({ tokenValid: null, permissions: null, missingPermissions: [], tokenCheck: "none" });
    expect(JSON.stringify(answer)).not.toMatch(/expired|"code":190|Missing/);
  });

  test("after a post that went out, a token with no details given works, and the posting permission is not called missing", async () => {
    noTokenDetails();
    expect(await postAStory()).toMatchObject({ outcome: "posted" });
    const answer = await status();
    expect(answer).toMatchObject({ token: "works", summary: TOKEN_TEXT.worksByPost });
    expect(answer.lastPostedAt).not.toBeNull();
  });

  test("a post that went out more than a day ago vouches for nothing today", async () => {
    noTokenDetails();
    await postAStory();
    clockNow = new Date(Date.now() + POST_VOUCHES_FOR_MS + 60_000);
    expect((await status()).token).toBe("unknown");
  });

  test("a permission list without pages_manage_posts does not contradict a post that just went out", async () => {
    await postAStory();
    fake.answerAlways("debug_token", raw({ data: { is_valid: true, scopes: ["pages_show_list", "pages_read_engagement"], profile_id: fake.pageId } }));
    const answer = await status();
    expect(answer).toMatchObject({ token: "works", summary: TOKEN_TEXT.works, health: { missingPermissions: [], error: null } });
  });

  test("Facebook answering code 190 now says expired, whatever posts went out before", async () => {
    await postAStory();
    fake.answerAlways("*", { kind: "error", error: graphErrors.expiredToken() });
    const answer = await status();
    expect(answer.token).toBe("not-working");
    expect(answer.summary).toBe(TOKEN_TEXT.notWorking("The Facebook token has expired. Reconnect the Page: renew FACEBOOK_PAGE_TOKEN."));
    expect(answer.health.error).toMatchObject({ code: 190 });
  });

  test("a healthy token works, and the same check twice says the same sentence", async () => {
    const first = await status();
    const second = await status();
    expect(first).toMatchObject({ token: "works", summary: TOKEN_TEXT.works });
    expect(second.summary).toBe(first.summary);
  });

  test("a Graph error echoing the token in its message and fbtrace_id is answered without it", async () => {
    const token = fake.pageToken;
    fake.answerAlways("*", { kind: "error", error: { message: `Error validating access token x${token}`, type: "OAuthException", code: 190, fbtrace_id: `A${token}` } });
    const answer = await status();
    expect(answer.health.error).toMatchObject({ code: 190, fbtraceId: "A[token]" });
    expect(JSON.stringify(answer)).not.toContain(token);
  });
});
