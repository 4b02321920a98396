import { useState, type FormEvent } from "react";
import { useNavigate } from "react-router";
import { SearchIcon } from "~/app/components/icons";
import type { UrlQueueFilterStatus } from "~/domain/crawl/url-queue";
import { filtersKey, STATUS_LABELS, urlQueSearch, type StatusChoices, type UrlQueFilters } from "./filters";

const labelClass = "text-xs font-bold tracking-wide text-ink/80 uppercase";
const fieldClass = "mt-1 w-full rounded-full border-2 border-ink bg-white px-4 py-2";

/**
 * Source, Status and 'Search URL' (spec section 2). They live in the address, so a reload or a shared
 * link keeps them: a select applies at once, the search on Enter or its button.
 */
export function UrlQueFiltersBar({ filters, statuses, sources }: { filters: UrlQueFilters; statuses: StatusChoices; sources: { id: number; name: string }[] }) {
  const navigate = useNavigate();
  // What the controls show: the address's filters plus changes on their way, so a second change made
  // while the first still loads builds on it, and text typed meanwhile stays. When the address
  // changes from elsewhere (back, a link), the controls follow it.
  const key = filtersKey(filters);
  const [draft, setDraft] = useState(filters);
  const [shownKey, setShownKey] = useState(key);
  const [askedKey, setAskedKey] = useState<string | null>(null);
  if (shownKey !== key) {
    setShownKey(key);
    setAskedKey(null);
    if (key !== askedKey) setDraft(filters);
  }
  const apply = (next: Partial<UrlQueFilters>) => {
    const wanted = { ...draft, q: draft.q.trim(), ...next };
    setDraft(wanted);
    setAskedKey(filtersKey(wanted));
    void navigate({ search: urlQueSearch(wanted, statuses) }, { preventScrollReset: true });
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    apply({});
  };

  return (
    <form role="search" aria-label="Filter the URL queue" onSubmit={submit} className="mt-6 grid gap-3 sm:grid-cols-2 lg:grid-cols-[minmax(12rem,16rem)_minmax(9rem,12rem)_1fr]">
      <div>
        <label htmlFor="queue-source" className={labelClass}>
          Source
        </label>
        <select
          id="queue-source"
          name="source"
          value={draft.sourceId ?? ""}
          onChange={(event) => apply({ sourceId: event.target.value ? Number(event.target.value) : null })}
          className={fieldClass}
        >
          <option value="">All sources</option>
          {sources.map((source) => (
            <option key={source.id} value={source.id}>
              {source.name}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor="queue-status" className={labelClass}>
          Status
        </label>
        <select
          id="queue-status"
          name="status"
          value={draft.status}
          onChange={(event) => apply({ status: event.target.value as UrlQueueFilterStatus })}
          className={fieldClass}
        >
          {statuses.options.map((status) => (
            <option key={status} value={status}>
              {STATUS_LABELS[status]}
            </option>
          ))}
        </select>
      </div>
      <div className="sm:col-span-2 lg:col-span-1">
        <label htmlFor="queue-search" className={labelClass}>
          Search URL
        </label>
        <div className="mt-1 flex gap-2">
          <div className="relative min-w-0 flex-1">
            <SearchIcon className="pointer-events-none absolute top-1/2 left-3.5 h-4 w-4 -translate-y-1/2 text-ink/60" />
            <input
              id="queue-search"
              name="q"
              type="search"
              value={draft.q}
              onChange={(event) => setDraft({ ...draft, q: event.target.value })}
              placeholder="Part of a URL, e.g. /2025/"
              className="w-full rounded-full border-2 border-ink bg-white py-2 pr-4 pl-10 placeholder:text-ink/60"
            />
          </div>
          <button type="submit" className="rounded-full border-2 border-ink bg-white px-4 py-2 font-bold hover:bg-acid">
            Search
          </button>
        </div>
      </div>
    </form>
  );
}
