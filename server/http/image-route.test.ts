import { rmSync } from "node:fs";
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { stories } from "~/db/schema";
import { makeCategory, makeStory } from "~/db/testing/factories";
import { testDatabaseForFile } from "~/db/testing/test-database";
import { testHttpClient } from "~/integrations/http/testing";
import type { HttpClient } from "~/integrations/http/types";
import { imageSize } from "image-size";
import { recordMeasuredImageSize } from "~/domain/images/image-size";
import { getStoryCard, getStoryPage } from "~/domain/public/public-site";
import { createImageStore, type ImageStore } from "~/integrations/images/image-store";
import { LOGO_SVG, photoJpeg } from "~/integrations/images/testing";
import { createShareCards } from "~/integrations/share-card/share-card";
import { imageUrlHash, storyCardPath, storyImagePath, storySocialImage } from "~/lib/story-image";
import { serveFixtures, type FixtureServer } from "~/test/fixture-server";
import { chooseFormat, createImageRoute, siteImageReader, type ImageRoute } from "./image-route";
import { pathOf, sendBody } from "./node-handler";
import { createOwnRoutes } from "./own-routes";
import { tempDir } from "~/test/temp-dir";

const PUBLIC_DIR = path.resolve("public");
const SITE_URL = "https://oddwire.test";
// One renderer for the file: a card is the same picture whichever test asks for it.
const cards = createShareCards({ logoSvg: LOGO_SVG });

const t = testDatabaseForFile();
const MAX_ORIGINAL_BYTES = 1_000_000;
const AVIF_FIRST = "image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8";

let site: FixtureServer;
let http: HttpClient;
let server: Server;
let base: string;
let dir: string;
let clock = 1_000_000;
let store: ImageStore;

beforeAll(async () => {
  const photo = await photoJpeg(2000, 1333);
  site = await serveFixtures({
    routes: {
      "/photo.jpg": { body: photo, headers: { "content-type": "image/jpeg" } },
      "/other.jpg": { body: await photoJpeg(1000, 700, 3), headers: { "content-type": "image/jpeg" } },
      "/small.jpg": { body: await photoJpeg(500, 300, 5), headers: { "content-type": "image/jpeg" } },
      "/page.html": { body: "<!doctype html><p>Not a picture</p>", headers: { "content-type": "text/html" } },
      // A real picture, padded past the store's 1 MB cap for originals.
      "/huge.jpg": { body: Buffer.concat([photo, Buffer.alloc(MAX_ORIGINAL_BYTES)]), headers: { "content-type": "image/jpeg" } },
    },
  });
  http = testHttpClient();
});
afterAll(async () => {
  await http.close();
  await site.close();
});

beforeEach(async () => {
  dir = tempDir("oddwire-image-route-");
  store = createImageStore({
    dir,
    maxBytes: 100 * 1024 * 1024,
    http,
    logoSvg: LOGO_SVG,
    maxOriginalBytes: MAX_ORIGINAL_BYTES,
    now: () => clock,
    readSiteImage: siteImageReader(PUBLIC_DIR),
    // As server/http/web.ts wires it.
    onOriginalSize: (measured) => void recordMeasuredImageSize({ repos: t.repos }, measured),
  });
  ({ server, base } = await serveRoute(
    createImageRoute({
      store,
      findImage: (id) => t.repos.publicStories.imageOf(id),
      cards,
      findCard: (id) => getStoryCard(t.repos, id),
      siteUrl: SITE_URL,
      now: () => clock,
    }),
  ));
});
afterEach(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

/**
 * A server that routes as server/http/web.ts does, through the table of the server's own addresses:
 * what the table does not give the image route gets what the site would answer after it (the page
 * 404), and a rejection is a 500. `before` runs first, as the handlers before the route do (security
 * headers).
 */
async function serveRoute(route: ImageRoute, before?: (res: ServerResponse) => void): Promise<{ server: Server; base: string }> {
  const own = createOwnRoutes({ image: route });
  const server = createServer((req, res) => {
    before?.(res);
    own(req, res, pathOf(req)).then(
      (answered) => {
        if (!answered) sendBody(req, res, 404, "the site's 404 page", { "Content-Type": "text/plain; charset=utf-8" });
      },
      (error: unknown) => sendBody(req, res, 500, `failed: ${String(error)}`, { "Content-Type": "text/plain; charset=utf-8" }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

const get = (pathname: string, headers: Record<string, string> = {}) => fetch(`${base}${pathname}`, { headers, redirect: "manual" });
const pictureOf = async (response: Response) => sharp(Buffer.from(await response.arrayBuffer())).metadata();

async function storyWithImage(imageUrl: string | null, status: "published" | "pending" = "published") {
  const story = await makeStory(t.db, { imageUrl, status });
  return { story, path: (width: 320 | 480 | 672 | 800 | 1200 = 800, jpeg = false) => storyImagePath({ id: story.id, imageUrl: imageUrl ?? "" }, width, { jpeg }) };
}

describe("a published story's picture", () => {
  test.each([
    [AVIF_FIRST, "image/avif", "heif"],
    ["image/webp,*/*", "image/webp", "webp"],
    ["image/*,*/*;q=0.8", "image/jpeg", "jpeg"],
    ["", "image/jpeg", "jpeg"],
  ])("is served in the format the Accept header %j allows (%s)", async (accept, type, format) => {
    const { path: imagePath } = await storyWithImage(`${site.url}/photo.jpg`);
    const response = await get(imagePath(480), accept ? { accept } : {});
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe(type);
    expect(response.headers.get("vary")).toBe("Accept");
    expect(await pictureOf(response)).toMatchObject({ format, width: 480, height: 270 });
  });

  test.each([
    [320, 180],
    [480, 270],
    [672, 378],
    [800, 450],
    [1200, 675],
  ] as const)("is %i x %i at that width", async (width, height) => {
    const { path: imagePath } = await storyWithImage(`${site.url}/photo.jpg`);
    expect(await pictureOf(await get(imagePath(width), { accept: "image/webp" }))).toMatchObject({ width, height });
  });

  test("is cached for a year as immutable, with an ETag answered by 304", async () => {
    const { path: imagePath } = await storyWithImage(`${site.url}/photo.jpg`);
    const first = await get(imagePath(800), { accept: "image/webp" });
    expect(first.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(first.headers.get("x-content-type-options")).toBe("nosniff");
    const etag = first.headers.get("etag");
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await get(imagePath(800), { accept: "image/webp", "if-none-match": etag! });
    expect(again.status).toBe(304);
    expect((await again.arrayBuffer()).byteLength).toBe(0);
  });

  test("has a JPEG address for social networks and feed readers, whatever they accept", async () => {
    const { path: imagePath } = await storyWithImage(`${site.url}/photo.jpg`);
    const response = await get(imagePath(1200, true), { accept: AVIF_FIRST });
    expect(response.headers.get("content-type")).toBe("image/jpeg");
    expect(response.headers.get("vary")).toBeNull();
    expect(await pictureOf(response)).toMatchObject({ format: "jpeg", width: 1200, height: 675 });
  });

  test("answers HEAD with the headers only", async () => {
    const { path: imagePath } = await storyWithImage(`${site.url}/photo.jpg`);
    const response = await fetch(`${base}${imagePath(320)}`, { method: "HEAD", headers: { accept: "image/webp" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/webp");
    expect((await response.arrayBuffer()).byteLength).toBe(0);
    // The length and ETag GET would have.
    const full = await get(imagePath(320), { accept: "image/webp" });
    const bytes = (await full.arrayBuffer()).byteLength;
    expect(bytes).toBeGreaterThan(0);
    expect(response.headers.get("content-length")).toBe(String(bytes));
    expect(full.headers.get("content-length")).toBe(String(bytes));
    expect(response.headers.get("etag")).toBe(full.headers.get("etag"));
    expect(response.headers.get("vary")).toBe("Accept");
  });
});

describe("a picture's size, measured the first time it is served", () => {
  test("is kept on the story, and a picture under 600 px wide is then shared as the story's card", async () => {
    const category = await makeCategory(t.db, { name: "Animals" });
    const small = await makeStory(t.db, { imageUrl: `${site.url}/small.jpg`, categoryId: category.id });
    const large = await makeStory(t.db, { imageUrl: `${site.url}/photo.jpg`, categoryId: category.id });
    expect(await get(storyImagePath({ id: small.id, imageUrl: small.imageUrl! }, 480))).toHaveProperty("status", 200);
    expect(await get(storyImagePath({ id: large.id, imageUrl: large.imageUrl! }, 480))).toHaveProperty("status", 200);
    await expect.poll(() => t.repos.images.imageOf(small.id)).toMatchObject({ width: 500, height: 300 });
    await expect.poll(() => t.repos.images.imageOf(large.id)).toMatchObject({ width: 2000, height: 1333 });

    const shared = async (slug: string) => {
      const page = (await getStoryPage(t.repos, slug))!;
      return storySocialImage({ ...page.story, imageWidth: page.imageWidth }, SITE_URL);
    };
    expect(await shared(small.slug)).toMatchObject({ card: true, width: 1200, height: 630 });
    expect(await shared(large.slug)).toMatchObject({ card: false, url: `${SITE_URL}${storyImagePath({ id: large.id, imageUrl: large.imageUrl! }, 1200, { jpeg: true })}` });
  });

  test("measured for a picture the story no longer has is not kept", async () => {
    const story = await makeStory(t.db, { imageUrl: `${site.url}/small.jpg` });
    expect(await recordMeasuredImageSize({ repos: t.repos }, { storyId: story.id, url: `${site.url}/other.jpg`, width: 300, height: 200 })).toBe(false);
    expect(await recordMeasuredImageSize({ repos: t.repos }, { url: `${site.url}/small.jpg`, width: 300, height: 200 })).toBe(false);
    expect(await t.repos.images.imageOf(story.id)).toMatchObject({ width: null, height: null });
    expect(await recordMeasuredImageSize({ repos: t.repos }, { storyId: story.id, url: `${site.url}/small.jpg`, width: 500, height: 300 })).toBe(true);
    // The same size again writes nothing.
    expect(await recordMeasuredImageSize({ repos: t.repos }, { storyId: story.id, url: `${site.url}/small.jpg`, width: 500, height: 300 })).toBe(false);
  });
});

describe("a picture that cannot be had is the product logo, cached briefly", () => {
  test.each([
    ["a missing original", "/missing.jpg"],
    ["not an image", "/page.html"],
    ["an oversized original", "/huge.jpg"],
  ])("%s", async (_label, pathname) => {
    const { path: imagePath } = await storyWithImage(`${site.url}${pathname}`);
    const response = await get(imagePath(800), { accept: "image/webp" });
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("public, max-age=300");
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(await sharp(bytes).metadata()).toMatchObject({ format: "webp", width: 800, height: 450 });
    // The logo's placeholder, byte for byte.
    store = createImageStore({ dir, maxBytes: 1 << 20, http, logoSvg: LOGO_SVG });
    expect(bytes.equals((await store.placeholder({ width: 800, height: 450, format: "webp" })).bytes)).toBe(true);
  });
});

describe("the route is not an open proxy", () => {
  test.each([
    ["a URL in the query", () => `/img?url=${encodeURIComponent(`${site.url}/photo.jpg`)}`],
    ["a URL in the path", () => `/img/${encodeURIComponent(`${site.url}/photo.jpg`)}/00000000/800`],
    ["a story id that is not a number", () => "/img/abc/00000000/800"],
    ["a story id past the database's integers", () => "/img/99999999999/00000000/800"],
    ["a width not in the set", () => "/img/1/00000000/801"],
    ["a width written with a leading zero", () => "/img/1/00000000/0800"],
    ["a hash that is not 8 hex digits", () => "/img/1/zzzz/800"],
    ["another format than JPEG by name", () => "/img/1/00000000/800.png"],
  ])("refuses %s", async (_label, url) => {
    await storyWithImage(`${site.url}/photo.jpg`);
    const before = site.requests.length;
    const response = await get(url());
    expect(response.status).toBe(404);
    expect(site.requests.length).toBe(before);
  });

  test("serves nothing of a story that is not published, one that does not exist, or one without a picture", async () => {
    const pending = await storyWithImage(`${site.url}/other.jpg`, "pending");
    const none = await storyWithImage(null);
    const before = site.requests.length;
    expect((await get(pending.path(800))).status).toBe(404);
    expect((await get(`/img/${none.story.id}/${imageUrlHash("x")}/800`)).status).toBe(404);
    expect((await get(`/img/987654/${imageUrlHash(`${site.url}/other.jpg`)}/800`)).status).toBe(404);
    expect(site.requests.length).toBe(before);
  });

  test("sends a request whose hash is not the story's picture to the picture it has now", async () => {
    const { story, path: imagePath } = await storyWithImage(`${site.url}/photo.jpg`);
    const response = await get(`/img/${story.id}/${imageUrlHash(`${site.url}/other.jpg`)}/480`);
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(imagePath(480));
    expect(response.headers.get("cache-control")).toBe("public, max-age=60");
  });

  test("moves the address when the picture changes, and never serves the old picture under the new one", async () => {
    const { story, path: oldPath } = await storyWithImage(`${site.url}/photo.jpg`);
    expect((await get(oldPath(320))).status).toBe(200);
    const newUrl = `${site.url}/other.jpg`;
    await t.db.update(stories).set({ imageUrl: newUrl }).where(eq(stories.id, story.id));
    clock += 10_000;
    const stale = await get(oldPath(320));
    expect(stale.status).toBe(302);
    const newPath = storyImagePath({ id: story.id, imageUrl: newUrl }, 320);
    expect(stale.headers.get("location")).toBe(newPath);
    const fresh = await get(newPath, { accept: "image/webp" });
    expect(await pictureOf(fresh)).toMatchObject({ width: 320, height: 180 });
  });

});

describe("what is not the route's goes on to the site", () => {
  test.each(["POST", "PUT", "DELETE", "OPTIONS"])("%s of a picture's address", async (method) => {
    const { path: imagePath } = await storyWithImage(`${site.url}/photo.jpg`);
    const before = site.requests.length;
    const response = await fetch(`${base}${imagePath(800)}`, { method, redirect: "manual" });
    expect(response.status).toBe(404);
    expect(await response.text()).toBe("the site's 404 page");
    expect(site.requests.length).toBe(before);
  });

  test.each([
    ["/img"],
    ["/img/"],
    ["/img/1"],
    ["/img/1/"],
    ["/img//00000000/800"],
    ["/img/1/00000000/800/extra"],
    ["/img/1/00000000/800//"],
    ["/imgx/1/abcdef01/400"],
    ["/images/1/card-00000000.png"],
    ["/x/img/1/00000000/800"],
  ])("a path of another shape: %s", async (pathname) => {
    const response = await get(pathname);
    expect(response.status).toBe(404);
    expect(await response.text()).toBe("the site's 404 page");
  });

  test("but a path of the route's shape is the route's, even when it names nothing", async () => {
    for (const pathname of ["/img/1/2", "/img/1/2/3", "/img/abc/card-00000000.png?x=1"]) {
      const response = await get(pathname);
      expect(response.status).toBe(404);
      expect(response.headers.get("cache-control")).toBe("public, max-age=60");
      expect(response.headers.get("content-type")).toBe("text/plain; charset=utf-8");
      expect(await response.text()).toBe("Not found");
    }
  });
});

describe("the route's paths in the forms published addresses may take", () => {
  test("a trailing slash, \"img\" in capitals and escaped digits", async () => {
    const { story, path: imagePath } = await storyWithImage(`${site.url}/photo.jpg`);
    const escapedId = [...String(story.id)].map((digit) => `%3${digit}`).join("");
    for (const pathname of [`${imagePath(320)}/`, imagePath(320).replace("/img/", "/IMG/"), imagePath(320).replace(`/${story.id}/`, `/${escapedId}/`)]) {
      const response = await get(pathname, { accept: "image/webp" });
      expect(response.status, pathname).toBe(200);
      expect(response.headers.get("content-type")).toBe("image/webp");
    }
  });

  test("a malformed escape is not found, not an error", async () => {
    for (const pathname of ["/img/%E0%A4%A/00000000/800", "/img/1/%zz/800", "/img/%/card-00000000.png"]) {
      const response = await get(pathname);
      expect(response.status, pathname).toBe(404);
      expect(await response.text()).toBe("Not found");
    }
  });

  test("a redirect has a short text body, and none for HEAD", async () => {
    const { story, path: imagePath } = await storyWithImage(`${site.url}/photo.jpg`);
    const stalePath = `/img/${story.id}/${imageUrlHash(`${site.url}/other.jpg`)}/480`;
    const response = await get(stalePath);
    expect(response.status).toBe(302);
    expect(response.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    const body = await response.text();
    expect(body).toBe(`Found. Redirecting to ${imagePath(480)}`);
    expect(response.headers.get("content-length")).toBe(String(Buffer.byteLength(body)));
    const head = await fetch(`${base}${stalePath}`, { method: "HEAD", redirect: "manual" });
    expect(head.status).toBe(302);
    expect(head.headers.get("location")).toBe(imagePath(480));
    expect(head.headers.get("content-length")).toBe(String(Buffer.byteLength(body)));
    expect((await head.arrayBuffer()).byteLength).toBe(0);
  });

  test("a 404 has its length, and no body for HEAD", async () => {
    const response = await fetch(`${base}/img/abc/00000000/800`, { method: "HEAD" });
    expect(response.status).toBe(404);
    expect(response.headers.get("content-length")).toBe("9");
    expect((await response.arrayBuffer()).byteLength).toBe(0);
  });

  test("Accept is added to a Vary header already set", async () => {
    const { path: imagePath } = await storyWithImage(`${site.url}/photo.jpg`);
    const route = createImageRoute({ store, findImage: (id) => t.repos.publicStories.imageOf(id), cards, findCard: (id) => getStoryCard(t.repos, id), siteUrl: SITE_URL });
    const other = await serveRoute(route, (res) => res.setHeader("Vary", "Origin"));
    try {
      const response = await fetch(`${other.base}${imagePath(320)}`, { headers: { accept: "image/webp" } });
      expect(response.status).toBe(200);
      expect(response.headers.get("vary")).toBe("Origin, Accept");
      const jpeg = await fetch(`${other.base}${imagePath(320, true)}`);
      expect(jpeg.headers.get("vary")).toBe("Origin");
    } finally {
      other.server.closeAllConnections();
      await new Promise((resolve) => other.server.close(resolve));
    }
  });

  test("a failed lookup rejects, and the caller answers 500", async () => {
    const failing = createImageRoute({
      store,
      findImage: () => Promise.reject(new Error("the database is down")),
      cards,
      findCard: () => Promise.reject(new Error("the database is down")),
      siteUrl: SITE_URL,
    });
    const other = await serveRoute(failing);
    try {
      for (const pathname of ["/img/1/00000000/800", "/img/1/card-00000000.png"]) {
        const response = await fetch(`${other.base}${pathname}`);
        expect(response.status, pathname).toBe(500);
        expect(await response.text()).toContain("the database is down");
      }
    } finally {
      other.server.closeAllConnections();
      await new Promise((resolve) => other.server.close(resolve));
    }
  });
});

describe("a story's share card", () => {
  async function storyWithCard(overrides: { title?: string; status?: "published" | "pending"; imageUrl?: string | null } = {}) {
    const category = await makeCategory(t.db, { name: "Animals" });
    const story = await makeStory(t.db, { title: "Goat elected mayor", imageUrl: null, status: "published", categoryId: category.id, ...overrides });
    return { story, path: storyCardPath({ id: story.id, title: story.title, category: "Animals" }, SITE_URL) };
  }

  test("is a 1200x630 PNG, cached for a year as immutable, with an ETag answered by 304", async () => {
    const { path: cardPath } = await storyWithCard();
    expect(cardPath).toMatch(/^\/img\/\d+\/card-[0-9a-f]{8}\.png$/);
    const response = await get(cardPath);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/png");
    expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(imageSize(Buffer.from(await response.arrayBuffer()))).toMatchObject({ type: "png", width: 1200, height: 630 });
    const etag = response.headers.get("etag");
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await get(cardPath, { "if-none-match": etag! });
    expect(again.status).toBe(304);
    expect((await again.arrayBuffer()).byteLength).toBe(0);
  });

  test("answers HEAD with the headers only", async () => {
    const { path: cardPath } = await storyWithCard();
    const response = await fetch(`${base}${cardPath}`, { method: "HEAD" });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/png");
    expect((await response.arrayBuffer()).byteLength).toBe(0);
    const bytes = (await (await get(cardPath)).arrayBuffer()).byteLength;
    expect(bytes).toBeGreaterThan(0);
    expect(response.headers.get("content-length")).toBe(String(bytes));
  });

  test("draws the story's current title: an edited title is a new address, and the old one redirects to it", async () => {
    const { story, path: oldPath } = await storyWithCard();
    const before = Buffer.from(await (await get(oldPath)).arrayBuffer());
    await t.db.update(stories).set({ title: "Goat re-elected mayor" }).where(eq(stories.id, story.id));
    clock += 10_000;
    const newPath = storyCardPath({ id: story.id, title: "Goat re-elected mayor", category: "Animals" }, SITE_URL);
    expect(newPath).not.toBe(oldPath);
    const stale = await get(oldPath);
    expect(stale.status).toBe(302);
    expect(stale.headers.get("location")).toBe(newPath);
    expect(stale.headers.get("cache-control")).toBe("public, max-age=60");
    const fresh = await get(newPath);
    expect(fresh.status).toBe(200);
    expect(Buffer.from(await fresh.arrayBuffer()).equals(before)).toBe(false);
  });

  test("serves nothing of a story that is not published or does not exist", async () => {
    const { path: pendingPath } = await storyWithCard({ status: "pending" });
    expect((await get(pendingPath)).status).toBe(404);
    expect((await get(pendingPath.replace(/^\/img\/\d+\//, "/img/987654/"))).status).toBe(404);
  });

  test.each([
    ["a hash that is not 8 hex digits", (id: number) => `/img/${id}/card-zzzz.png`],
    ["another format", (id: number) => `/img/${id}/card-00000000.jpg`],
    ["another name", (id: number) => `/img/${id}/poster-00000000.png`],
    ["a story id that is not a number", () => "/img/abc/card-00000000.png"],
  ])("refuses %s", async (_label, url) => {
    const { story } = await storyWithCard();
    expect((await get(url(story.id))).status).toBe(404);
  });

  test("takes no text from the request: a title in the query draws nothing", async () => {
    const { path: cardPath } = await storyWithCard();
    const own = Buffer.from(await (await get(cardPath)).arrayBuffer());
    const asked = await get(`${cardPath}?title=${encodeURIComponent("Something else")}&category=Hacked`);
    expect(asked.status).toBe(200);
    expect(Buffer.from(await asked.arrayBuffer()).equals(own)).toBe(true);
  });
});

describe("choosing a format", () => {
  test.each([
    [AVIF_FIRST, "avif"],
    ["image/webp,image/apng,image/*,*/*;q=0.8", "webp"],
    ["image/avif;q=0,image/webp", "webp"],
    ["IMAGE/AVIF", "avif"],
    ["image/*", "jpeg"],
    ["*/*", "jpeg"],
    [undefined, "jpeg"],
  ])("%j gets %s", (accept, format) => {
    expect(chooseFormat(accept)).toBe(format);
  });
});

describe("a picture among the site's own files", () => {
  test("is drawn from the file into the same sized variants, by Accept", async () => {
    const { path: imagePath } = await storyWithImage("/demo/cat.svg");
    const response = await get(imagePath(800), { accept: "image/webp,*/*" });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/webp");
    expect(response.headers.get("cache-control")).toContain("immutable");
    expect(await pictureOf(response)).toMatchObject({ format: "webp", width: 800, height: 450 });
    const share = await get(imagePath(1200, true));
    expect(await pictureOf(share)).toMatchObject({ format: "jpeg", width: 1200, height: 675 });
  });

  test("never reads outside the site's public files or anything that is not a picture", async () => {
    const reader = siteImageReader(PUBLIC_DIR);
    expect(await reader("/demo/cat.svg")).not.toBeNull();
    expect(await reader("/../package.json")).toBeNull();
    expect(await reader("/%2e%2e/package.json")).toBeNull();
    expect(await reader("/demo/../../db/schema.ts")).toBeNull();
    expect(await reader("/missing.png")).toBeNull();
    const { path: imagePath } = await storyWithImage("/../../package.json");
    const response = await get(imagePath(320), { accept: "image/webp,*/*" });
    expect(response.headers.get("cache-control")).not.toContain("immutable");
  });
});
