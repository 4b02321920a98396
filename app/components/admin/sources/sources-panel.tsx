import { Form, Link, useNavigation } from "react-router";
import { SearchIcon } from "~/app/components/icons";
import { plural } from "~/app/lib/format";
import { inTrouble } from "~/domain/sources/source-health";
import type { SourceView } from "~/domain/sources/sources";
import { OpmlTools } from "./opml-tools";
import { SourceCard } from "./source-card";
import { inputClass } from "./ui";

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
  const navigation = useNavigation();
  const searching = navigation.state === "loading" && navigation.location.pathname === "/admin/sources" && new URLSearchParams(navigation.location.search).get("q") !== (q || null);
  return (
    <>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <Form method="get" role="search" className="flex w-full min-w-0 gap-2 lg:w-auto lg:max-w-md lg:flex-1">
          <label htmlFor="source-search" className="sr-only">
            Search sources
          </label>
          <div className="relative min-w-0 flex-1">
            <SearchIcon className="pointer-events-none absolute top-1/2 left-3 h-4 w-4 -translate-y-1/2 text-ink/60" />
            <input id="source-search" name="q" type="search" defaultValue={q} key={q} placeholder="Search sources..." className={`${inputClass} rounded-full pl-9`} />
          </div>
          <button type="submit" className="rounded-full border-2 border-ink bg-white px-4 py-2 font-bold hover:bg-acid">
            Search
          </button>
        </Form>
        <OpmlTools />
      </div>
      <p className="mt-4 text-sm text-ink/70" aria-live="polite">
        {searching ? "Searching..." : `${plural(sources.length, "source", "sources")}${troubled ? " in trouble" : ""}${q ? ` matching "${q}"` : ""}`}
        {!searching && troubled ? (
          <>
            {" · "}
            <Link to={q ? `?q=${encodeURIComponent(q)}` : "?"} className="font-bold text-ufo underline">
              Show all sources
            </Link>
          </>
        ) : null}
        {!searching && !troubled && inTroubleCount > 0 ? (
          <>
            {" · "}
            <Link to={`?trouble=1${q ? `&q=${encodeURIComponent(q)}` : ""}`} className="font-bold text-alarm-ink underline">
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
