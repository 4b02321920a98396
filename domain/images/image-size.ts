import type { Repos } from "~/db/repos";
import { imageOrigin } from "~/lib/story-image";

/**
 * Keeps the size of a story's picture measured when the site fetched it, so a picture too small to
 * share is known (lib/story-image.ts shares the story's card instead). Only for the picture the
 * story has now: a size measured for an address the story no longer uses is dropped. True when a
 * new size was written.
 */
export async function recordMeasuredImageSize(
  deps: { repos: Pick<Repos, "images"> },
  measured: { storyId?: number; url: string; width: number; height: number },
): Promise<boolean> {
  if (measured.storyId === undefined) return false;
  const story = await deps.repos.images.imageOf(measured.storyId);
  const origin = imageOrigin(story?.imageUrl);
  if (!story?.imageUrl || origin?.kind !== "remote" || origin.url !== measured.url) return false;
  if (story.width === measured.width && story.height === measured.height) return false;
  return deps.repos.images.recordImageSize(measured.storyId, story.imageUrl, { width: measured.width, height: measured.height });
}
