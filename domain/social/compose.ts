// The Facebook post composition rule and its limits. Pure: the composer in the
// browser uses it for its first draft, the server and the CLI for theirs.

/** Characters of the summary a post carries. */
export const SUMMARY_EXCERPT = 200;
/** The three fixed hashtags every post ends with. */
export const HASHTAGS = ["#WeirdNews", "#Oddwire", "#StrangeButTrue"] as const;

export type ComposableStory = { title: string; summary: string | null; slug: string; categorySlug: string | null };

const trimSite = (siteUrl: string) => siteUrl.replace(/\/+$/, "");

/** The link a post sends: the story's own page on the site. */
export function storyLink(siteUrl: string, slug: string): string {
  return `${trimSite(siteUrl)}/story/${encodeURIComponent(slug)}`;
}

/** The summary's first 200 characters, with an ellipsis when it was longer. */
export function summaryExcerpt(summary: string | null): string {
  const text = (summary ?? "").replace(/\s+/g, " ").trim();
  if (text.length <= SUMMARY_EXCERPT) return text;
  return `${text.slice(0, SUMMARY_EXCERPT).trimEnd()}…`;
}

/**
 * The message: the title, the summary's first 200 characters (an ellipsis when longer), a 'Read more'
 * line to the story's category page (the home page without one), and the three hashtags.
 */
export function composeMessage(story: ComposableStory, siteUrl: string): string {
  const site = trimSite(siteUrl);
  const readMore = story.categorySlug ? `${site}/category/${encodeURIComponent(story.categorySlug)}` : `${site}/`;
  const excerpt = summaryExcerpt(story.summary);
  return [story.title.trim(), ...(excerpt ? [excerpt] : []), `Read more: ${readMore}`, HASHTAGS.join(" ")].join("\n\n");
}
