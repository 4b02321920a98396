import { describe, expect, test } from "vitest";
import {
  IMAGE_WIDTHS,
  imageHeight,
  imageOrigin,
  imageUrlHash,
  isImageWidth,
  shareCardHash,
  siteHost,
  storyCardPath,
  storyImagePath,
  storyImageSources,
  storyShareImage,
  storySocialImage,
} from "./story-image";

const PHOTO = "https://cdn.example/photos/goat.jpg?w=2000";
const SIZES = "(min-width: 800px) 760px, 100vw";

describe("an image URL's hash", () => {
  test.each([
    ["", "811c9dc5"],
    ["a", "e40c292c"],
    ["foobar", "bf9cf968"],
  ])("is 32-bit FNV-1a of %j as 8 hex digits", (input, hash) => {
    expect(imageUrlHash(input)).toBe(hash);
  });

  test("changes when the URL changes, and is the same on every call", () => {
    expect(imageUrlHash(PHOTO)).toMatch(/^[0-9a-f]{8}$/);
    expect(imageUrlHash(PHOTO)).toBe(imageUrlHash(PHOTO));
    expect(imageUrlHash(PHOTO)).not.toBe(imageUrlHash(`${PHOTO}0`));
  });
});

describe("where a stored image URL points", () => {
  test.each([
    [PHOTO, { kind: "remote", url: PHOTO }],
    ["  HTTP://CDN.example/a.png  ", { kind: "remote", url: "http://cdn.example/a.png" }],
    ["//cdn.example/a.png", { kind: "remote", url: "https://cdn.example/a.png" }],
    ["/demo/cat.svg", { kind: "site", path: "/demo/cat.svg" }],
    ["demo/cat.png", { kind: "site", path: "/demo/cat.png" }],
    ["/demo/cat.svg?v=2", { kind: "site", path: "/demo/cat.svg?v=2" }],
    ["javascript:alert(1)", null],
    ["data:image/png;base64,AAAA", null],
    ["ftp://files.example/a.jpg", null],
    ["", null],
    ["   ", null],
    [null, null],
  ])("%j is %j", (input, origin) => {
    expect(imageOrigin(input)).toEqual(origin);
  });
});

describe("a story's image sources", () => {
  test("an image on another site is a srcset of every width under /img, with the layout's sizes", () => {
    const hash = imageUrlHash(PHOTO);
    const sources = storyImageSources({ id: 42, imageUrl: PHOTO }, SIZES);
    expect(sources).toEqual({
      src: `/img/42/${hash}/800`,
      srcSet: `/img/42/${hash}/320 320w, /img/42/${hash}/480 480w, /img/42/${hash}/672 672w, /img/42/${hash}/800 800w, /img/42/${hash}/1200 1200w`,
      sizes: SIZES,
      width: 800,
      height: 450,
    });
  });

  test("an image on this site gets the same variants", () => {
    const hash = imageUrlHash("/demo/cat.svg");
    expect(storyImageSources({ id: 7, imageUrl: "/demo/cat.svg" }, SIZES)).toMatchObject({ src: `/img/7/${hash}/800`, width: 800, height: 450, sizes: SIZES });
  });

  test("a story without a usable image has none (the page shows the logo)", () => {
    expect(storyImageSources({ id: 7, imageUrl: null }, SIZES)).toBeNull();
    expect(storyImageSources({ id: 7, imageUrl: "javascript:alert(1)" }, SIZES)).toBeNull();
  });

  test("every width has its 16:9 height", () => {
    expect(IMAGE_WIDTHS.map((w) => [w, imageHeight(w)])).toEqual([
      [320, 180],
      [480, 270],
      [672, 378],
      [800, 450],
      [1200, 675],
    ]);
    expect(isImageWidth(800)).toBe(true);
    expect(isImageWidth(801)).toBe(false);
  });
});

describe("a story's shared image", () => {
  test("is the absolute 1200 px JPEG variant for an image on another site", () => {
    expect(storyShareImage({ id: 3, imageUrl: PHOTO }, "https://oddwire.test/")).toEqual({
      url: `https://oddwire.test/img/3/${imageUrlHash(PHOTO)}/1200.jpg`,
      width: 1200,
      height: 675,
    });
    expect(storyImagePath({ id: 3, imageUrl: PHOTO }, 1200, { jpeg: true })).toBe(`/img/3/${imageUrlHash(PHOTO)}/1200.jpg`);
  });

  test("is the 1200 px JPEG variant for an image on this site too, and nothing without one", () => {
    expect(storyShareImage({ id: 3, imageUrl: "/demo/goat.svg" }, "https://oddwire.test")).toEqual({
      url: `https://oddwire.test/img/3/${imageUrlHash("/demo/goat.svg")}/1200.jpg`,
      width: 1200,
      height: 675,
    });
    expect(storyShareImage({ id: 3, imageUrl: null }, "https://oddwire.test")).toBeNull();
  });
});

describe("a story's share card", () => {
  const story = { id: 3, title: "Goat elected mayor", category: "Animals", imageUrl: null };

  test("is what a story without a picture shares, at 1200x630", () => {
    const hash = shareCardHash({ title: "Goat elected mayor", category: "Animals", site: "oddwire.test" });
    expect(hash).toMatch(/^[0-9a-f]{8}$/);
    expect(storySocialImage(story, "https://oddwire.test/")).toEqual({
      url: `https://oddwire.test/img/3/card-${hash}.png`,
      width: 1200,
      height: 630,
      card: true,
    });
    expect(storySocialImage({ ...story, imageUrl: "javascript:alert(1)" }, "https://oddwire.test").card).toBe(true);
  });

  test("is shared instead of a picture known to be under 600 px wide; a picture not measured yet is shared", () => {
    expect(storySocialImage({ ...story, imageUrl: PHOTO, imageWidth: 599 }, "https://oddwire.test")).toMatchObject({ card: true, width: 1200, height: 630 });
    expect(storySocialImage({ ...story, imageUrl: PHOTO, imageWidth: 600 }, "https://oddwire.test")).toMatchObject({ card: false, width: 1200, height: 675 });
    expect(storySocialImage({ ...story, imageUrl: PHOTO, imageWidth: null }, "https://oddwire.test").card).toBe(false);
  });

  test("is not shared by a story with a picture, which shares its 1200 px JPEG", () => {
    expect(storySocialImage({ ...story, imageUrl: PHOTO }, "https://oddwire.test")).toEqual({
      url: `https://oddwire.test/img/3/${imageUrlHash(PHOTO)}/1200.jpg`,
      width: 1200,
      height: 675,
      card: false,
    });
  });

  test.each([
    ["title", { title: "Goat re-elected mayor" }],
    ["category", { category: "Politics" }],
  ])("moves to a new address when its %s changes", (_label, change) => {
    expect(storyCardPath({ ...story, ...change }, "https://oddwire.test")).not.toBe(storyCardPath(story, "https://oddwire.test"));
  });

  test("moves to a new address when the site's name on it changes", () => {
    expect(storyCardPath(story, "https://oddwire.test")).not.toBe(storyCardPath(story, "https://weird.example"));
    expect(storyCardPath(story, "https://www.oddwire.test")).toBe(storyCardPath(story, "https://oddwire.test/"));
  });

  test.each([
    ["https://oddwire.test", "oddwire.test"],
    ["https://www.oddwire.test/", "oddwire.test"],
    ["http://localhost:3000", "localhost:3000"],
    ["", ""],
  ])("names the site %j as %j", (siteUrl, host) => {
    expect(siteHost(siteUrl)).toBe(host);
  });
});
