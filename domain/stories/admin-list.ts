import type { AuditRepo } from "~/db/repos/audit.repo";
import type { CategoriesRepo } from "~/db/repos/categories.repo";
import type { PublicStoriesRepo } from "~/db/repos/public-stories.repo";
import type { SourcesRepo } from "~/db/repos/sources.repo";
import type { AdminListSort, StoriesRepo } from "~/db/repos/stories.repo";
import { searchStories } from "~/domain/public/public-site";
import { storyLink } from "./story-link";

export const STATUS_FILTERS = ["all", "published", "pending", "rejected"] as const;
export type StatusFilter = (typeof STATUS_FILTERS)[number];
/** The orders an editor can choose; "auto" (no choice made) is most likely first on Pending once the desk has a ranking, else newest first. */
export const ADMIN_SORTS = ["auto", "likely", "newest", "oldest", "source"] as const satisfies readonly (AdminListSort | "auto")[];
export type AdminSort = (typeof ADMIN_SORTS)[number];

/** An order a list is read in. */
export type ListOrder = AdminListSort;

/** The order a list is read in. */
export function listOrder(query: Pick<AdminListQuery, "status" | "sort">, hasRanking: boolean): ListOrder {
  if (query.sort !== "auto") return query.sort;
  return query.status === "pending" && hasRanking ? "likely" : "newest";
}
export const ADMIN_PAGE_SIZE = 50;

export type AdminStory = {
  id: number;
  title: string;
  summary: string | null;
  content: string | null;
  imageUrl: string | null;
  sourceUrl: string | null;
  categoryId: number | null;
  /**
   * The category publishing offers first when the story has none: the one the desk's published
   * stories suggest (with `suggestionConfidence`), else its source's default.
   */
  suggestedCategoryId: number | null;
  /** How sure the category suggestion is (0 to 1); null when the choice is the source's default or none. */
  suggestionConfidence: number | null;
  /** How likely the desk is to publish it (0 to 1), by the ranking in use; null before there is one. */
  triageScore: number | null;
  /** Other stories reporting the same event (on the group's row of the Pending list), and why they were grouped. */
  sameStory: { groupId: number; others: { id: number; title: string; sourceName: string | null; status: "published" | "pending"; reason: string | null }[] } | null;
  category: string;
  sourceName: string | null;
  status: "published" | "pending" | "rejected";
  isFeatured: boolean;
  publishDate: string | null;
  /** When the source itself reported the story (the article's or feed item's own date), if it said. */
  sourcePublishedAt: string | null;
  createdAt: string;
  /** Who did what to it, newest first. */
  history: { action: string; by: string | null; at: string }[];
};

/** A rejected story as its list shows it; `note` is what the rejection says beyond its reason: the story it repeats, the editor's words. */
export type RejectedItem = { id: number; title: string; rejectedAt: string; rejectionReason: string; note: string | null; sourceName: string | null };

/** "same story as #12", the reason the editor gave ("Not for this desk"), both, or null. */
export function rejectionNote(details: Record<string, unknown> | null): string | null {
  const parts: string[] = [];
  if (typeof details?.duplicate_of === "number") parts.push(`same story as #${details.duplicate_of}`);
  if (typeof details?.reason === "string" && details.reason.trim()) parts.push(details.reason.trim());
  return parts.length ? parts.join("; ") : null;
}

/** A category or source filter: one of them by id, those without one ("none"), or all (null). */
export type OwnerFilter = number | "none" | null;

/** What the back office's story list shows: one status, text, a category, a source, an order and a page. */
export type AdminListQuery = {
  status: StatusFilter;
  search: string;
  categoryId: OwnerFilter;
  sourceId: OwnerFilter;
  sort: AdminSort;
  page: number;
};

export type AdminListDeps = {
  stories: Pick<StoriesRepo, "adminList" | "adminRejectedList" | "adminCounts" | "sameStoryMembers">;
  audit: Pick<AuditRepo, "forEntities">;
  categories: Pick<CategoriesRepo, "listAll" | "findBySlug">;
  sources: Pick<SourcesRepo, "listNames">;
  publicStories: PublicStoriesRepo;
};

/**
 * The back office's story list: one page of the chosen status with the other filters and order,
 * how many stories each status button would show with those filters, the categories and sources to
 * filter by, and, when a search finds nothing, the public search's 'Did you mean'.
 */
export async function listAdminStories(deps: AdminListDeps, query: AdminListQuery, ranking: { hasRanking?: boolean } = {}) {
  const filter = { search: query.search, categoryId: query.categoryId, sourceId: query.sourceId };
  const order = listOrder(query, ranking.hasRanking ?? false);
  const paging = { sort: order, limit: ADMIN_PAGE_SIZE, offset: (query.page - 1) * ADMIN_PAGE_SIZE };
  const around = () => Promise.all([deps.stories.adminCounts(filter), deps.categories.listAll(), deps.sources.listNames()]);
  const withOptions = async (total: number, [counts, categories, sources]: Awaited<ReturnType<typeof around>>) => {
    // The same correction the public search offers, from the same words.
    const didYouMean = total === 0 && query.search !== "" ? (await searchStories(deps, query.search, 1)).didYouMean : null;
    return {
      total,
      order,
      page: query.page,
      pageCount: Math.max(1, Math.ceil(total / ADMIN_PAGE_SIZE)),
      counts,
      didYouMean,
      categories: categories.map(({ id, name }) => ({ id, name })),
      sources,
    };
  };

  if (query.status === "rejected") {
    const [list, options] = await Promise.all([deps.stories.adminRejectedList({ ...filter, ...paging }), around()]);
    const rejected: RejectedItem[] = list.stories.map((r) => ({
      id: r.id,
      title: r.title,
      rejectedAt: r.rejectedAt.toISOString(),
      rejectionReason: r.rejectionReason,
      note: rejectionNote(r.rejectionDetails),
      sourceName: r.sourceName,
    }));
    return { stories: [] as AdminStory[], rejected, ...(await withOptions(list.total, options)) };
  }
  const [list, options] = await Promise.all([deps.stories.adminList({ ...filter, ...paging, status: query.status }), around()]);
  const groupIds = [...new Set(list.stories.flatMap((s) => (s.status === "pending" && s.sameStoryGroup !== null ? [s.sameStoryGroup] : [])))];
  const [trail, members] = await Promise.all([deps.audit.forEntities("story", list.stories.map((s) => String(s.id))), deps.stories.sameStoryMembers(groupIds)]);
  const sameStoryOf = (s: (typeof list.stories)[number]): AdminStory["sameStory"] => {
    if (s.status !== "pending" || s.sameStoryGroup === null) return null;
    const others = members.filter((m) => m.group === s.sameStoryGroup && m.id !== s.id).map(({ id, title, sourceName, status, reason }) => ({ id, title, sourceName, status, reason }));
    return others.length > 0 ? { groupId: s.sameStoryGroup, others } : null;
  };
  const historyOf = (id: number) =>
    trail.filter((e) => e.entityId === String(id)).map((e) => ({ action: e.action, by: e.actorEmail, at: e.createdAt.toISOString() }));
  const items: AdminStory[] = list.stories.map((s) => ({
    id: s.id,
    title: s.title,
    summary: s.summary,
    content: s.content,
    imageUrl: s.imageUrl,
    sourceUrl: storyLink(s),
    categoryId: s.categoryId,
    suggestedCategoryId: s.categoryId ?? s.suggestedCategoryId ?? s.sourceCategoryId,
    suggestionConfidence: s.categoryId === null && s.suggestedCategoryId !== null ? s.suggestedCategoryConfidence : null,
    triageScore: s.status === "pending" ? s.triageScore : null,
    sameStory: sameStoryOf(s),
    category: s.categoryName ?? "Uncategorized",
    sourceName: s.sourceName,
    status: s.status,
    isFeatured: s.isFeatured,
    publishDate: s.publishDate?.toISOString() ?? null,
    sourcePublishedAt: s.sourcePublishedAt?.toISOString() ?? null,
    createdAt: s.createdAt.toISOString(),
    history: historyOf(s.id),
  }));
  return { stories: items, rejected: [] as RejectedItem[], ...(await withOptions(list.total, options)) };
}
