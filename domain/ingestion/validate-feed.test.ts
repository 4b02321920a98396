import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { testHttpClient } from "~/integrations/http/testing";
import type { HttpClient } from "~/integrations/http/types";
import { rssFeed, startTestServer, type TestServer } from "~/test/http-test-server";
import { validateFeed } from "./validate-feed";

let server: TestServer;
let http: HttpClient;
beforeAll(async () => {
  server = await startTestServer();
  http = testHttpClient();
  const items = Array.from({ length: 8 }, (_, i) => ({ title: `Item ${i}`, link: `https://odd.example/${i}`, pubDate: `Sun, 0${i + 1} Mar 2026 10:00:00 GMT` }));
  server.handle("/feed.xml", (_req, res) => res.writeHead(200, { "content-type": "application/rss+xml; charset=utf-8" }).end(rssFeed(items, "Odd Feed")));
  server.handle("/page", (_req, res) => res.writeHead(200, { "content-type": "text/html" }).end("<html><body>Hello</body></html>"));
  server.handle("/gone", (_req, res) => res.writeHead(410).end());
  server.handle("/to-localhost", (_req, res) => res.writeHead(302, { location: `${server.localhostUrl}/feed.xml` }).end());
  for (const [name, target] of [["private", "http://10.0.0.1/feed.xml"], ["metadata", "http://169.254.169.254/latest/meta-data/"], ["ipv6-loopback", "http://[::1]/feed.xml"]]) {
    server.handle(`/to-${name}`, (_req, res) => res.writeHead(301, { location: target }).end());
  }
});
afterAll(async () => {
  await http.close();
  await server.close();
});

describe("RSS validation", () => {
  test("a good feed reports its type, title, item count, size and at most five samples", async () => {
    const result = await validateFeed({ http }, `  ${server.url}/feed.xml  `);
    expect(result).toMatchObject({
      ok: true,
      type: "RSS 2.0",
      code: null,
      error: null,
      meta: { contentType: "application/rss+xml; charset=utf-8" },
      info: { title: "Odd Feed", description: "Tests", itemsCount: 8, lastUpdated: "2026-03-08T10:00:00.000Z" },
    });
    expect(result.meta.bytes).toBeGreaterThan(500);
    expect(result.sample).toHaveLength(5);
    expect(result.sample[0]).toEqual({ title: "Item 0", link: "https://odd.example/0", pubDate: "2026-03-01T10:00:00.000Z" });
  });

  test.each([
    ["a web page", "/page", "NOT_A_FEED", "The URL returned a web page, not a feed"],
    ["an HTTP error", "/gone", "HTTP_ERROR", "The server answered HTTP 410"],
  ])("%s is not a valid feed", async (_name, path, code, error) => {
    const result = await validateFeed({ http }, `${server.url}${path}`);
    expect(result).toMatchObject({ ok: false, code, error, info: { itemsCount: 0 }, sample: [] });
  });

  test.each([
    ["localhost", () => `${server.localhostUrl}/feed.xml`],
    ["127.0.0.1 through a redirect to localhost", () => `${server.url}/to-localhost`],
    ["10.0.0.1", () => "http://10.0.0.1/feed.xml"],
    ["169.254.169.254", () => "http://169.254.169.254/"],
    ["[::1]", () => "http://[::1]/feed.xml"],
    ["a redirect to 10.0.0.1", () => `${server.url}/to-private`],
    ["a redirect to 169.254.169.254", () => `${server.url}/to-metadata`],
    ["a redirect to [::1]", () => `${server.url}/to-ipv6-loopback`],
  ])("a feed at %s is refused by the guard", async (_name, url) => {
    const before = server.hits.filter((h) => h === "/feed.xml").length;
    const result = await validateFeed({ http }, url());
    expect(result).toMatchObject({ ok: false, code: "BLOCKED_ADDRESS" });
    expect(server.hits.filter((h) => h === "/feed.xml").length).toBe(before);
  });

  test("127.0.0.1 itself is refused by a client that does not allow it", async () => {
    const strict = testHttpClient({ allowHosts: [] });
    try {
      expect(await validateFeed({ http: strict }, `${server.url}/feed.xml`)).toMatchObject({ ok: false, code: "BLOCKED_ADDRESS" });
    } finally {
      await strict.close();
    }
  });

  test("an empty or non-http URL says what is wrong", async () => {
    expect(await validateFeed({ http }, "   ")).toMatchObject({ ok: false, code: "INVALID_URL" });
    expect(await validateFeed({ http }, "ftp://odd.example/feed")).toMatchObject({ ok: false, code: "UNSUPPORTED_SCHEME" });
  });
});
