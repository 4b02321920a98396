import sharp, { type Region } from "sharp";
import { beforeAll, describe, expect, test } from "vitest";
import { inspectImage, NotAnImageError, renderPlaceholder, renderVariant, type VariantFormat } from "./resize";
import { LOGO_SVG, photoJpeg, transparentPng } from "./testing";

let photo: Buffer;
beforeAll(async () => {
  photo = await photoJpeg(2000, 1333);
});

describe("a variant", () => {
  test.each<[VariantFormat, number, number]>([
    ["avif", 320, 180],
    ["webp", 800, 450],
    ["jpeg", 1200, 675],
  ])("in %s is exactly %i x %i", async (format, width, height) => {
    const bytes = await renderVariant(photo, { width, height, format });
    expect(await sharp(bytes).metadata()).toMatchObject({ format: format === "avif" ? "heif" : format, width, height });
  });

  test("crops a portrait picture to the frame and enlarges a small one", async () => {
    const portrait = await photoJpeg(300, 900, 2);
    const bytes = await renderVariant(portrait, { width: 800, height: 450, format: "webp" });
    expect(await sharp(bytes).metadata()).toMatchObject({ width: 800, height: 450 });
  });

  test("lays a transparent picture on white for JPEG", async () => {
    const bytes = await renderVariant(await transparentPng(400, 300), { width: 320, height: 180, format: "jpeg" });
    const [red, green] = (await sharp(bytes).stats()).channels.map((c) => c.mean);
    // Half-transparent red on white is pink, not the dark red it would be on black.
    expect(red).toBeGreaterThan(200);
    expect(green).toBeGreaterThan(100);
  });
});

describe("inspecting an original", () => {
  test("reads a picture's format and size from its bytes", async () => {
    expect(await inspectImage(photo)).toEqual({ format: "jpeg", width: 2000, height: 1333 });
  });

  test.each([
    ["an HTML page", Buffer.from("<!doctype html><title>Not a picture</title>")],
    ["an SVG (it could reach for other files)", LOGO_SVG],
    ["nothing", Buffer.alloc(0)],
  ])("refuses %s", async (_label, bytes) => {
    await expect(inspectImage(bytes)).rejects.toBeInstanceOf(NotAnImageError);
  });

  test("refuses a picture of more pixels than the limit", async () => {
    await expect(inspectImage(photo, { maxInputPixels: 1_000_000 })).rejects.toThrow(/pixels/);
  });
});

test("the placeholder is the logo on the site's paper colour, at the variant's size and format", async () => {
  const bytes = await renderPlaceholder(LOGO_SVG, { width: 480, height: 270, format: "webp" });
  expect(await sharp(bytes).metadata()).toMatchObject({ format: "webp", width: 480, height: 270 });
  const corner = await meanColour(bytes, { left: 0, top: 0, width: 10, height: 10 });
  corner.forEach((value, i) => expect(Math.abs(value - [236, 228, 211][i]!)).toBeLessThan(4));
  // Above the middle is the top of the logo's acid-green disc (#c8ff3d), not paper.
  const middle = await meanColour(bytes, { left: 234, top: 103, width: 8, height: 6 });
  expect(middle[1]! - middle[2]!).toBeGreaterThan(100);
});

// stats() reads the input, whatever the pipeline: cut the region out first.
async function meanColour(bytes: Buffer, region: Region): Promise<number[]> {
  const cut = await sharp(bytes).extract(region).png().toBuffer();
  return (await sharp(cut).stats()).channels.slice(0, 3).map((c) => c.mean);
}
