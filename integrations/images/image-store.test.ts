import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { testHttpClient } from "~/integrations/http/testing";
import type { HttpClient } from "~/integrations/http/types";
import { serveFixtures, type FixtureServer } from "~/test/fixture-server";
import { createImageStore, type ImageFailure, type ImageStoreOptions } from "./image-store";
import { LOGO_SVG, photoJpeg } from "./testing";

let site: FixtureServer;
let http: HttpClient;
let photo: Buffer;
let dir: string;
let failures: ImageFailure[];
let clock: number;

beforeAll(async () => {
  photo = await photoJpeg(1600, 1000);
  site = await serveFixtures({
    routes: {
      "/photo.jpg": { body: photo, headers: { "content-type": "image/jpeg" } },
      "/second.jpg": { body: await photoJpeg(900, 600, 7), headers: { "content-type": "image/jpeg" } },
      "/third.jpg": { body: await photoJpeg(900, 600, 8), headers: { "content-type": "image/jpeg" } },
      "/unlabelled.jpg": { body: photo, headers: { "content-type": "application/octet-stream" } },
      "/page.html": { body: "<!doctype html><p>Not a picture</p>", headers: { "content-type": "text/html" } },
      "/lying.jpg": { body: "<!doctype html><p>Not a picture</p>", headers: { "content-type": "image/jpeg" } },
      "/drawing.svg": { body: LOGO_SVG, headers: { "content-type": "image/svg+xml" } },
    },
  });
  http = testHttpClient();
});
afterAll(async () => {
  await http.close();
  await site.close();
});

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), "oddwire-images-"));
  failures = [];
  clock = 1_000_000;
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function store(overrides: Partial<ImageStoreOptions> = {}) {
  return createImageStore({
    dir,
    maxBytes: 50 * 1024 * 1024,
    http,
    logoSvg: LOGO_SVG,
    now: () => clock,
    onFailure: (failure) => failures.push(failure),
    ...overrides,
  });
}

const fetchesOf = (pathname: string) => site.requests.filter((r) => r.path === pathname).length;
const request = (pathname: string, width = 800, format: "avif" | "webp" | "jpeg" = "webp") => ({
  url: `${site.url}${pathname}`,
  width,
  height: Math.round((width * 9) / 16),
  format,
  storyId: 7,
});

async function expectPlaceholder(image: { bytes: Buffer; placeholder: boolean }, width: number, height: number) {
  expect(image.placeholder).toBe(true);
  expect(await sharp(image.bytes).metadata()).toMatchObject({ width, height });
}

describe("a picture on another site", () => {
  test("is fetched once, kept, and served as variants of the size and format asked for", async () => {
    const images = store();
    await images.ready;
    const before = fetchesOf("/photo.jpg");
    const webp = await images.variant(request("/photo.jpg", 800, "webp"));
    const avif = await images.variant(request("/photo.jpg", 320, "avif"));
    expect(fetchesOf("/photo.jpg") - before).toBe(1);
    expect(webp).toMatchObject({ contentType: "image/webp", placeholder: false, etag: expect.stringMatching(/^"[\w-]{22}"$/) });
    expect(await sharp(webp.bytes).metadata()).toMatchObject({ format: "webp", width: 800, height: 450 });
    expect(avif.contentType).toBe("image/avif");
    expect(await sharp(avif.bytes).metadata()).toMatchObject({ width: 320, height: 180 });
    // The original and both variants are on disk, and counted.
    expect(images.usage().files).toBe(3);
    expect(readdirSync(path.join(dir, "variants"), { recursive: true }).filter((f) => String(f).includes("."))).toHaveLength(2);
  });

  test("tells its measured size, with the story that asked, when a variant of it is rendered", async () => {
    const measured: unknown[] = [];
    const images = store({ onOriginalSize: (size) => measured.push(size) });
    await images.variant(request("/photo.jpg", 480, "jpeg"));
    expect(measured).toEqual([{ url: `${site.url}/photo.jpg`, storyId: 7, width: 1600, height: 1000 }]);
    // A variant kept in memory is not rendered again, so nothing more is told.
    await images.variant(request("/photo.jpg", 480, "jpeg"));
    expect(measured).toHaveLength(1);
  });

  test("is served from disk by a later store over the same directory, without fetching again", async () => {
    const first = store();
    const made = await first.variant(request("/photo.jpg", 480, "jpeg"));
    const before = fetchesOf("/photo.jpg");
    const later = store();
    await later.ready;
    expect(later.usage().files).toBe(2);
    const again = await later.variant(request("/photo.jpg", 480, "jpeg"));
    expect(again.bytes.equals(made.bytes)).toBe(true);
    expect(again.etag).toBe(made.etag);
    // A new width needs the original, which is on disk too.
    await later.variant(request("/photo.jpg", 1200, "jpeg"));
    expect(fetchesOf("/photo.jpg")).toBe(before);
  });

  test("is fetched and rendered once when many ask for a missing variant at the same time", async () => {
    const images = store();
    const before = fetchesOf("/second.jpg");
    const all = await Promise.all(Array.from({ length: 8 }, () => images.variant(request("/second.jpg", 800, "webp"))));
    expect(fetchesOf("/second.jpg") - before).toBe(1);
    expect(new Set(all.map((image) => image.bytes)).size).toBe(1);
  });

  test("labelled only as bytes (application/octet-stream) is served when it decodes as a picture", async () => {
    const image = await store().variant(request("/unlabelled.jpg", 320, "jpeg"));
    expect(image.placeholder).toBe(false);
  });
});

describe("a picture that cannot be had is the logo placeholder, and the failure is reported once", () => {
  test.each([
    ["a missing original (404)", "/missing.jpg", "HTTP_STATUS"],
    ["a page, not a picture", "/page.html", "NOT_AN_IMAGE"],
    ["a page labelled as a JPEG", "/lying.jpg", "NOT_AN_IMAGE"],
    ["an SVG from another site", "/drawing.svg", "NOT_AN_IMAGE"],
  ])("%s", async (_label, pathname, code) => {
    const image = await store().variant(request(pathname, 480, "webp"));
    await expectPlaceholder(image, 480, 270);
    expect(image.contentType).toBe("image/webp");
    expect(failures).toEqual([{ url: `${site.url}${pathname}`, storyId: 7, code, message: expect.any(String) }]);
  });

  test("an original larger than the cap", async () => {
    const image = await store({ maxOriginalBytes: 10_000 }).variant(request("/photo.jpg", 320, "jpeg"));
    await expectPlaceholder(image, 320, 180);
    expect(failures.map((f) => f.code)).toEqual(["BODY_TOO_LARGE"]);
  });

  test("a picture of more pixels than the limit", async () => {
    const image = await store({ maxInputPixels: 100_000 }).variant(request("/photo.jpg", 320, "jpeg"));
    await expectPlaceholder(image, 320, 180);
    expect(failures.map((f) => f.code)).toEqual(["NOT_AN_IMAGE"]);
  });

  test("an address the guarded client refuses (loopback, without the tests' allowance)", async () => {
    const guarded = testHttpClient({ allowHosts: [] });
    try {
      const image = await store({ http: guarded }).variant(request("/photo.jpg", 320, "webp"));
      await expectPlaceholder(image, 320, 180);
      expect(failures.map((f) => f.code)).toEqual(["BLOCKED_ADDRESS"]);
    } finally {
      await guarded.close();
    }
  });

  test("an original slower than the time limit", async () => {
    // A site that takes the request and never answers.
    const silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = silent.address() as AddressInfo;
      const slow = { ...request("/slow.jpg", 320, "webp"), url: `http://127.0.0.1:${port}/slow.jpg` };
      const image = await store({ fetchTimeoutMs: 200 }).variant(slow);
      await expectPlaceholder(image, 320, 180);
      expect(failures.map((f) => f.code)).toEqual(["TIMEOUT"]);
    } finally {
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  test("is remembered for a while, so a broken picture is not fetched on every request", async () => {
    const images = store({ failureTtlMs: 60_000 });
    const before = fetchesOf("/gone.jpg");
    await images.variant(request("/gone.jpg", 320));
    await images.variant(request("/gone.jpg", 800));
    clock += 59_000;
    await images.variant(request("/gone.jpg", 480));
    expect(fetchesOf("/gone.jpg") - before).toBe(1);
    expect(failures).toHaveLength(1);

    // Later the picture is there: it is fetched again and served.
    site.route("/gone.jpg", { body: photo, headers: { "content-type": "image/jpeg" } });
    clock += 2_000;
    const image = await images.variant(request("/gone.jpg", 480));
    expect(image.placeholder).toBe(false);
    expect(fetchesOf("/gone.jpg") - before).toBe(2);
  });
});

describe("the size cap", () => {
  test("evicts the least recently used files once the store is over its cap", async () => {
    for (let n = 1; n <= 5; n++) site.route(`/pic-${n}.jpg`, { body: await photoJpeg(900, 600, 100 + n), headers: { "content-type": "image/jpeg" } });
    // One picture's original and variant, measured in a store without a cap.
    const measuring = store();
    await measuring.ready;
    await measuring.variant(request("/pic-1.jpg", 1200, "jpeg"));
    const picture = measuring.usage().bytes;

    rmSync(dir, { recursive: true, force: true });
    // Room for two and a half pictures; nothing held in memory, so every answer comes from disk.
    const images = store({ maxBytes: Math.round(picture * 2.5), memoryBytes: 1 });
    await images.ready;
    await images.variant(request("/pic-1.jpg", 1200, "jpeg"));
    for (let n = 2; n <= 5; n++) {
      clock += 1_000;
      await images.variant(request(`/pic-${n}.jpg`, 1200, "jpeg"));
      // The first picture's variant is used between every two new pictures.
      await images.variant(request("/pic-1.jpg", 1200, "jpeg"));
    }
    expect(images.usage().bytes).toBeLessThanOrEqual(picture * 2.5);
    expect(images.usage().files).toBeLessThan(10);

    const fetched = (n: number) => fetchesOf(`/pic-${n}.jpg`);
    const before = [fetched(1), fetched(2), fetched(5)];
    // The variant used all along is still on disk; the newest picture too.
    await images.variant(request("/pic-1.jpg", 1200, "jpeg"));
    await images.variant(request("/pic-5.jpg", 1200, "jpeg"));
    // The oldest picture not used since went: it is fetched again.
    await images.variant(request("/pic-2.jpg", 1200, "jpeg"));
    expect([fetched(1), fetched(2), fetched(5)]).toEqual([before[0], before[1]! + 1, before[2]]);
  });
});
