import { Form, Link } from "react-router";
import { STATUS_FILTERS, type StatusFilter } from "~/domain/stories/admin-list";

const FILTER_LABELS: Record<StatusFilter, string> = {
  all: "All Stories",
  published: "Published",
  pending: "Pending",
  rejected: "Rejected Stories",
};

/** The search box and the status filter buttons of spec section 2. */
export function StoryFilters({ filter, query }: { filter: StatusFilter; query: string }) {
  return (
    <>
      <Form method="get" className="mt-4 flex flex-wrap gap-2" role="search">
        <input type="hidden" name="status" value={filter} />
        <label htmlFor="story-search" className="sr-only">
          Search stories
        </label>
        <input id="story-search" name="q" type="search" defaultValue={query} placeholder="Search stories..." className="min-w-0 flex-1 rounded-full border-2 border-ink bg-white px-4 py-2" />
        <button type="submit" className="rounded-full border-2 border-ink px-4 py-2 font-bold">
          Search
        </button>
      </Form>
      <nav aria-label="Filter stories" className="mt-4 flex flex-wrap gap-2">
        {STATUS_FILTERS.map((f) => (
          <Link
            key={f}
            to={`?status=${f}${query ? `&q=${encodeURIComponent(query)}` : ""}`}
            aria-current={f === filter ? "page" : undefined}
            className={`rounded-full border-2 border-ink px-4 py-1.5 text-sm font-bold ${f === filter ? "bg-ink text-acid" : "bg-white hover:bg-acid"}`}
          >
            {FILTER_LABELS[f]}
          </Link>
        ))}
      </nav>
    </>
  );
}

const bulkButton = "rounded-full border-2 border-ink px-3 py-1 font-bold hover:bg-acid disabled:opacity-40";

/** The count line: select all on the page, publish or reject the selection, and the shortcuts link. */
export function BulkBar({
  total,
  showSelection,
  allSelected,
  onSelectAll,
  selectedCount,
  busy,
  onReview,
  onHelp,
}: {
  total: number;
  showSelection: boolean;
  allSelected: boolean;
  onSelectAll: (checked: boolean) => void;
  selectedCount: number;
  busy: boolean;
  onReview: (intent: "bulk-publish" | "bulk-reject") => void;
  onHelp: () => void;
}) {
  return (
    <div className="mt-4 flex flex-wrap items-center gap-3 text-sm">
      <span className="text-ink/70">
        {total} {total === 1 ? "story" : "stories"}
      </span>
      {showSelection ? (
        <>
          <label className="flex items-center gap-2 font-semibold">
            <input type="checkbox" checked={allSelected} onChange={(e) => onSelectAll(e.target.checked)} className="h-4 w-4" />
            Select all on this page
          </label>
          <button type="button" disabled={selectedCount === 0 || busy} onClick={() => onReview("bulk-publish")} className={bulkButton}>
            Publish selected ({selectedCount})
          </button>
          <button type="button" disabled={selectedCount === 0 || busy} onClick={() => onReview("bulk-reject")} className={bulkButton}>
            Reject selected ({selectedCount})
          </button>
        </>
      ) : null}
      <button type="button" onClick={onHelp} className="ml-auto font-semibold text-ufo underline">
        Keyboard shortcuts (?)
      </button>
    </div>
  );
}
