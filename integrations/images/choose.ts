import type { ProbedImage } from "./probe";

/** An image at least this wide is high-resolution: a story that has one needs no better. */
export const HIGH_RESOLUTION_WIDTH = 1200;

/** Below this on either side an image is a tracking pixel, an icon or a thumbnail (and so under 200 x 200 in area). */
const MIN_SIDE = 200;
/** Wider than 4:1 is a banner; taller than 1:3 a strip or a skyscraper ad. */
const MAX_WIDTH_RATIO = 4;
const MAX_HEIGHT_RATIO = 3;
/** A GIF smaller than this is an animation, a badge or a spacer rather than a story's picture. */
const MIN_GIF_SIDE = 400;
/** Formats a browser shows and the resizer reads; the rest (TIFF, PSD, HEIC, BMP, icons...) cannot illustrate a story. */
const STORY_TYPES = new Set(["jpg", "png", "webp", "avif", "gif"]);
/** Words in a file name that mark a site's furniture rather than a story's picture. */
const FURNITURE_WORDS = new Set(["logo", "icon", "favicon", "avatar", "sprite", "placeholder", "blank", "spacer", "pixel", "badge"]);

type Judged = { width: number; height: number; type: string; url: string };

/** Whether a measured image can illustrate a story, and if not, why (tracking pixel, icon, banner, logo...). */
export function judgeImage(image: Judged): { ok: true } | { ok: false; reason: string } {
  const { width, height, type } = image;
  const size = `${width}x${height}`;
  if (type === "svg") return { ok: false, reason: "an SVG, which is a logo or an icon" };
  if (!STORY_TYPES.has(type)) return { ok: false, reason: `a ${type || "unknown"} file, not a web picture` };
  if (!(width > 0 && height > 0)) return { ok: false, reason: "no measured size" };
  if (Math.min(width, height) < MIN_SIDE) return { ok: false, reason: `too small (${size}): a tracking pixel, an icon or a thumbnail` };
  if (width > height * MAX_WIDTH_RATIO) return { ok: false, reason: `a banner (${size}, wider than 4:1)` };
  if (height > width * MAX_HEIGHT_RATIO) return { ok: false, reason: `a strip (${size}, taller than 1:3)` };
  if (type === "gif" && Math.min(width, height) < MIN_GIF_SIDE) return { ok: false, reason: `a small GIF (${size}): an animation or a badge` };
  const word = furnitureWord(image.url);
  if (word) return { ok: false, reason: `its file name says "${word}"` };
  return { ok: true };
}

/** The largest acceptable image by area; on a tie, the earlier one (the page's better-placed candidate). */
export function chooseBest(probed: ProbedImage[]): ProbedImage | null {
  let best: ProbedImage | null = null;
  for (const image of probed) {
    if (!judgeImage(image).ok) continue;
    if (!best || image.width * image.height > best.width * best.height) best = image;
  }
  return best;
}

/** The first furniture word in the URL's file name ("site-logo@2x.png", "siteLogo.png", "favicon.ico"), plurals too. */
function furnitureWord(url: string): string | null {
  let name: string;
  try {
    const path = new URL(url).pathname;
    name = decodeURIComponent(path.slice(path.lastIndexOf("/") + 1));
  } catch {
    return null;
  }
  const words = name.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase().split(/[^a-z]+/);
  for (const word of words) {
    const singular = word.endsWith("s") ? word.slice(0, -1) : word;
    if (FURNITURE_WORDS.has(word)) return word;
    if (FURNITURE_WORDS.has(singular)) return singular;
  }
  return null;
}
