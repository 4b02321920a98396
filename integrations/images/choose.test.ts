import { describe, expect, test } from "vitest";
import { chooseBest, HIGH_RESOLUTION_WIDTH, judgeImage } from "./choose";
import type { ProbedImage } from "./probe";

const image = (width: number, height: number, type = "jpg", url = `https://cdn.example/photos/${width}x${height}.${type}`): ProbedImage => ({
  url,
  width,
  height,
  type,
  bytes: null,
});

describe("judgeImage", () => {
  test.each<[string, ProbedImage]>([
    ["a news photo", image(1200, 800)],
    ["a share card", image(1200, 630, "png")],
    ["the smallest square accepted", image(200, 200, "webp")],
    ["an AVIF", image(800, 600, "avif")],
    ["a banner at exactly 4:1", image(1600, 400)],
    ["a portrait at exactly 1:3", image(400, 1200)],
    ["a large animated GIF", image(480, 400, "gif")],
    ["a name that only contains a furniture word (silicone, blanket, pixelated)", image(900, 600, "jpg", "https://cdn.example/silicone-blanket-pixelated.jpg")],
    ["a furniture word in a folder, not the file name", image(900, 600, "jpg", "https://cdn.example/icons-of-history/photo.jpg")],
  ])("accepts %s", (_name, candidate) => {
    expect(judgeImage(candidate)).toEqual({ ok: true });
  });

  test.each<[string, ProbedImage, RegExp]>([
    ["a tracking pixel", image(1, 1, "gif"), /too small \(1x1\)/],
    ["an icon", image(64, 64, "png"), /too small/],
    ["a thumbnail narrower than 200 px", image(150, 600), /too small/],
    ["a strip lower than 200 px", image(1200, 199), /too small/],
    ["a banner wider than 4:1", image(1456, 360), /banner/],
    ["a leaderboard", image(970, 90), /too small/],
    ["a skyscraper taller than 1:3", image(300, 1000), /strip/],
    ["an SVG, however large", image(2400, 1600, "svg"), /SVG/],
    ["a GIF under 400 px", image(320, 240, "gif"), /small GIF/],
    ["a GIF 400 px wide but lower", image(400, 300, "gif"), /small GIF/],
    ["a logo by name", image(1200, 630, "png", "https://cdn.example/assets/site-logo@2x.png"), /"logo"/],
    ["a logo in camel case", image(1200, 630, "png", "https://cdn.example/siteLogo.png"), /"logo"/],
    ["an icon by name", image(512, 512, "png", "https://cdn.example/apple-touch-icon.png"), /"icon"/],
    ["a favicon", image(256, 256, "png", "https://cdn.example/favicon.png"), /"favicon"/],
    ["an avatar", image(400, 400, "jpg", "https://cdn.example/u/avatar_42.jpg"), /"avatar"/],
    ["a sprite sheet", image(1024, 1024, "png", "https://cdn.example/ui/sprites.png"), /"sprite"/],
    ["a placeholder", image(1200, 800, "jpg", "https://cdn.example/img/placeholder-image.jpg"), /"placeholder"/],
    ["a blank", image(1200, 800, "png", "https://cdn.example/blank.png"), /"blank"/],
    ["a spacer", image(1200, 800, "png", "https://cdn.example/spacer.png"), /"spacer"/],
    ["a pixel", image(1200, 800, "png", "https://cdn.example/fb_pixel.png"), /"pixel"/],
    ["a badge", image(600, 600, "png", "https://cdn.example/badges/app-store-badge.png"), /"badge"/],
    ["an escaped name", image(600, 600, "png", "https://cdn.example/Site%20Logo.png"), /"logo"/],
    ["a format browsers do not show", image(3000, 2000, "tiff"), /tiff/],
    ["an image with no measured size", image(0, 0, "jpg"), /no measured size/],
  ])("rejects %s", (_name, candidate, reason) => {
    const verdict = judgeImage(candidate);
    expect(verdict.ok).toBe(false);
    expect(verdict.ok ? "" : verdict.reason).toMatch(reason);
  });
});

describe("chooseBest", () => {
  test.each<[string, ProbedImage[], ProbedImage | null]>([
    ["nothing to choose from", [], null],
    ["only unusable images", [image(1, 1, "gif"), image(2400, 600, "svg"), image(970, 90)], null],
    ["the largest by area", [image(800, 600), image(1200, 800), image(1000, 900)], image(1200, 800)],
    ["the largest acceptable, past a larger logo and banner", [image(640, 480), image(3000, 2000, "png", "https://cdn.example/logo.png"), image(4000, 500)], image(640, 480)],
    [
      "on a tie, the earlier candidate",
      [image(1200, 800, "jpg", "https://cdn.example/first.jpg"), image(800, 1200, "jpg", "https://cdn.example/second.jpg")],
      image(1200, 800, "jpg", "https://cdn.example/first.jpg"),
    ],
  ])("%s", (_name, probed, expected) => {
    expect(chooseBest(probed)).toEqual(expected);
  });

  test("high resolution starts at 1200 px wide", () => {
    expect(HIGH_RESOLUTION_WIDTH).toBe(1200);
  });
});
