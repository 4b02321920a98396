import { useRef, useState } from "react";
import { Link, useNavigate } from "react-router";
import { CloseIcon } from "~/app/components/icons";
import { STATUS_FILTERS, type AdminListQuery, type AdminSort, type OwnerFilter, type StatusFilter } from "~/domain/stories/admin-list";
import { CategoryOptions, type CategoryOption } from "~/app/components/admin/category-options";

const FILTER_LABELS: Record<StatusFilter, string> = {
  all: "All Stories",
  published: "Published",
  pending: "Pending",
  rejected: "Rejected Stories",
};

const SORT_LABELS: Record<AdminSort, string> = {
  newest: "Newest first",
  oldest: "Oldest first",
  source: "Source (A-Z)",
};

/** The list's address for a query: only what differs from the defaults, and page 1 unless asked. */
export function listHref(query: AdminListQuery, change: Partial<AdminListQuery> = {}): string {
  const next = { ...query, page: 1, ...change };
  const params = new URLSearchParams();
  if (next.status !== "all") params.set("status", next.status);
  if (next.search) params.set("q", next.search);
  if (next.categoryId !== null) params.set("category", String(next.categoryId));
  if (next.sourceId !== null) params.set("source", String(next.sourceId));
  if (next.sort !== "newest") params.set("sort", next.sort);
  if (next.page > 1) params.set("page", String(next.page));
  const text = params.toString();
  return text ? `?${text}` : "?";
}

const control = "h-9 rounded-full border-2 border-ink bg-white px-3 text-sm";

const ownerOf = (value: string): OwnerFilter => (value === "" ? null : value === "none" ? "none" : Number(value));

/**
 * The search box (with a clear button), the category and source filters and the order. The selects
 * apply as soon as they change; the text on Enter or Search.
 */
export function StoryToolbar({
  query,
  categories,
  sources,
}: {
  query: AdminListQuery;
  categories: CategoryOption[];
  sources: { id: number; name: string }[];
}) {
  const navigate = useNavigate();
  const input = useRef<HTMLInputElement>(null);
  const [text, setText] = useState(query.search);
  // A new search from the address (a link, Back) replaces what was typed.
  const [shown, setShown] = useState(query.search);
  if (shown !== query.search) {
    setShown(query.search);
    setText(query.search);
  }
  // A change applies at once, with whatever is typed in the search box.
  const go = (change: Partial<AdminListQuery>) => navigate(listHref(query, { search: text.trim(), ...change }));
  const rejected = query.status === "rejected";
  return (
    <form
      method="get"
      role="search"
      aria-label="Stories"
      onSubmit={(e) => {
        e.preventDefault();
        go({});
      }}
      className="mt-3 flex flex-wrap items-center gap-2"
    >
      <div className="relative flex min-w-56 flex-1">
        <label htmlFor="story-search" className="sr-only">
          Search stories
        </label>
        <input
          ref={input}
          id="story-search"
          name="q"
          type="search"
          value={text}
          onChange={(e) => setText(e.target.value)}
          placeholder="Search stories..."
          className={`${control} w-full pr-9 [&::-webkit-search-cancel-button]:hidden`}
        />
        {text ? (
          <button
            type="button"
            aria-label="Clear search"
            onClick={() => {
              setText("");
              input.current?.focus();
              if (query.search) navigate(listHref(query, { search: "" }));
            }}
            className="absolute top-1/2 right-2 flex h-6 w-6 -translate-y-1/2 items-center justify-center rounded-full text-ink/70 hover:bg-ink hover:text-acid"
          >
            <CloseIcon className="h-3.5 w-3.5" />
          </button>
        ) : null}
      </div>
      <button type="submit" className="h-9 rounded-full border-2 border-ink px-4 text-sm font-bold hover:bg-acid">
        Search
      </button>
      {/* Rejected stories keep no category: the filter does not apply to them. */}
      {rejected ? null : (
        <>
          <label className="sr-only" htmlFor="story-category">
            Category
          </label>
          <select
            id="story-category"
            name="category"
            value={query.categoryId === null ? "" : String(query.categoryId)}
            onChange={(e) => go({ categoryId: ownerOf(e.target.value) })}
            className={`${control} max-w-44`}
          >
            <option value="">All categories</option>
            <option value="none">Uncategorized</option>
            <CategoryOptions categories={categories} />
          </select>
        </>
      )}
      <label className="sr-only" htmlFor="story-source">
        Source
      </label>
      <select id="story-source" name="source" value={query.sourceId === null ? "" : String(query.sourceId)} onChange={(e) => go({ sourceId: ownerOf(e.target.value) })} className={`${control} max-w-44`}>
        <option value="">All sources</option>
        <option value="none">No source (added by hand)</option>
        {sources.map((s) => (
          <option key={s.id} value={s.id}>
            {s.name}
          </option>
        ))}
      </select>
      <label className="sr-only" htmlFor="story-sort">
        Sort
      </label>
      <select id="story-sort" name="sort" value={query.sort} onChange={(e) => go({ sort: e.target.value as AdminSort })} className={control}>
        {Object.entries(SORT_LABELS).map(([value, label]) => (
          <option key={value} value={value}>
            {label}
          </option>
        ))}
      </select>
    </form>
  );
}

/** The status filter buttons of spec section 2, each with how many stories it would show. */
export function StatusButtons({ query, counts }: { query: AdminListQuery; counts: Record<StatusFilter, number> }) {
  return (
    <nav aria-label="Filter stories" className="flex flex-wrap gap-1">
      {STATUS_FILTERS.map((f) => (
        <Link
          key={f}
          to={listHref(query, { status: f })}
          aria-current={f === query.status ? "page" : undefined}
          className={`inline-flex h-8 items-center gap-1 rounded-full border-2 border-ink pr-1 pl-2.5 text-sm font-bold ${f === query.status ? "bg-ink text-acid" : "bg-white hover:bg-acid"}`}
        >
          {FILTER_LABELS[f]}{" "}
          <span className={`min-w-6 rounded-full px-1.5 text-center text-xs tabular-nums ${f === query.status ? "bg-acid text-ink" : "bg-paper-deep"}`}>
            {counts[f].toLocaleString("en-US")}
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
