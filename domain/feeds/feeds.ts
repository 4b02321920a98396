import type { CategoriesRepo } from "~/db/repos/categories.repo";
import type { PublicStoriesRepo } from "~/db/repos/public-stories.repo";
import { toPublicStory } from "~/domain/stories/public-story";
import { buildRss, storyPageUrl } from "./rss";
import { buildNewsSitemap, buildSitemapIndex, buildUrlset, STORIES_PER_SITEMAP } from "./sitemap";

// The machine-readable outputs of the public site: RSS feeds, sitemaps and robots.txt. Every story
// in them comes from the public stories repository, which only ever returns published stories.

export const SITE_NAME = "Oddwire";
export const SITE_DESCRIPTION = "The strangest true stories of the day, each linked to its original source.";
export const RSS_ITEMS = 50;
/** Google News reads articles of the last two days, at most 1,000 per news sitemap. */
export const NEWS_WINDOW_MS = 48 * 3_600_000;
export const NEWS_MAX_ITEMS = 1_000;
/** The largest story id (stories.id is a PostgreSQL integer). */
const MAX_STORY_ID = 2_147_483_647;

/** The site's static public pages, as listed on /sitemap. */
export const STATIC_PAGES = [
  "/",
  "/sitemap",
  "/contact-us",
  "/terms-of-service",
  "/privacy-policy",
  "/cookie-policy",
  "/accessibility-statement",
] as const;

export type FeedDeps = {
  publicStories: Pick<PublicStoriesRepo, "latestForFeed" | "sitemapRange" | "sitemapRanges">;
  categories: Pick<CategoriesRepo, "listAll" | "findBySlug">;
};

const categoryUrl = (siteUrl: string, slug: string) => `${siteUrl}/category/${encodeURIComponent(slug)}`;

/** The site-wide RSS feed: the latest 50 published stories. */
export async function siteRss(deps: FeedDeps, siteUrl: string): Promise<string> {
  const stories = await deps.publicStories.latestForFeed({ limit: RSS_ITEMS });
  return buildRss({
    siteUrl,
    title: SITE_NAME,
    description: SITE_DESCRIPTION,
    selfUrl: `${siteUrl}/rss.xml`,
    link: `${siteUrl}/`,
    items: stories.map(toPublicStory),
  });
}

/** One category's RSS feed: its latest 50 published stories; null for an unknown category. */
export async function categoryRss(deps: FeedDeps, siteUrl: string, slug: string): Promise<string | null> {
  const category = await deps.categories.findBySlug(slug);
  if (!category) return null;
  const stories = await deps.publicStories.latestForFeed({ limit: RSS_ITEMS, categoryId: category.id });
  const link = categoryUrl(siteUrl, category.slug);
  return buildRss({
    siteUrl,
    title: `${SITE_NAME}: ${category.name}`,
    description: `The latest ${category.name} stories on ${SITE_NAME}.`,
    selfUrl: `${link}/rss.xml`,
    link,
    items: stories.map(toPublicStory),
  });
}

/** The sitemap index: the pages sitemap, each story sitemap that lists a story, and the news sitemap. */
export async function sitemapIndex(deps: FeedDeps, siteUrl: string, pageSize: number = STORIES_PER_SITEMAP): Promise<string> {
  const storyPages = await deps.publicStories.sitemapRanges(pageSize);
  return buildSitemapIndex({
    siteUrl,
    sitemaps: [
      { loc: `${siteUrl}/sitemaps/pages.xml` },
      ...storyPages.map((n) => ({ loc: `${siteUrl}/sitemaps/stories/${n}.xml` })),
      { loc: `${siteUrl}/sitemaps/news.xml` },
    ],
  });
}

/** The sitemap of pages that are not stories: home, site map, contact and legal pages, every category. */
export async function pagesSitemap(deps: FeedDeps, siteUrl: string): Promise<string> {
  const categories = await deps.categories.listAll();
  return buildUrlset({
    urls: [
      ...STATIC_PAGES.map((path) => ({ loc: `${siteUrl}${path}` })),
      ...categories.map((c) => ({ loc: categoryUrl(siteUrl, c.slug) })),
    ],
  });
}

/**
 * Page `n` (from 1) of the story sitemaps: the published stories with ids in ((n-1)*pageSize,
 * n*pageSize], each with its last change, so a story keeps its page whatever happens to others;
 * null when that range has no published story.
 */
export async function storiesSitemap(
  deps: FeedDeps,
  siteUrl: string,
  n: number,
  pageSize: number = STORIES_PER_SITEMAP,
): Promise<string | null> {
  if (!Number.isSafeInteger(n) || n < 1) return null;
  const afterId = (n - 1) * pageSize;
  // Ids are PostgreSQL integers: a range past them holds nothing (and could not be a query parameter).
  if (afterId >= MAX_STORY_ID) return null;
  const rows = await deps.publicStories.sitemapRange({ afterId, throughId: Math.min(n * pageSize, MAX_STORY_ID) });
  if (rows.length === 0) return null;
  return buildUrlset({ urls: rows.map((r) => ({ loc: storyPageUrl(siteUrl, r.slug), lastmod: r.updatedAt })) });
}

/** The Google News sitemap: stories published in the 48 hours before `now`, at most 1,000. */
export async function newsSitemap(deps: FeedDeps, siteUrl: string, now: Date): Promise<string> {
  const since = new Date(now.getTime() - NEWS_WINDOW_MS);
  const stories = await deps.publicStories.latestForFeed({ limit: NEWS_MAX_ITEMS, since });
  return buildNewsSitemap({
    siteUrl,
    publicationName: SITE_NAME,
    language: "en",
    // A story dated in the future is not news yet.
    items: stories.flatMap((s) =>
      s.publishDate && s.publishDate <= now ? [{ loc: storyPageUrl(siteUrl, s.slug), title: s.title, publishDate: s.publishDate }] : [],
    ),
  });
}

/** Each feed document's content type (caching is the public page cache's, like every public page). */
export const FEED_CONTENT_TYPE = {
  rss: "application/rss+xml; charset=utf-8",
  xml: "application/xml; charset=utf-8",
  text: "text/plain; charset=utf-8",
} as const;
