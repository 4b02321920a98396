import type { AppLoadContext } from "react-router";
import { afterAll, beforeAll, expect, test } from "vitest";
import { FeedParseTimeoutError, type ParseFeedInput } from "~/domain/ingestion/feed/parse-feed";
import { testHttpClient } from "~/integrations/http/testing";
import { rssFeed, startTestServer, type TestServer } from "~/test/http-test-server";
import { routeArgs, routeContext } from "~/test/route-context";
import { action } from "./api.validate-feed";

// The RSS Validator parses through the load context's parser, which on the server is the worker
// pool with its time limit: a parse that runs too long reaches the editor as PARSE_TIMEOUT.

const SITE = "https://oddwire.test";
const http = testHttpClient();
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
  server.handle("/feed.xml", (_req, res) => res.writeHead(200, { "content-type": "application/rss+xml" }).end(rssFeed([{ title: "One", link: "https://odd.example/1" }])));
});
afterAll(async () => {
  await http.close();
  await server.close();
});

function contextWith(parseFeed: (input: ParseFeedInput) => Promise<never>): AppLoadContext {
  return routeContext({
    getSessionUser: async () => ({ id: "boss", email: "boss@oddwire.test", name: "Boss", emailVerified: true }),
    repos: {
      users: {
        findById: async (id) => ({ id, name: "Boss", email: "boss@oddwire.test", emailVerified: true, image: null, isAdmin: true, createdAt: new Date(0), updatedAt: new Date(0) }),
      },
    },
    config: { siteUrl: SITE, contactEmail: "tips@oddwire.test", socialUrl: "" },
    logger: { warn: () => {}, error: () => {} },
    http,
    parseFeed,
  });
}

test("the validator parses through the context's time-limited parser and reports a cut-off parse as PARSE_TIMEOUT", async () => {
  const parsed: string[] = [];
  const context = contextWith(async (input) => {
    parsed.push(String(input.url));
    throw new FeedParseTimeoutError(15_000);
  });
  const request = new Request(`${SITE}/admin/api/validate-feed`, {
    method: "POST",
    headers: { origin: SITE, "content-type": "application/json" },
    body: JSON.stringify({ rssUrl: `${server.url}/feed.xml` }),
  });
  const response = await action(routeArgs(request, context, {}));
  expect(response.status).toBe(200);
  expect(await response.json()).toMatchObject({ ok: false, code: "PARSE_TIMEOUT" });
  expect(parsed).toEqual([`${server.url}/feed.xml`]);
});
