import { readFileSync } from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { PROJECT_ROOT } from "~/lib/project-root";

// Pictures for the image tests, made on the fly so no binary fixture is committed.

/** The product logo the placeholder is drawn from. */
export const LOGO_SVG = readFileSync(path.join(PROJECT_ROOT, "public", "logo.svg"));

/**
 * A photo-like JPEG: smooth colour fields from a small random grid, blurred, with grain on top
 * (seeded, so every run has the same bytes). A flat test card would flatter the encoders.
 */
export async function photoJpeg(width: number, height: number, seed = 1): Promise<Buffer> {
  let state = seed;
  const random = () => {
    state = (Math.imul(state, 1103515245) + 12345) & 0x7fffffff;
    return state / 0x7fffffff;
  };
  const gridWidth = Math.max(2, Math.round(width / 10));
  const gridHeight = Math.max(2, Math.round(height / 10));
  const grid = Buffer.alloc(gridWidth * gridHeight * 3);
  for (let i = 0; i < grid.length; i++) grid[i] = Math.floor(random() * 256);
  const smooth = await sharp(grid, { raw: { width: gridWidth, height: gridHeight, channels: 3 } })
    .resize(width, height, { kernel: "cubic" })
    .blur(6)
    .raw()
    .toBuffer();
  for (let i = 0; i < smooth.length; i++) smooth[i] = Math.max(0, Math.min(255, smooth[i]! + Math.round((random() - 0.5) * 24)));
  return sharp(smooth, { raw: { width, height, channels: 3 } }).jpeg({ quality: 85 }).toBuffer();
}

/** A PNG with a transparent half. */
export function transparentPng(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 4, background: { r: 200, g: 30, b: 30, alpha: 0.5 } } })
    .png()
    .toBuffer();
}
