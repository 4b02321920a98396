import { formatCount } from "~/app/lib/format";
import { Link } from "react-router";
import { FilterBar } from "~/app/components/admin/filter-bar";
import type { CategoryOption } from "~/app/components/admin/category-options";
import { choiceFilter, listQuery, ownerFilter, pageFilter, textFilter, type ListQuery } from "~/app/lib/list-query";
import { ADMIN_SORTS, STATUS_FILTERS, type AdminListQuery, type AdminSort, type ListOrder, type StatusFilter } from "~/domain/stories/admin-list";

const FILTER_LABELS: Record<StatusFilter, string> = {
  all: "All Stories",
  published: "Published",
  pending: "Pending",
  rejected: "Rejected Stories",
};

const SORT_LABELS: Record<Exclude<AdminSort, "auto">, string> = {
  likely: "Most likely",
  newest: "Newest first",
  oldest: "Oldest first",
  source: "Source (A-Z)",
};

/** The story list's filters in the address (?status=&q=&category=&source=&sort=&page=); a filter's change goes back to page 1. */
export const STORY_LIST = listQuery(
  {
    status: choiceFilter("status", STATUS_FILTERS, "all"),
    search: textFilter("q"),
    categoryId: ownerFilter("category"),
    sourceId: ownerFilter("source"),
    sort: choiceFilter("sort", ADMIN_SORTS, "auto"),
    page: pageFilter(),
  },
  { resetPage: "page" },
) satisfies ListQuery<AdminListQuery>;

/**
 * The search box, the category and source filters and the order, on the back office's one filter bar.
 * Rejected stories keep no category: the category filter does not apply to them.
 */
export function StoryToolbar({
  query,
  order,
  categories,
  sources,
}: {
  query: AdminListQuery;
  /** The order the list is in (the editor's choice, or the page's own when none is made). */
  order: ListOrder;
  categories: CategoryOption[];
  sources: { id: number; name: string }[];
}) {
  return (
    <FilterBar
      label="Stories"
      idPrefix="story"
      className="mt-3"
      query={{ ...query, sort: order }}
      list={STORY_LIST}
      search={{ field: "search", label: "Search stories", placeholder: "Search stories..." }}
      selects={[
        {
          field: "categoryId",
          label: "Category",
          hidden: query.status === "rejected",
          options: [{ value: "", label: "All categories" }, { value: "none", label: "Uncategorized" }, ...categories.map((c) => ({ value: String(c.id), label: c.name }))],
        },
        {
          field: "sourceId",
          label: "Source",
          options: [{ value: "", label: "All sources" }, { value: "none", label: "No source (added by hand)" }, ...sources.map((s) => ({ value: String(s.id), label: s.name }))],
        },
        {
          field: "sort",
          label: "Sort",
          width: "narrow",
          // Only pending stories have a score to be ordered by.
          options: Object.entries(SORT_LABELS)
            .filter(([value]) => value !== "likely" || query.status === "pending")
            .map(([value, label]) => ({ value, label })),
        },
      ]}
    />
  );
}

/** The status filter buttons, each with how many stories it would show. */
export function StatusButtons({ query, counts }: { query: AdminListQuery; counts: Record<StatusFilter, number> }) {
  return (
    <nav aria-label="Filter stories" className="flex flex-wrap gap-1">
      {STATUS_FILTERS.map((f) => (
        <Link
          key={f}
          to={STORY_LIST.href(query, { status: f })}
          aria-current={f === query.status ? "page" : undefined}
          className={`inline-flex h-8 items-center gap-1 rounded-full border-2 border-ink pr-1 pl-2.5 text-sm font-bold ${f === query.status ? "bg-ink text-acid" : "bg-white hover:bg-acid"}`}
        >
          {FILTER_LABELS[f]}{" "}
          <span className={`min-w-6 rounded-full px-1.5 text-center text-xs tabular-nums ${f === query.status ? "bg-acid text-ink" : "bg-paper-deep"}`}>
            {formatCount(counts[f])}
          </span>
        </Link>
      ))}
    </nav>
  );
}

const bulkButton = "h-7 rounded-full border-2 border-ink bg-white px-2.5 text-sm font-bold hover:bg-acid disabled:opacity-40";

/** Select all on the page, and publish or reject the selection. */
export function BulkBar({
  allSelected,
  onSelectAll,
  selectedCount,
  busy,
  onReview,
}: {
  allSelected: boolean;
  onSelectAll: (checked: boolean) => void;
  selectedCount: number;
  busy: boolean;
  onReview: (intent: "bulk-publish" | "bulk-reject") => void;
}) {
  return (
    <div className="flex flex-wrap items-center gap-1.5 text-sm">
      <label className="mr-auto flex items-center gap-2.5 font-semibold">
        <input type="checkbox" checked={allSelected} onChange={(e) => onSelectAll(e.target.checked)} className="h-4 w-4" />
        Select all on this page
      </label>
      <button type="button" disabled={selectedCount === 0 || busy} onClick={() => onReview("bulk-publish")} className={bulkButton}>
        Publish selected ({selectedCount})
      </button>
      <button type="button" disabled={selectedCount === 0 || busy} onClick={() => onReview("bulk-reject")} className={bulkButton}>
        Reject selected ({selectedCount})
      </button>
    </div>
  );
}
