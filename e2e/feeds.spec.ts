import { expect, test } from "@playwright/test";
import { FEATURED, PENDING, PUBLISHED, REJECTED_TITLE } from "./fixtures";

// Machine outputs over real HTTP: the right types, cache headers, and never an unpublished story.
const OUTPUTS = [
  ["/rss.xml", "application/rss+xml"],
  ["/category/animals/rss.xml", "application/rss+xml"],
  ["/sitemap.xml", "application/xml"],
  ["/sitemaps/pages.xml", "application/xml"],
  ["/sitemaps/stories/1.xml", "application/xml"],
  ["/sitemaps/news.xml", "application/xml"],
  ["/robots.txt", "text/plain"],
] as const;

for (const [path, type] of OUTPUTS) {
  test(`${path} is served as ${type} with caching headers and no unpublished story`, async ({ request }) => {
    const response = await request.get(path);
    expect(response.status()).toBe(200);
    expect(response.headers()["content-type"]).toContain(type);
    expect(response.headers()["cache-control"]).toMatch(/public/);
    expect(response.headers()["etag"]).toBeTruthy();
    const body = await response.text();
    for (const story of PENDING) {
      expect(body).not.toContain(story.slug);
      expect(body).not.toContain(story.title);
    }
    expect(body).not.toContain(REJECTED_TITLE);
  });
}

test("the site feed and the story sitemap list every published story", async ({ request }) => {
  const rss = await (await request.get("/rss.xml")).text();
  const sitemap = await (await request.get("/sitemaps/stories/1.xml")).text();
  for (const story of [FEATURED, ...PUBLISHED]) {
    expect(rss).toContain(`/story/${story.slug}</link>`);
    expect(sitemap).toContain(`/story/${story.slug}</loc>`);
  }
});

test("robots.txt points at the sitemap, and unknown feeds are 404", async ({ request, baseURL }) => {
  expect(await (await request.get("/robots.txt")).text()).toContain(`Sitemap: ${baseURL}/sitemap.xml`);
  expect((await request.get("/category/no-such-thing/rss.xml")).status()).toBe(404);
  expect((await request.get("/sitemaps/stories/9.xml")).status()).toBe(404);
  // Past the largest story id a page cannot hold a story: 404, not a failed query.
  expect((await request.get("/sitemaps/stories/999999999.xml")).status()).toBe(404);
});

test("a page fetched again with its ETag is answered 304", async ({ request }) => {
  const first = await request.get("/");
  const etag = first.headers()["etag"]!;
  const again = await request.get("/", { headers: { "if-none-match": etag } });
  expect(again.status()).toBe(304);
});
