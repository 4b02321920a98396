import type SharpModule from "sharp";
import type { Metadata } from "sharp";

// libvips is loaded with the first picture, not with the process: a process that never draws one
// (a web process, the site at rest) does not carry it.
let sharpModule: Promise<typeof SharpModule> | undefined;
const loadSharp = () => (sharpModule ??= import("sharp").then((loaded) => loaded.default));

// Decoding and re-encoding pictures with sharp (libvips). Every variant is a crop to the exact size
// asked for, so a page can reserve its box before the image arrives.

export type VariantFormat = "avif" | "webp" | "jpeg";

export const CONTENT_TYPES: Record<VariantFormat, string> = {
  avif: "image/avif",
  webp: "image/webp",
  jpeg: "image/jpeg",
};

export const EXTENSIONS: Record<VariantFormat, string> = { avif: "avif", webp: "webp", jpeg: "jpg" };

/** Raster formats accepted as originals; SVG and anything else from outside is refused. */
const ORIGINAL_FORMATS = new Set(["jpeg", "png", "webp", "avif", "gif", "heif", "tiff"]);

/** Pictures larger than this many pixels are refused rather than decoded (a decompression bomb). */
export const DEFAULT_MAX_INPUT_PIXELS = 40_000_000;

// AVIF at its lowest effort: effort 2 took 270 ms for an 800 px crop here, effort 0 about 85 ms,
// for files still about a third smaller than WebP's.
const ENCODE = {
  avif: { quality: 50, effort: 0 },
  webp: { quality: 78 },
  jpeg: { quality: 80, progressive: true },
} as const;

/** Why bytes are not an image we can serve. */
export class NotAnImageError extends Error {
  override name = "NotAnImageError";
  readonly code = "NOT_AN_IMAGE";
}

export type ImageInfo = { format: string; width: number; height: number };

/**
 * Checks that bytes decode as a raster picture of an accepted format within the pixel limit, from
 * its header only; throws NotAnImageError otherwise.
 */
export async function inspectImage(bytes: Buffer, options: { maxInputPixels?: number } = {}): Promise<ImageInfo> {
  const limit = options.maxInputPixels ?? DEFAULT_MAX_INPUT_PIXELS;
  let metadata: Metadata;
  try {
    // The header only: the size is checked against the limit below, with a message that says so.
    metadata = await (await loadSharp())(bytes, { limitInputPixels: false }).metadata();
  } catch (error) {
    throw new NotAnImageError("not a picture sharp can read", { cause: error });
  }
  const { format, width, height } = metadata;
  if (!format || !ORIGINAL_FORMATS.has(format)) throw new NotAnImageError(`not an accepted picture format (${format ?? "unknown"})`);
  if (!width || !height) throw new NotAnImageError("a picture without a size");
  if (width * height > limit) throw new NotAnImageError(`${width}x${height} is more than ${limit} pixels`);
  return { format, width, height };
}

/**
 * One variant: the picture turned upright (EXIF), cropped to `width` x `height` around its most
 * salient part, in `format`. Smaller originals are enlarged, so the size is always the one asked for.
 */
export async function renderVariant(
  original: Buffer,
  target: { width: number; height: number; format: VariantFormat },
  options: { maxInputPixels?: number } = {},
): Promise<Buffer> {
  // An SVG (only ever one of the site's own) is drawn at a density that makes its largest variant sharp.
  const svg = /^\s*(<\?xml[^>]*>\s*)?<svg[\s>]/.test(original.subarray(0, 512).toString("utf8"));
  const sharp = await loadSharp();
  const image = sharp(original, { limitInputPixels: options.maxInputPixels ?? DEFAULT_MAX_INPUT_PIXELS, failOn: "error", ...(svg ? { density: 300 } : {}) })
    .rotate()
    .resize(target.width, target.height, { fit: "cover", position: sharp.strategy.attention })
    // A transparent PNG would turn black in a JPEG: lay it on white first.
    .flatten({ background: "#ffffff" });
  return image.toFormat(target.format, ENCODE[target.format]).toBuffer();
}

/**
 * The placeholder for a picture that cannot be had: the logo (an SVG) centred on the site's paper
 * colour, at the variant's size and in its format.
 */
export async function renderPlaceholder(logoSvg: Buffer, target: { width: number; height: number; format: VariantFormat }): Promise<Buffer> {
  const side = Math.round(target.height * 0.4);
  const sharp = await loadSharp();
  const logo = await sharp(logoSvg, { density: 300 }).resize(side, side, { fit: "contain", background: { r: 0, g: 0, b: 0, alpha: 0 } }).png().toBuffer();
  return sharp({ create: { width: target.width, height: target.height, channels: 3, background: "#ece4d3" } })
    .composite([{ input: logo, gravity: "centre" }])
    .toFormat(target.format, ENCODE[target.format])
    .toBuffer();
}
