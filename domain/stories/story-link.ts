// Free of Node modules: the back office's list (in the browser too) and the editorial rules share it.

/** The address a story links to: where it was found, else the one an editor gave it. */
export function storyLink(story: { originalUrl: string | null; sourceUrl: string | null }): string | null {
  return story.originalUrl ?? story.sourceUrl;
}
