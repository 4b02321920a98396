import type { Repos } from "~/db/repos";
import { dateOf, systemClock, type Clock } from "~/lib/clock";
import { DEFAULT_CATEGORIES } from "~/domain/categories/default-categories";
import { normalizeUrl, rejectionContentHash } from "~/lib/normalize-url";
import { ensureUser } from "~/domain/users/users";
import { DEMO_ADMIN, DEMO_QUEUE_SOURCE, DEMO_QUEUED_URLS, DEMO_SOURCES, demoStories } from "./demo-content";

export type SeedDemoResult = {
  categories_added: number;
  sources_added: number;
  stories_added: number;
  rejected_added: number;
  queued_urls_added: number;
  admin: { email: string; password: string; created: boolean };
};

/**
 * Loads the demo content and the demo admin with the given password; idempotent: a second run adds
 * nothing (the admin's password is set to `adminPassword` again, so the printed one always works).
 */
export async function seedDemo(deps: { repos: Repos; now?: Clock }, input: { adminPassword: string }): Promise<SeedDemoResult> {
  const { repos } = deps;
  const now = dateOf(deps.now ?? systemClock);

  const categoriesAdded = await repos.categories.insertMissing(
    DEFAULT_CATEGORIES.map((c, i) => ({ ...c, displayOrder: i + 1 })),
  );
  const categoryIds = new Map((await repos.categories.listAll()).map((c) => [c.slug, c.id]));

  let sourcesAdded = 0;
  const sourceIds = new Map<string, number>();
  for (const { domain: _domain, ...source } of DEMO_SOURCES) {
    const existing = await repos.sources.findByName(source.name);
    const row = existing ?? (await repos.sources.insert(source));
    if (!existing) sourcesAdded++;
    sourceIds.set(source.name, row.id);
  }

  const stories = demoStories(now).map((story) => {
    const url = normalizeUrl(story.originalUrl);
    if (!url.ok) throw new Error(`demo story URL is invalid: ${story.originalUrl}`);
    return { story, url, sourceId: sourceIds.get(story.sourceName) ?? null };
  });

  const storiesAdded = await repos.stories.insertMissing(
    stories
      .filter(({ story }) => story.status !== "rejected")
      .map(({ story, url, sourceId }) => ({
        title: story.title,
        summary: story.summary,
        content: story.content,
        imageUrl: story.imageUrl,
        originalUrl: story.originalUrl,
        sourceUrl: story.originalUrl,
        normalizedUrl: url.normalized,
        urlHash: url.hash,
        slug: story.slug,
        publishDate: story.status === "published" ? story.publishDate : null,
        isFeatured: story.isFeatured,
        status: story.status,
        categoryId: categoryIds.get(story.categorySlug) ?? null,
        sourceId,
        createdAt: story.createdAt,
        updatedAt: story.updatedAt,
      })),
  );

  const rejectedAdded = await repos.stories.insertMissingRejections(
    stories
      .filter(({ story }) => story.status === "rejected")
      .map(({ story, url, sourceId }) => ({
        sourceId,
        title: story.title,
        originalUrl: story.originalUrl,
        normalizedUrl: url.normalized,
        urlHash: url.hash,
        contentHash: rejectionContentHash({ title: story.title, url: story.originalUrl, sourceId }),
        rejectionReason: "manual_rejection",
        rejectionDetails: {
          rejection_method: "admin_manual",
          original_story_id: null,
          rejected_by_admin: true,
          rejected_at: story.createdAt.toISOString(),
        },
        rejectedAt: story.createdAt,
      })),
  );

  const queueSource = DEMO_SOURCES.find((s) => s.name === DEMO_QUEUE_SOURCE)!;
  const queueSourceId = sourceIds.get(DEMO_QUEUE_SOURCE)!;
  const queuedUrlsAdded = await repos.crawl.enqueue(
    DEMO_QUEUED_URLS.map((row) => {
      const url = `${queueSource.websiteUrl}${row.path}`;
      const normalized = normalizeUrl(url);
      if (!normalized.ok) throw new Error(`demo queue URL is invalid: ${url}`);
      return {
        url,
        normalizedUrl: normalized.normalized,
        urlHash: normalized.hash,
        lastmod: new Date(now.getTime() - row.hoursAgo * 3_600_000),
        sourceId: queueSourceId,
        status: row.status,
        error: row.error,
        attempts: row.attempts,
      };
    }),
  );

  const admin = await ensureUser({ users: repos.users }, { ...DEMO_ADMIN, password: input.adminPassword, admin: true });

  return {
    categories_added: categoriesAdded,
    sources_added: sourcesAdded,
    stories_added: storiesAdded,
    rejected_added: rejectedAdded,
    queued_urls_added: queuedUrlsAdded,
    admin: { email: DEMO_ADMIN.email, password: input.adminPassword, created: admin.created },
  };
}
