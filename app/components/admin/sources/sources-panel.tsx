import { Link } from "react-router";
import { FilterBar } from "~/app/components/admin/filter-bar";
import { plural } from "~/app/lib/format";
import { usePageLoading } from "~/app/lib/use-page-loading";
import { inTrouble } from "~/domain/sources/source-health";
import type { SourceView } from "~/domain/sources/sources";
import { SOURCE_SORTS, type SourceSort, type SourceYield } from "~/domain/triage/yield";
import { OpmlTools } from "./opml-tools";
import { SourceCard } from "./source-card";
import { SOURCE_LIST, SOURCES_PATH, YIELD_WINDOW_PARAMS, type SourceListQuery } from "./source-list-query";

const SORT_LABELS: Record<SourceSort, string> = { newest: "Newest first", "best-yield": "Best yield", "worst-yield": "Worst yield" };
const WINDOW_LABELS: Record<SourceListQuery["window"], string> = { "7": "7 days", "30": "30 days", "90": "90 days" };

/**
 * The Sources tab: search, the yield's window and the order, OPML tools, the count line (with how
 * many sources are in trouble, and a way to list only those), what the yield figures count, and the cards.
 */
export function SourcesPanel({
  sources,
  yields,
  categories,
  query,
  onEdit,
}: {
  sources: SourceView[];
  yields: SourceYield[];
  categories: { id: number; name: string }[];
  query: SourceListQuery;
  onEdit: (source: SourceView) => void;
}) {
  const { q, troubled } = query;
  const inTroubleCount = sources.filter(inTrouble).length;
  const yieldOf = new Map(yields.map((y) => [y.sourceId, y]));
  // Switching tabs loads this path too, but not a new list: only a change of the filters is a search.
  const loading = usePageLoading(SOURCES_PATH);
  const searching = loading !== null && SOURCE_LIST.href(SOURCE_LIST.read(new URLSearchParams(loading.search))) !== SOURCE_LIST.href(query);
  return (
    <>
      <FilterBar
        label="Sources"
        idPrefix="source"
        className=""
        query={query}
        list={SOURCE_LIST}
        search={{ field: "q", label: "Search sources", placeholder: "Search sources..." }}
        selects={[
          { field: "window", label: "Yield over", width: "narrow", options: YIELD_WINDOW_PARAMS.map((value) => ({ value, label: WINDOW_LABELS[value] })) },
          { field: "sort", label: "Sort", width: "narrow", options: SOURCE_SORTS.map((value) => ({ value, label: SORT_LABELS[value] })) },
        ]}
      />
      {/* The OPML tools sit on the count's line: beside the search and two selects they would push one onto a line of its own. */}
      <div className="mt-4 flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm text-ink/70" aria-live="polite">
          {searching ? "Searching..." : `${plural(sources.length, "source", "sources")}${troubled ? " in trouble" : ""}${q ? ` matching "${q}"` : ""}`}
          {!searching && troubled ? (
            <>
              {" · "}
              <Link to={SOURCE_LIST.href(query, { troubled: false })} className="font-bold text-ufo underline">
                Show all sources
              </Link>
            </>
          ) : null}
          {!searching && !troubled && inTroubleCount > 0 ? (
            <>
              {" · "}
              <Link to={SOURCE_LIST.href(query, { troubled: true })} className="font-bold text-alarm-ink underline">
                {inTroubleCount} in trouble: show only {inTroubleCount === 1 ? "it" : "them"}
              </Link>
            </>
          ) : null}
        </p>
        <OpmlTools />
      </div>
      <p id="yield-note" className="mt-1 text-xs text-ink/70">
        Yield, last {WINDOW_LABELS[query.window]}: items that reached Pending (the desk&apos;s rejections included, by hand or as
        duplicates; items filtered by keywords or already known are not). Publish rate = published ÷ items brought in.
      </p>
      {sources.length === 0 ? (
        <p className="mt-4 rounded-2xl border-2 border-dashed border-ink/40 p-10 text-center font-semibold">No sources found matching your criteria</p>
      ) : (
        <ul className={`mt-3 grid gap-4 xl:grid-cols-2 ${searching ? "opacity-60" : ""}`}>
          {sources.map((source) => (
            <SourceCard
              key={source.id}
              source={source}
              categoryName={categories.find((c) => c.id === source.defaultCategoryId)?.name ?? null}
              yieldFigures={yieldOf.get(source.id) ?? null}
              days={Number(query.window)}
              onEdit={() => onEdit(source)}
            />
          ))}
        </ul>
      )}
    </>
  );
}
