import type { StoriesRepo } from "~/db/repos/stories.repo";
import { toPublicStory, type PublicStory } from "./public-story";

export const LATEST_STORIES_LIMIT = 24;

/** The newest published stories for the home page, in their public shape. */
export async function listLatestStories(
  deps: { stories: Pick<StoriesRepo, "listLatestPublished"> },
  limit = LATEST_STORIES_LIMIT,
): Promise<PublicStory[]> {
  const rows = await deps.stories.listLatestPublished(limit);
  return rows.map(toPublicStory);
}
