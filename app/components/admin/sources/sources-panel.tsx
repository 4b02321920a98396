import { Link } from "react-router";
import { FilterBar } from "~/app/components/admin/filter-bar";
import { plural } from "~/app/lib/format";
import { usePageLoading } from "~/app/lib/use-page-loading";
import { inTrouble } from "~/domain/sources/source-health";
import type { SourceView } from "~/domain/sources/sources";
import { OpmlTools } from "./opml-tools";
import { SourceCard } from "./source-card";
import { SOURCE_LIST, SOURCES_PATH } from "./source-list-query";

/**
 * The Sources tab: search, OPML tools, the count line (with how many sources are in trouble, and a
 * way to list only those) and the cards.
 */
export function SourcesPanel({
  sources,
  categories,
  q,
  troubled,
  onEdit,
}: {
  sources: SourceView[];
  categories: { id: number; name: string }[];
  q: string;
  troubled: boolean;
  onEdit: (source: SourceView) => void;
}) {
  const inTroubleCount = sources.filter(inTrouble).length;
  const query = { q, troubled };
  // Switching tabs loads this path too, but not a new list: only a change of the filters is a search.
  const loading = usePageLoading(SOURCES_PATH);
  const searching = loading !== null && SOURCE_LIST.href(SOURCE_LIST.read(new URLSearchParams(loading.search))) !== SOURCE_LIST.href(query);
  return (
    <>
      <FilterBar label="Sources" idPrefix="source" className="" query={query} list={SOURCE_LIST} search={{ field: "q", label: "Search sources", placeholder: "Search sources..." }} selects={[]}>
        <OpmlTools />
      </FilterBar>
      <p className="mt-4 text-sm text-ink/70" aria-live="polite">
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
      {sources.length === 0 ? (
        <p className="mt-4 rounded-2xl border-2 border-dashed border-ink/40 p-10 text-center font-semibold">No sources found matching your criteria</p>
      ) : (
        <ul className={`mt-3 grid gap-4 xl:grid-cols-2 ${searching ? "opacity-60" : ""}`}>
          {sources.map((source) => (
            <SourceCard
              key={source.id}
              source={source}
              categoryName={categories.find((c) => c.id === source.defaultCategoryId)?.name ?? null}
              onEdit={() => onEdit(source)}
            />
          ))}
        </ul>
      )}
    </>
  );
}
