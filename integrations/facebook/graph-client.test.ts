import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { inspect } from "node:util";
import { afterEach, describe, expect, test } from "vitest";
import { createGraphClient, type GraphClient, type GraphClientOptions, GraphError, isGraphError } from "./graph-client";
import { sameLink } from "./post-links";
import { type FakeGraph, type FakeGraphOptions, graphErrors, startFakeGraph, usageHeaders } from "./testing/fake-graph";

const fakes: FakeGraph[] = [];
const clients: GraphClient[] = [];

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await Promise.all(fakes.splice(0).map((fake) => fake.close()));
});

async function fakeGraph(options: FakeGraphOptions = {}) {
  const fake = await startFakeGraph(options);
  fakes.push(fake);
  return fake;
}

function clientFor(fake: FakeGraph, options: Partial<GraphClientOptions> = {}) {
  const warnings: { fields: Record<string, unknown>; message: string }[] = [];
  const client = createGraphClient({
    ...fake.clientOptions(),
    timeoutMs: 2_000,
    log: { warn: (fields, message) => void warnings.push({ fields, message }) },
    ...options,
  });
  clients.push(client);
  return Object.assign(client, { warnings });
}

/** What a call threw, which must be a GraphError. */
async function failureOf(promise: Promise<unknown>): Promise<GraphError> {
  const error = await promise.then(
    () => {
      throw new Error("expected the call to fail");
    },
    (thrown: unknown) => thrown,
  );
  if (!isGraphError(error)) throw error;
  return error;
}

/** Everything a thrown error carries, as a logger or a careless JSON.stringify would see it. */
const everythingIn = (error: unknown) => `${inspect(error, { depth: 10, showHidden: true })}\n${JSON.stringify(error)}`;

const STORY = "https://oddwire.example/story/cat-elected-mayor";

describe("posting a story to the Page", () => {
  test("posts the message and link to the Page's feed and returns the new post's id and permalink", async () => {
    const fake = await fakeGraph();
    const client = clientFor(fake);

    const posted = await client.publishPost({ message: "A cat was elected mayor", link: STORY });

    expect(posted.postId).toMatch(new RegExp(`^${fake.pageId}_\\d+$`));
    expect(posted.permalinkUrl).toBe(fake.posts[0]!.permalinkUrl);
    expect(fake.posts).toEqual([expect.objectContaining({ id: posted.postId, message: "A cat was elected mayor", link: STORY })]);
    const [post] = fake.requests;
    expect(post).toMatchObject({
      method: "POST",
      path: `/${fake.pageId}/feed`,
      query: {},
      body: { message: "A cat was elected mayor", link: STORY },
      tokenIn: "header",
      tokenOk: true,
    });
    expect(post!.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(post!.headers["user-agent"]).toMatch(/^Oddwire\//);
    expect(post!.headers.authorization).toBeUndefined();
  });

  test("the base URL comes from the options: every request goes to the fake under its version prefix", async () => {
    const fake = await fakeGraph({ version: "/v99.0" });
    const client = clientFor(fake);
    expect(fake.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v99\.0$/);
    await client.publishPost({ message: "Hello", link: STORY });
    expect(fake.requests.map((r) => r.endpoint)).toEqual(["feed", "post"]);
  });

  test("the token never travels in a URL", async () => {
    const fake = await fakeGraph();
    const client = clientFor(fake);
    await client.publishPost({ message: "Hello", link: STORY });
    await client.findRecentPostWithLink(STORY);
    await client.rescrape(STORY);
    await client.checkConnection();
    for (const request of fake.requests) {
      expect(request.tokenIn).toBe("header");
      expect(request.query.access_token).toBeUndefined();
    }
    // debug_token takes the token it inspects as a parameter by design; that is the only one.
    expect(fake.requests.filter((r) => r.query.input_token !== undefined).map((r) => r.endpoint)).toEqual(["debug_token"]);
  });

  test("when the permalink cannot be read, the post still counts and links by its id", async () => {
    const fake = await fakeGraph();
    fake.answerOnce("post", { kind: "error", error: graphErrors.unknown() });
    const client = clientFor(fake);
    const posted = await client.publishPost({ message: "Hello", link: STORY });
    expect(posted.permalinkUrl).toBe(`https://www.facebook.com/${posted.postId}`);
    expect(client.warnings).toEqual([expect.objectContaining({ fields: expect.objectContaining({ postId: posted.postId }) })]);
  });

  test("an empty message or a link that is not http(s) is refused before asking Facebook", async () => {
    const fake = await fakeGraph();
    const client = clientFor(fake);
    expect((await failureOf(client.publishPost({ message: "  ", link: STORY }))).kind).toBe("invalid");
    expect((await failureOf(client.publishPost({ message: "Hi", link: "javascript:alert(1)" }))).kind).toBe("invalid");
    expect(fake.requests).toEqual([]);
  });
});

describe("Graph errors when posting", () => {
  test.each([
    { case: "an expired token", error: graphErrors.expiredToken(), kind: "auth", retryable: false, subcode: 463, says: /expired\. Reconnect the Page/ },
    { case: "a changed password", error: graphErrors.passwordChanged(), kind: "auth", retryable: false, subcode: 460, says: /password/ },
    { case: "a missing permission", error: graphErrors.missingPermission("pages_manage_posts"), kind: "permission", retryable: false, subcode: null, says: /lacks the permission pages_manage_posts\.$/ },
    { case: "a denied permission", error: graphErrors.permissionDenied(), kind: "permission", retryable: false, subcode: null, says: /pages_read_engagement/ },
    ...([4, 17, 32, 613] as const).map((code) => ({
      case: `a rate limit (${code})`,
      error: graphErrors.rateLimited(code),
      kind: "rate-limited",
      retryable: true,
      subcode: null,
      says: /rate limit was reached; the post will be retried later\.$/,
    })),
    { case: "spam protection", error: graphErrors.blocked(), kind: "blocked", retryable: false, subcode: 1390008, says: /temporarily blocked/ },
    { case: "a duplicate", error: graphErrors.duplicate(), kind: "duplicate", retryable: false, subcode: 1455006, says: /duplicate post/ },
    { case: "an unknown error", error: graphErrors.unknown(), kind: "transient", retryable: true, subcode: 99, says: /temporary problem/ },
    { case: "a service outage", error: graphErrors.serviceUnavailable(), kind: "transient", retryable: true, subcode: null, says: /temporary problem/ },
    { case: "an invalid parameter", error: graphErrors.invalidParameter(), kind: "invalid", retryable: false, subcode: null, says: /^Facebook refused the post: Invalid parameter \(code 100\)\.$/ },
  ])("$case: $kind, with its code, subcode and trace id", async ({ error, kind, retryable, subcode, says }) => {
    const fake = await fakeGraph();
    fake.answerOnce("feed", { kind: "error", error: { ...error, fbtrace_id: "TraceFromFacebook" } });
    const client = clientFor(fake);

    const failure = await failureOf(client.publishPost({ message: "Hello", link: STORY }));

    expect(failure).toMatchObject({ kind, retryable, code: error.code, subcode, fbtraceId: "TraceFromFacebook" });
    expect(failure.editorMessage).toMatch(says);
    expect(fake.posts).toEqual([]);
  });

  test("a rate limit with usage headers suggests when to try again", async () => {
    const fake = await fakeGraph();
    fake.answerOnce("feed", { kind: "error", error: graphErrors.rateLimited(32), headers: usageHeaders({ minutes: 7, pageId: fake.pageId }) });
    const failure = await failureOf(clientFor(fake).publishPost({ message: "Hello", link: STORY }));
    expect(failure).toMatchObject({ kind: "rate-limited", retryable: true, retryAfterMs: 7 * 60_000 });
    expect(failure.editorMessage).toContain("in about 7 minutes");
  });

  test("a token Facebook echoes back is scrubbed from everything the error carries", async () => {
    const fake = await fakeGraph();
    fake.answerOnce("feed", { kind: "error", error: { message: `Malformed access token ${fake.pageToken}`, type: "OAuthException", code: 190 } });
    const failure = await failureOf(clientFor(fake).publishPost({ message: "Hello", link: STORY }));
    expect(failure.kind).toBe("auth");
    expect(failure.message).toContain("Malformed access token [token]");
    expect(everythingIn(failure)).not.toContain(fake.pageToken);
  });

  test("a token of any shape is scrubbed, not only ones that look like Facebook's", async () => {
    const fake = await fakeGraph({ pageToken: "oddwire-page-token-0123456789" });
    fake.answerOnce("feed", { kind: "error", error: { message: `(#100) Bad token oddwire-page-token-0123456789`, type: "OAuthException", code: 100 } });
    const failure = await failureOf(clientFor(fake).publishPost({ message: "Hello", link: STORY }));
    expect(failure.editorMessage).toBe("Facebook refused the post: Bad token [token] (code 100).");
    expect(everythingIn(failure)).not.toContain("oddwire-page-token-0123456789");
  });

  test("a token and a configured secret Facebook echoes in its message and fbtrace_id are in no field of the error, its view or the client's log", async () => {
    const token = "oddwire-page-token-0123456789";
    const authSecret = "auth-secret-value-0123456789abcdef";
    const fake = await fakeGraph({ pageToken: token });
    const echo = { message: `(#100) Bad token ${token} (${authSecret})`, type: "OAuthException", code: 100, fbtrace_id: `A${token}${authSecret}` };
    fake.answerAlways("feed", { kind: "error", error: echo });
    fake.answerAlways("page", { kind: "error", error: echo });
    fake.answerAlways("debug_token", { kind: "error", error: echo });
    fake.answerAlways("permissions", { kind: "error", error: echo });
    const client = clientFor(fake, { secrets: [authSecret] });
    const failure = await failureOf(client.publishPost({ message: "Hello", link: STORY }));
    const health = await client.checkConnection();
    expect(failure.fbtraceId).toBe("A[token][token]");
    expect(health.error).toMatchObject({ code: 100, fbtraceId: "A[token][token]" });
    const said = [everythingIn(failure), JSON.stringify(failure.toView()), JSON.stringify(health), JSON.stringify(client.warnings)].join("\n");
    expect(client.warnings.length).toBeGreaterThan(0);
    expect(said).not.toContain(token);
    expect(said).not.toContain(authSecret);
  });

  test("a wrong token is an auth error, and the token is in no field of it", async () => {
    const fake = await fakeGraph();
    const client = clientFor(fake, { pageToken: "EAAGwrongTokenValue0123456789" });
    const failure = await failureOf(client.publishPost({ message: "Hello", link: STORY }));
    expect(failure).toMatchObject({ kind: "auth", code: 190 });
    expect(everythingIn(failure)).not.toContain("EAAGwrongTokenValue0123456789");
    expect(fake.requests[0]).toMatchObject({ tokenOk: false });
  });

  test("an answer that is not JSON from something in front of Facebook is transient", async () => {
    const fake = await fakeGraph();
    fake.answerOnce("feed", { kind: "raw", status: 502, body: "<html><body>Bad gateway</body></html>" });
    const failure = await failureOf(clientFor(fake).publishPost({ message: "Hello", link: STORY }));
    expect(failure).toMatchObject({ kind: "transient", retryable: true, httpStatus: 502, code: null });
  });
});

describe("an outcome that is not known", () => {
  test("no answer within the time limit is uncertain: the post may have been made", async () => {
    const fake = await fakeGraph();
    fake.answerOnce("feed", { kind: "hang" });
    const client = clientFor(fake, { timeoutMs: 300 });
    const started = Date.now();

    const failure = await failureOf(client.publishPost({ message: "Hello", link: STORY }));

    expect(Date.now() - started).toBeLessThan(2_000);
    expect(failure).toMatchObject({ kind: "uncertain", retryable: true, code: null });
    expect(failure.editorMessage).toMatch(/may have been made/);
    expect(await client.findRecentPostWithLink(STORY)).toBeNull();
  });

  test("a success arriving after the time limit is uncertain, and the post is then found among the Page's recent posts", async () => {
    const fake = await fakeGraph();
    fake.addPost({ message: "An older story", link: "https://oddwire.example/story/older" });
    fake.answerOnce("feed", { kind: "success", delayMs: 1_500 });
    const client = clientFor(fake, { timeoutMs: 300 });

    const failure = await failureOf(client.publishPost({ message: "Hello", link: STORY }));
    expect(failure.kind).toBe("uncertain");

    const found = await client.findRecentPostWithLink(`${STORY}/`, { limit: 10 });
    const made = fake.posts.find((post) => post.link === STORY)!;
    expect(found).toEqual({ postId: made.id, permalinkUrl: made.permalinkUrl, createdTime: made.createdTime, message: "Hello" });
    expect(fake.requests.at(-1)).toMatchObject({
      method: "GET",
      path: `/${fake.pageId}/posts`,
      query: { fields: "id,permalink_url,created_time,message,attachments{url,unshimmed_url}", limit: "10" },
    });
  });

  test("a connection dropped after the request went out is uncertain", async () => {
    const fake = await fakeGraph();
    fake.answerOnce("feed", { kind: "reset", afterRecording: true });
    const failure = await failureOf(clientFor(fake).publishPost({ message: "Hello", link: STORY }));
    expect(failure.kind).toBe("uncertain");
    expect(await clientFor(fake).findRecentPostWithLink(STORY)).toMatchObject({ postId: fake.posts[0]!.id });
  });

  test("a refused connection is transient: nothing can have been posted", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const client = createGraphClient({ baseUrl: `http://127.0.0.1:${port}/v21.0`, pageId: "1", pageToken: "EAAGsecretTokenValue0123456789" });
    clients.push(client);

    const failure = await failureOf(client.publishPost({ message: "Hello", link: STORY }));

    expect(failure).toMatchObject({ kind: "transient", retryable: true });
    expect(failure.editorMessage).toBe("Facebook could not be reached; the post will be retried.");
    expect(failure.message).toContain("ECONNREFUSED");
    expect(everythingIn(failure)).not.toContain("EAAGsecretTokenValue0123456789");
  });

  test("an answer past the 1 MiB cap is refused: uncertain after a post, transient after a read", async () => {
    const fake = await fakeGraph();
    const huge = JSON.stringify({ id: "1_2", padding: "x".repeat(1024 * 1024) });
    fake.answerOnce("feed", { kind: "raw", status: 200, body: huge, headers: { "content-type": "application/json" } });
    fake.answerOnce("posts", { kind: "raw", status: 200, body: huge, headers: { "content-type": "application/json" } });
    const client = clientFor(fake);
    expect((await failureOf(client.publishPost({ message: "Hello", link: STORY }))).kind).toBe("uncertain");
    expect((await failureOf(client.findRecentPostWithLink(STORY))).kind).toBe("transient");
  });

  test("a slow read is transient, not uncertain: reading changes nothing", async () => {
    const fake = await fakeGraph();
    fake.answerOnce("posts", { kind: "hang" });
    const failure = await failureOf(clientFor(fake, { timeoutMs: 300 }).findRecentPostWithLink(STORY));
    expect(failure).toMatchObject({ kind: "transient", retryable: true });
  });
});

describe("finding a post by its link", () => {
  test.each([
    ["http://oddwire.example/story/cat-elected-mayor"],
    ["https://oddwire.example/story/cat-elected-mayor/"],
    ["https://www.oddwire.example/story/cat-elected-mayor#comments"],
  ])("%s is the same link", (variant) => {
    expect(sameLink(variant, STORY)).toBe(true);
  });

  test("query order does not matter, other paths and values do", () => {
    expect(sameLink("https://a.example/s?b=2&a=1", "https://a.example/s?a=1&b=2")).toBe(true);
    expect(sameLink("https://a.example/s?a=1", "https://a.example/s?a=2")).toBe(false);
    expect(sameLink(`${STORY}-2`, STORY)).toBe(false);
    expect(sameLink("not a url", STORY)).toBe(false);
  });

  test("finds the newest post linking to the story, through Facebook's link shim", async () => {
    const fake = await fakeGraph();
    fake.addPost({ message: "First time", link: "http://oddwire.example/story/cat-elected-mayor/" });
    fake.addPost({ message: "Something else", link: "https://oddwire.example/story/other" });
    const client = clientFor(fake);
    expect(await client.findRecentPostWithLink(STORY)).toMatchObject({ postId: fake.posts[0]!.id, message: "First time" });
    expect(await client.findRecentPostWithLink("https://oddwire.example/story/never-posted")).toBeNull();
  });

  test("a link written in the message counts too", async () => {
    const fake = await fakeGraph();
    fake.addPost({ message: `Read more: ${STORY}.` });
    expect(await clientFor(fake).findRecentPostWithLink(STORY)).toMatchObject({ postId: fake.posts[0]!.id });
  });

  test("only the most recent posts are looked at", async () => {
    const fake = await fakeGraph();
    fake.addPost({ message: "Old", link: STORY });
    for (let i = 0; i < 3; i += 1) fake.addPost({ message: `Newer ${i}`, link: `https://oddwire.example/story/${i}` });
    const client = clientFor(fake);
    expect(await client.findRecentPostWithLink(STORY, { limit: 3 })).toBeNull();
    expect(await client.findRecentPostWithLink(STORY, { limit: 4 })).not.toBeNull();
  });
});

describe("re-scraping a story's card", () => {
  test("asks Facebook to scrape the URL again", async () => {
    const fake = await fakeGraph();
    expect(await clientFor(fake).rescrape(STORY)).toEqual({ ok: true });
    expect(fake.scrapes).toEqual([STORY]);
    expect(fake.requests[0]).toMatchObject({ method: "POST", path: "/", body: { id: STORY, scrape: "true" }, tokenOk: true });
  });

  test("a failure is returned, not thrown, so posting can go on", async () => {
    const fake = await fakeGraph();
    fake.answerOnce("scrape", { kind: "error", error: graphErrors.rateLimited(4) });
    const result = await clientFor(fake).rescrape(STORY);
    expect(result).toEqual({ ok: false, error: expect.objectContaining({ kind: "rate-limited", code: 4 }) });
  });

  test("no answer in time is a failure too", async () => {
    const fake = await fakeGraph();
    fake.answerOnce("scrape", { kind: "hang" });
    const result = await clientFor(fake, { timeoutMs: 300 }).rescrape(STORY);
    expect(result).toEqual({ ok: false, error: expect.objectContaining({ kind: "transient" }) });
  });
});

describe("checking the connection", () => {
  test("a healthy connection shows the Page, a working token, its permissions and its expiry", async () => {
    const expiresAt = Math.floor(Date.parse("2030-01-02T03:04:05Z") / 1000);
    const fake = await fakeGraph({ pageName: "Oddwire", tokenExpiresAt: expiresAt });
    const health = await clientFor(fake).checkConnection();
    expect(health).toEqual({
      page: { id: fake.pageId, name: "Oddwire", link: "https://www.facebook.com/oddwire" },
      tokenValid: true,
      permissions: ["pages_show_list", "pages_read_engagement", "pages_manage_posts"],
      missingPermissions: [],
      expiresAt: "2030-01-02T03:04:05.000Z",
      neverExpires: false,
      dataAccessExpiresAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      tokenCheck: "debug_token",
      error: null,
    });
    const debug = fake.requests.find((r) => r.endpoint === "debug_token")!;
    expect(debug.query.input_token).toBe("[token]");
  });

  test("a token that never expires says so", async () => {
    const fake = await fakeGraph({ tokenExpiresAt: 0 });
    expect(await clientFor(fake).checkConnection()).toMatchObject({ expiresAt: null, neverExpires: true });
  });

  test("an expired token: not valid, with the reconnect reason", async () => {
    const fake = await fakeGraph();
    fake.answerAlways("*", { kind: "error", error: graphErrors.expiredToken() });
    const health = await clientFor(fake).checkConnection();
    expect(health).toMatchObject({
      page: null,
      tokenValid: false,
      permissions: null,
      missingPermissions: [],
      error: { kind: "auth", code: 190, subcode: 463, message: "The Facebook token has expired. Reconnect the Page: renew FACEBOOK_PAGE_TOKEN." },
    });
  });

  test("a token debug_token calls invalid is not valid, with its reason", async () => {
    const fake = await fakeGraph();
    const data = { is_valid: false, scopes: [], error: { code: 190, subcode: 460, message: "The session has been invalidated." } };
    fake.answerOnce("debug_token", { kind: "raw", status: 200, body: JSON.stringify({ data }), headers: { "content-type": "application/json" } });
    const health = await clientFor(fake).checkConnection();
    expect(health).toMatchObject({ tokenValid: false, permissions: null, missingPermissions: [], error: { kind: "auth", code: 190, subcode: 460 } });
  });

  const raw = (body: unknown) => ({ kind: "raw", status: 200, body: JSON.stringify(body), headers: { "content-type": "application/json" } }) as const;

  test.each([
    { case: "wants an app token", options: { debugToken: "app-token-required" } as const, answer: null },
    { case: "answers with no data", options: {}, answer: { data: {} } },
    { case: "answers with nothing", options: {}, answer: {} },
    { case: "answers with an empty list", options: {}, answer: { data: [] } },
  ])("when debug_token $case, it is no verdict (not code 190, no missing permission): me/permissions is read instead, the expiry unknown", async ({ options, answer }) => {
    const fake = await fakeGraph(options);
    if (answer) fake.answerOnce("debug_token", raw(answer));
    const client = clientFor(fake);
    const health = await client.checkConnection();
    expect(health).toMatchObject({
      tokenValid: true,
      permissions: ["pages_show_list", "pages_read_engagement", "pages_manage_posts"],
      missingPermissions: [],
      expiresAt: null,
      neverExpires: false,
      tokenCheck: "permissions",
      error: null,
    });
    expect(fake.requests.map((r) => r.endpoint)).toEqual(["page", "debug_token", "permissions"]);
    expect(client.warnings.map((w) => w.message)).toEqual(["debug_token gave no details of the Page token: reading me/permissions instead"]);
  });

  test("when neither debug_token nor me/permissions gives details, the permissions are unknown, not missing", async () => {
    const fake = await fakeGraph();
    fake.answerOnce("debug_token", raw({ data: {} }));
    fake.answerOnce("permissions", raw({ data: [] }));
    const health = await clientFor(fake).checkConnection();
    expect(health).toMatchObject({ page: { id: fake.pageId }, tokenValid: true, permissions: null, missingPermissions: [], tokenCheck: "none", error: null });
  });

  test("when nothing answers with the token, whether it works is unknown, and no refusal is invented", async () => {
    const fake = await fakeGraph();
    fake.answerAlways("*", { kind: "error", error: graphErrors.serviceUnavailable() });
    const health = await clientFor(fake).checkConnection();
    expect(health).toMatchObject({ page: null, tokenValid: null, permissions: null, missingPermissions: [], error: { kind: "transient", code: 2 } });
  });

  test("debug_token calling a token invalid without a code says Facebook refuses it, not that it expired", async () => {
    const fake = await fakeGraph();
    fake.answerOnce("debug_token", raw({ data: { is_valid: false, scopes: [] } }));
    const health = await clientFor(fake).checkConnection();
    expect(health).toMatchObject({ tokenValid: false, error: { kind: "auth", code: null, message: "Facebook no longer accepts the token. Reconnect the Page: renew FACEBOOK_PAGE_TOKEN." } });
  });

  test("a missing permission is named", async () => {
    const fake = await fakeGraph({ permissions: ["pages_show_list", "pages_read_engagement"] });
    const health = await clientFor(fake).checkConnection();
    expect(health).toMatchObject({
      tokenValid: true,
      permissions: ["pages_show_list", "pages_read_engagement"],
      missingPermissions: ["pages_manage_posts"],
      error: { kind: "permission", message: "Facebook refused: the token lacks the permission pages_manage_posts." },
    });
  });

  test("a Page the token cannot read is reported with Facebook's reason", async () => {
    const fake = await fakeGraph();
    fake.answerOnce("page", { kind: "error", error: graphErrors.permissionDenied() });
    const health = await clientFor(fake).checkConnection();
    expect(health).toMatchObject({ page: null, tokenValid: true, error: { kind: "permission", code: 10 } });
  });

  test("nothing in the report holds the token", async () => {
    const fake = await fakeGraph({ debugToken: "app-token-required" });
    fake.answerAlways("*", { kind: "error", error: { message: `Malformed access token ${fake.pageToken}`, type: "OAuthException", code: 190 } });
    const client = clientFor(fake);
    const health = await client.checkConnection();
    expect(JSON.stringify(health)).not.toContain(fake.pageToken);
    expect(JSON.stringify(client.warnings)).not.toContain(fake.pageToken);
  });
});

test("GraphError is exported for callers that build one", () => {
  expect(new GraphError({ kind: "transient", editorMessage: "x" }).retryable).toBe(true);
});
