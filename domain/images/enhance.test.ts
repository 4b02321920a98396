import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gunzipSync } from "node:zlib";
import { eq } from "drizzle-orm";
import pino from "pino";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { stories } from "~/db/schema";
import { makeStory } from "~/db/testing/factories";
import { testDatabaseForFile } from "~/db/testing/test-database";
import { isDomainError } from "~/domain/errors";
import { testHttpClient } from "~/integrations/http/testing";
import type { HttpClient } from "~/integrations/http/types";
import { startTestServer, type TestServer } from "~/test/http-test-server";
import { analyzeImages } from "./image-stats";
import { FetchError } from "~/integrations/http/fetch-error";
import { ImageProbeError } from "~/integrations/images/probe";
import { enhanceStoryImages, isLastingFailure, planEnhancement } from "./enhance";
import { imagePanelState } from "./image-stats";
import type { Progress } from "~/lib/progress";

const t = testDatabaseForFile();
const logger = pino({ level: "silent" });
let site: TestServer;
let http: HttpClient;
let showPictureLater: () => void;

const jpeg = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 80, b: 40 } } }).jpeg().toBuffer();
const page = (head: string, body = "") =>
  `<!doctype html><html><head><title>Story</title>${head}</head><body><article><h1>Story</h1><p>Text.</p>${body}</article></body></html>`;

beforeAll(async () => {
  site = await startTestServer();
  http = testHttpClient();
  const images: Record<string, Buffer> = {
    "/img/big.jpg": await jpeg(1600, 900),
    "/img/huge.jpg": await jpeg(2400, 1600),
    "/img/thumb.jpg": await jpeg(150, 100),
    "/img/medium.jpg": await jpeg(800, 450),
    "/img/logo.jpg": await jpeg(120, 40),
    "/img/banner.jpg": await jpeg(1800, 150),
    "/img/wide-enough.jpg": await jpeg(1280, 720),
    "/uploads/photo-300x200.jpg": await jpeg(300, 200),
    "/uploads/photo.jpg": await jpeg(2000, 1333),
  };
  for (const [path, bytes] of Object.entries(images)) {
    site.handle(path, (_req, res) => res.writeHead(200, { "content-type": "image/jpeg", "content-length": String(bytes.length) }).end(bytes));
  }
  const html = (path: string, body: string) => site.handle(path, (_req, res) => res.writeHead(200, { "content-type": "text/html" }).end(body));
  html("/article/og", page(`<meta property="og:image" content="${site.url}/img/big.jpg">`));
  html("/article/wordpress", page("", `<img src="${site.url}/uploads/photo-300x200.jpg" width="300" height="200">`));
  html("/article/only-junk", page(`<meta property="og:image" content="${site.url}/img/logo.jpg">`, `<img src="${site.url}/img/banner.jpg">`));
  html("/article/nothing", page(""));
  html("/article/smaller", page(`<meta property="og:image" content="${site.url}/img/thumb.jpg">`));
  site.handle("/article/gone", (_req, res) => res.writeHead(410).end());
  site.handle("/article/missing", (_req, res) => res.writeHead(404, { "content-type": "text/html" }).end("<h1>Not found</h1>"));
  site.handle("/article/busy", (_req, res) => res.writeHead(503, { "retry-after": "30" }).end());
  site.handle("/article/limited", (_req, res) => res.writeHead(429, { "retry-after": "30" }).end());
  html("/article/picture-busy", page(`<meta property="og:image" content="${site.url}/img/busy.jpg">`));
  site.handle("/img/busy.jpg", (_req, res) => res.writeHead(503).end());
  html("/article/picture-gone", page(`<meta property="og:image" content="${site.url}/img/gone.jpg">`));
  site.handle("/img/gone.jpg", (_req, res) => res.writeHead(404).end());
  // A page whose picture appears later: its story's retry finds it.
  let laterHasPicture = false;
  site.handle("/article/later", (_req, res) =>
    res.writeHead(200, { "content-type": "text/html" }).end(page(laterHasPicture ? `<meta property="og:image" content="${site.url}/img/big.jpg">` : "")),
  );
  showPictureLater = () => (laterHasPicture = true);
});
afterAll(async () => {
  await http.close();
  await site.close();
});

const deps = () => ({ repos: t.repos, http, logger });
const row = async (id: number) => (await t.db.select().from(stories).where(eq(stories.id, id)))[0]!;

describe("real article pages (mozilla/readability's test set), their pictures served at known sizes", () => {
  const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "integrations", "extract", "fixtures", "readability");
  /** Serves the saved page with its picture host moved to the local server, and each picture at its size (others are missing). */
  async function servePage(name: string, host: string, pictures: Record<string, [number, number]>, as = name): Promise<string> {
    const html = gunzipSync(readFileSync(path.join(fixtures, name, "source.html.gz"))).toString("utf8").replaceAll(host, `${site.url}/${as}-pictures`);
    site.handle(`/real/${as}`, (_req, res) => res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(html));
    for (const [picture, [width, height]] of Object.entries(pictures)) {
      const bytes = await jpeg(width, height);
      site.handle(`/${as}-pictures${picture}`, (_req, res) => res.writeHead(200, { "content-type": "image/jpeg" }).end(bytes));
    }
    return `${site.url}/real/${as}`;
  }

  test("ars-1: the WordPress original of the 640 px og:image is found and kept, with its size", async () => {
    const pageUrl = await servePage("ars-1", "http://cdn.arstechnica.net", {
      "/wp-content/uploads/2015/04/server-crash-640x426.jpg": [640, 426],
      "/wp-content/uploads/2015/04/server-crash.jpg": [1920, 1278],
    });
    const story = await makeStory(t.db, { imageUrl: null, originalUrl: pageUrl });
    const result = await enhanceStoryImages(deps(), { singleStoryId: story.id });
    expect(result.details[0]).toMatchObject({ outcome: "enhanced", imageUrl: `${site.url}/ars-1-pictures/wp-content/uploads/2015/04/server-crash.jpg` });
    expect(await row(story.id)).toMatchObject({ imageWidth: 1920, imageHeight: 1278 });
  });

  test("tmz-1: the 1200x630 share picture wins over the article's smaller pictures; the thin red bar is left out", async () => {
    const pageUrl = await servePage("tmz-1", "http://ll-media.tmz.com", {
      "/2015/02/26/0225-lupita-nyongo-getty-01-1200x630.jpg": [1200, 630],
      "/2015/02/26/0225-lupita-nyongo-getty-4.jpg": [800, 533],
      "/2013/11/20/update-graphic-red-bar.jpg": [1600, 40],
      "/2015/02/26/0226-sub-london-hotel-swipe-tmz-11.jpg": [400, 300],
    });
    const story = await makeStory(t.db, { imageUrl: null, originalUrl: pageUrl });
    const result = await enhanceStoryImages(deps(), { singleStoryId: story.id });
    expect(result.details[0]).toMatchObject({ outcome: "enhanced", imageUrl: `${site.url}/tmz-1-pictures/2015/02/26/0225-lupita-nyongo-getty-01-1200x630.jpg` });
  });

  test("lemonde-1: og:image is taken, never the 24 px author thumbnail; with only the thumbnail, nothing usable is found", async () => {
    const thumbnail = "/image/2014/04/18/24x24/1100512060_4_989c_13978271609841-0kab-c47_a068f1501374eefd42e6bb2cac94b37a.jpg";
    const pageUrl = await servePage("lemonde-1", "http://s1.lemde.fr", {
      "/image/2015/05/05/600x315/4628128_3_47fc_projet-de-loi-renseignement_aeba800424730d672d1bd08faf203438.jpg": [600, 315],
      [thumbnail]: [24, 24],
    });
    const story = await makeStory(t.db, { imageUrl: null, originalUrl: pageUrl });
    expect((await enhanceStoryImages(deps(), { singleStoryId: story.id })).details[0]).toMatchObject({
      outcome: "enhanced",
      imageUrl: expect.stringContaining("/lemonde-1-pictures/image/2015/05/05/600x315/"),
    });

    // The same page with its og:image missing: only the thumbnail can be read.
    const onlyThumbnail = await servePage("lemonde-1", "http://s1.lemde.fr", { [thumbnail]: [24, 24] }, "lemonde-1-thumbnail-only");
    const second = await makeStory(t.db, { imageUrl: null, originalUrl: onlyThumbnail });
    expect((await enhanceStoryImages(deps(), { singleStoryId: second.id })).details[0]).toMatchObject({
      outcome: "failed",
      error: "No usable image on the original page (only icons, logos or tiny images)",
    });
  });
});

describe("enhancing a story's image", () => {
  test("a small feed thumbnail gives way to the page's og:image, measured", async () => {
    const story = await makeStory(t.db, { imageUrl: `${site.url}/img/thumb.jpg`, originalUrl: `${site.url}/article/og` });
    const result = await enhanceStoryImages(deps(), { singleStoryId: story.id });
    expect(result).toMatchObject({ processed: 1, enhanced: 1, failed: 0, skipped: 0 });
    expect(result.details[0]).toMatchObject({ storyId: story.id, title: story.title, success: true, outcome: "enhanced", imageUrl: `${site.url}/img/big.jpg` });
    expect(await row(story.id)).toMatchObject({
      imageUrl: `${site.url}/img/big.jpg`,
      imageWidth: 1600,
      imageHeight: 900,
      imageEnhanced: true,
      imageProcessingStatus: "completed",
      imageError: null,
    });
  });

  test("a WordPress-resized image is replaced by its full-size original", async () => {
    const story = await makeStory(t.db, { imageUrl: null, originalUrl: `${site.url}/article/wordpress` });
    const result = await enhanceStoryImages(deps(), { singleStoryId: story.id });
    expect(result.details[0]).toMatchObject({ outcome: "enhanced", imageUrl: `${site.url}/uploads/photo.jpg` });
  });

  test("an image at least 1200 px wide is high-resolution: skipped, and not looked at again", async () => {
    const story = await makeStory(t.db, { imageUrl: `${site.url}/img/wide-enough.jpg`, originalUrl: `${site.url}/article/og` });
    const result = await enhanceStoryImages(deps(), { singleStoryId: story.id });
    expect(result).toMatchObject({ skipped: 1, enhanced: 0 });
    expect(result.details[0]?.error).toMatch(/Already high-resolution \(1280x720\)/);
    expect(await row(story.id)).toMatchObject({
      imageUrl: `${site.url}/img/wide-enough.jpg`,
      imageWidth: 1280,
      imageHeight: 720,
      imageEnhanced: true,
      imageProcessingStatus: "skipped",
    });
    expect((await analyzeImages({ repos: t.repos })).needingWork).toBe(0);
  });

  test("a page gone (404, 410), with no picture or only icons fails for good: it leaves the work count, listed apart with its reason", async () => {
    const junk = await makeStory(t.db, { title: "Only junk", imageUrl: null, originalUrl: `${site.url}/article/only-junk` });
    const empty = await makeStory(t.db, { title: "No picture", imageUrl: null, originalUrl: `${site.url}/article/nothing` });
    const gone = await makeStory(t.db, { title: "Gone", imageUrl: null, originalUrl: `${site.url}/article/gone` });
    const missing = await makeStory(t.db, { title: "Missing", imageUrl: null, originalUrl: `${site.url}/article/missing` });
    const pictureGone = await makeStory(t.db, { title: "Picture gone", imageUrl: null, originalUrl: `${site.url}/article/picture-gone` });
    const noPage = await makeStory(t.db, { title: "No page", imageUrl: null, originalUrl: null, sourceUrl: null });
    const all = [junk, empty, gone, missing, pictureGone, noPage];
    expect((await imagePanelState({ repos: t.repos })).needingWork).toBe(6);
    const result = await enhanceStoryImages(deps(), { batchSize: 10 });
    expect(result).toMatchObject({ processed: 6, failed: 6 });
    const reasons = Object.fromEntries(result.details.map((d) => [d.storyId, d.error]));
    expect(reasons[junk.id]).toMatch(/No usable image/);
    expect(reasons[empty.id]).toMatch(/No image found/);
    expect(reasons[gone.id]).toMatch(/HTTP 410/);
    expect(reasons[missing.id]).toMatch(/HTTP 404/);
    expect(result.details.every((d) => d.lasting === true)).toBe(true);
    for (const story of all) expect(await row(story.id)).toMatchObject({ imageEnhanced: false, imageProcessingStatus: "failed", imageFailurePermanent: true });

    const panel = await imagePanelState({ repos: t.repos });
    expect(panel.needingWork).toBe(0);
    expect(panel.failed.count).toBe(6);
    expect(panel.failed.stories.map((s) => [s.title, s.reason]).sort()).toEqual(all.map((s) => [s.title, reasons[s.id]]).sort());
    const plan = await planEnhancement({ repos: t.repos }, { batchSize: 10 });
    expect(plan).toEqual({ storyIds: [], batchSize: 10 });
  });

  test("a failure that may pass (5xx, 429, a picture that did not answer, a refused connection) stays in the work count", async () => {
    const busy = await makeStory(t.db, { imageUrl: null, originalUrl: `${site.url}/article/busy` });
    const limited = await makeStory(t.db, { imageUrl: null, originalUrl: `${site.url}/article/limited` });
    const pictureBusy = await makeStory(t.db, { imageUrl: null, originalUrl: `${site.url}/article/picture-busy` });
    const unreachable = await makeStory(t.db, { imageUrl: null, originalUrl: "http://127.0.0.1:1/article" });
    const ids = [busy.id, limited.id, pictureBusy.id, unreachable.id];
    const result = await enhanceStoryImages(deps(), { storyIds: ids });
    expect(result).toMatchObject({ processed: 4, failed: 4 });
    expect(result.details.map((d) => d.lasting)).toEqual([false, false, false, false]);
    for (const id of ids) expect(await row(id)).toMatchObject({ imageProcessingStatus: "failed", imageFailurePermanent: false });
    const panel = await imagePanelState({ repos: t.repos });
    expect(panel).toMatchObject({ needingWork: 4, failed: { count: 0, stories: [] } });
    const plan = await planEnhancement({ repos: t.repos }, { batchSize: 10 });
    expect("storyIds" in plan ? [...plan.storyIds].sort() : null).toEqual([...ids].sort());
  });

  test("a lasting failure ends when the editor changes the story's page or picture, and not on other edits", async () => {
    const story = await makeStory(t.db, { imageUrl: null, originalUrl: null, sourceUrl: `${site.url}/article/nothing` });
    await enhanceStoryImages(deps(), { storyIds: [story.id] });
    const audit = { actorUserId: null, action: "story.update" };
    await t.repos.editorial.update(story.id, { title: "A better title", sourceUrl: `${site.url}/article/nothing` }, audit);
    expect(await row(story.id)).toMatchObject({ imageFailurePermanent: true });
    expect((await imagePanelState({ repos: t.repos })).needingWork).toBe(0);

    // The Edit dialog's Source URL moves the story's page: its original URL and source URL together.
    const moved = { originalUrl: `${site.url}/article/og`, sourceUrl: `${site.url}/article/og` };
    await t.repos.editorial.update(story.id, moved, audit);
    expect(await row(story.id)).toMatchObject({ imageFailurePermanent: false });
    expect((await imagePanelState({ repos: t.repos })).needingWork).toBe(1);
    expect((await enhanceStoryImages(deps(), { batchSize: 10 })).details[0]).toMatchObject({ storyId: story.id, outcome: "enhanced" });

    const pictureless = await makeStory(t.db, { imageUrl: null, originalUrl: `${site.url}/article/nothing` });
    await enhanceStoryImages(deps(), { storyIds: [pictureless.id] });
    await t.repos.editorial.update(pictureless.id, { imageUrl: `${site.url}/img/thumb.jpg` }, audit);
    expect(await row(pictureless.id)).toMatchObject({ imageFailurePermanent: false });
  });

  test("a retry takes one story, or every story failed for good; one that now works leaves the list", async () => {
    const later = await makeStory(t.db, { title: "Picture later", imageUrl: null, originalUrl: `${site.url}/article/later` });
    const empty = await makeStory(t.db, { title: "Still nothing", imageUrl: null, originalUrl: `${site.url}/article/nothing` });
    await enhanceStoryImages(deps(), { storyIds: [later.id, empty.id] });
    expect((await imagePanelState({ repos: t.repos })).failed.count).toBe(2);

    const all = await planEnhancement({ repos: t.repos }, { retry: "all" });
    expect("storyIds" in all ? [...all.storyIds].sort() : null).toEqual([later.id, empty.id].sort());
    expect(await planEnhancement({ repos: t.repos }, { retry: String(later.id) })).toEqual({ storyIds: [later.id], batchSize: 1 });
    await expect(planEnhancement({ repos: t.repos }, { retry: 999_999 })).rejects.toSatisfy((error: unknown) => isDomainError(error) && error.code === "STORY_NOT_FOUND");

    showPictureLater();
    const retried = await enhanceStoryImages(deps(), { storyIds: [later.id, empty.id] });
    expect(retried).toMatchObject({ enhanced: 1, failed: 1 });
    const panel = await imagePanelState({ repos: t.repos });
    expect(panel.failed.stories.map((s) => s.title)).toEqual(["Still nothing"]);
    expect(await row(later.id)).toMatchObject({ imageFailurePermanent: false, imageProcessingStatus: "completed" });
  });

  test("a current image larger than anything on the page stays: skipped", async () => {
    const story = await makeStory(t.db, { imageUrl: `${site.url}/img/medium.jpg`, originalUrl: `${site.url}/article/smaller` });
    const result = await enhanceStoryImages(deps(), { singleStoryId: story.id });
    expect(result.details[0]).toMatchObject({ outcome: "skipped" });
    expect((await row(story.id)).imageUrl).toBe(`${site.url}/img/medium.jpg`);
  });

  test("an editor's custom image URL is measured and stored; an unusable one fails the test", async () => {
    const story = await makeStory(t.db, { imageUrl: null, originalUrl: `${site.url}/article/nothing` });
    const good = await enhanceStoryImages(deps(), { singleStoryId: story.id, customImageUrl: `${site.url}/img/huge.jpg` });
    expect(good.details[0]).toMatchObject({ outcome: "enhanced", imageUrl: `${site.url}/img/huge.jpg` });
    const bad = await enhanceStoryImages(deps(), { singleStoryId: story.id, customImageUrl: `${site.url}/img/logo.jpg` });
    expect(bad.details[0]).toMatchObject({ outcome: "failed", error: expect.stringMatching(/not usable/) });
  });

  test("a bulk batch takes the stories needing work, reports progress with its counts, and writes each as it goes", async () => {
    const a = await makeStory(t.db, { imageUrl: `${site.url}/img/thumb.jpg`, originalUrl: `${site.url}/article/og` });
    const b = await makeStory(t.db, { imageUrl: null, originalUrl: `${site.url}/article/nothing` });
    await makeStory(t.db, { imageUrl: null, imageEnhanced: true, imageProcessingStatus: "completed" });
    const seen: Progress[] = [];
    const result = await enhanceStoryImages(deps(), { batchSize: 10 }, { onProgress: (p) => void seen.push(p) });
    expect(result).toMatchObject({ processed: 2, enhanced: 1, failed: 1 });
    expect(result.details.map((d) => d.storyId).sort()).toEqual([a.id, b.id].sort());
    expect(seen[0]).toEqual({ done: 0, total: 2, counts: { enhanced: 0, failed: 0, skipped: 0 } });
    expect(seen.at(-1)).toEqual({ done: 2, total: 2, counts: { enhanced: 1, failed: 1, skipped: 0 } });
  });

  test("a resumed run skips the stories its first part already looked at", async () => {
    const done = await makeStory(t.db, { imageUrl: null, originalUrl: `${site.url}/article/og` });
    const left = await makeStory(t.db, { imageUrl: null, originalUrl: `${site.url}/article/og?edition=2` });
    const firstStarted = new Date(Date.now() - 1000);
    await t.db.update(stories).set({ imageCheckedAt: new Date() }).where(eq(stories.id, done.id));
    const result = await enhanceStoryImages(deps(), { storyIds: [done.id, left.id], since: firstStarted });
    expect(result.details.map((d) => d.storyId)).toEqual([left.id]);
  });

  test("a missing story and a blank ID are refused with the spec's words", async () => {
    await expect(planEnhancement({ repos: t.repos }, { singleStoryId: "  " })).rejects.toSatisfy(
      (error: unknown) => isDomainError(error) && error.message === "Please enter a story ID to test",
    );
    await expect(planEnhancement({ repos: t.repos }, { singleStoryId: 999_999 })).rejects.toSatisfy(
      (error: unknown) => isDomainError(error) && error.code === "STORY_NOT_FOUND",
    );
  });

  test("the image analysis counts the newest stories with an image", async () => {
    await makeStory(t.db, { imageUrl: "https://img.example/a.jpg" });
    await makeStory(t.db, { imageUrl: null });
    expect(await analyzeImages({ repos: t.repos })).toEqual({ total: 2, withImages: 1, needingWork: 2 });
  });
});

describe("which failures last until the story's page or picture changes", () => {
  test.each([
    ["a picture gone (404)", new ImageProbeError("HTTP_STATUS", "https://x.example/a.jpg", "HTTP 404", { status: 404 }), true],
    ["a picture gone (410)", new ImageProbeError("HTTP_STATUS", "https://x.example/a.jpg", "HTTP 410", { status: 410 }), true],
    ["bytes that are not an image", new ImageProbeError("NOT_AN_IMAGE", "https://x.example/a.jpg", "text/html bytes that are not an image"), true],
    ["robots.txt refusing the page", new FetchError("ROBOTS_DISALLOWED", "https://x.example/private", "robots.txt disallows https://x.example/private"), true],
    ["a URL that is none", new FetchError("INVALID_URL", "nope", "not a URL"), true],
    ["a picture that answered 503", new ImageProbeError("HTTP_STATUS", "https://x.example/a.jpg", "HTTP 503", { status: 503 }), false],
    ["a picture that answered 429", new ImageProbeError("HTTP_STATUS", "https://x.example/a.jpg", "HTTP 429", { status: 429 }), false],
    ["a timeout", new FetchError("TIMEOUT", "https://x.example/", "no answer in 10 s"), false],
    ["a network failure", new FetchError("NETWORK_ERROR", "https://x.example/", "connection reset"), false],
    ["a DNS failure", new FetchError("DNS_FAILURE", "https://x.example/", "ENOTFOUND"), false],
    ["robots.txt that could not be read (it may answer later)", new FetchError("ROBOTS_UNAVAILABLE", "https://x.example/a", "robots.txt answered HTTP 503"), false],
    ["anything else", new Error("something odd"), false],
  ])("%s: %s", (_name, error, lasting) => {
    expect(isLastingFailure(error)).toBe(lasting);
  });
});
