import { useRef, useState, type FormEvent, type ReactNode } from "react";
import { useNavigate } from "react-router";
import { CloseIcon, SearchIcon } from "~/app/components/icons";
import type { ListQuery } from "~/app/lib/list-query";

const labelClass = "block text-xs font-bold tracking-wide text-ink/80 uppercase";
const fieldClass = "mt-1 h-10 w-full rounded-full border-2 border-ink bg-white px-3";

/** A select of the bar: which filter it sets, its label and its options (value "" is the filter's default, all rows). */
export type FilterSelect<Q> = {
  field: keyof Q & string;
  label: string;
  options: { value: string; label: string }[];
  /** Wider lists (sources, categories) get more room than a short status list. */
  width?: "narrow" | "wide";
  /** Not offered for the list shown now (rejected stories keep no category). */
  hidden?: boolean;
};

/** The search box of the bar: which filter holds the text, its label and its hint. */
export type FilterSearch<Q> = { field: keyof Q & string; label: string; placeholder: string };

// On a phone two selects share a line (gap-3 is 0.75rem), so the filters do not push the list off the screen.
const WIDTHS = { narrow: "w-[calc(50%-0.375rem)] sm:w-40", wide: "w-[calc(50%-0.375rem)] sm:w-52" } as const;

const asText = (value: unknown) => (value === null || value === undefined ? "" : String(value));

/**
 * The back office's one filter bar for a list whose filters live in the address (app/lib/list-query.ts):
 * labelled selects that apply as soon as they change, and a search box that applies on Enter or its
 * Search button, with a button to clear it. Whatever is typed goes along with a select's change.
 */
export function FilterBar<Q extends Record<string, unknown>>({
  label,
  idPrefix,
  query,
  list,
  search,
  selects,
  searchLast = false,
  className = "mt-6",
  children,
}: {
  /** The search landmark's name. */
  label: string;
  idPrefix: string;
  query: Q;
  list: ListQuery<Q>;
  search: FilterSearch<Q>;
  selects: FilterSelect<Q>[];
  /** The spec orders some bars with the search box last (URL Que). */
  searchLast?: boolean;
  /** Its distance from what is above it. */
  className?: string;
  /** Tools that sit at the end of the bar (the Sources tab's OPML buttons). */
  children?: ReactNode;
}) {
  const navigate = useNavigate();
  const input = useRef<HTMLInputElement>(null);
  // What the controls show: the address's filters plus a change on its way, so a second change made
  // while the first still loads builds on it and text typed meanwhile stays. When the address changes
  // from elsewhere (Back, a link), the controls follow it.
  const key = list.href(query);
  const [draft, setDraft] = useState(query);
  const [shownKey, setShownKey] = useState(key);
  const [askedKey, setAskedKey] = useState<string | null>(null);
  if (shownKey !== key) {
    setShownKey(key);
    setAskedKey(null);
    if (key !== askedKey) setDraft(query);
  }
  const text = asText(draft[search.field]);
  const apply = (change: Partial<Q>) => {
    const address = list.href(draft, { [search.field]: text.trim(), ...change } as Partial<Q>);
    setDraft(list.read(new URLSearchParams(address)));
    setAskedKey(address);
    void navigate(address, { preventScrollReset: true });
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    apply({});
  };

  const searchBox = (
    <div key="search" className="min-w-56 flex-1">
      <label htmlFor={`${idPrefix}-search`} className={labelClass}>
        {search.label}
      </label>
      <div className="mt-1 flex gap-2">
        <div className="relative min-w-0 flex-1">
          <SearchIcon className="pointer-events-none absolute top-1/2 left-3.5 h-4 w-4 -translate-y-1/2 text-ink/60" />
          <input
            ref={input}
            id={`${idPrefix}-search`}
            name={list.param(search.field)}
            type="search"
            value={text}
            onChange={(event) => setDraft({ ...draft, [search.field]: event.target.value })}
            placeholder={search.placeholder}
            className="h-10 w-full rounded-full border-2 border-ink bg-white pr-9 pl-10 placeholder:text-ink/60 [&::-webkit-search-cancel-button]:hidden"
          />
          {text ? (
            <button
              type="button"
              aria-label="Clear search"
              onClick={() => {
                setDraft({ ...draft, [search.field]: "" });
                input.current?.focus();
                if (asText(query[search.field])) apply({ [search.field]: "" } as Partial<Q>);
              }}
              className="absolute top-1/2 right-2 flex h-6 w-6 -translate-y-1/2 items-center justify-center rounded-full text-ink/70 hover:bg-ink hover:text-acid"
            >
              <CloseIcon className="h-3.5 w-3.5" />
            </button>
          ) : null}
        </div>
        <button type="submit" className="h-10 rounded-full border-2 border-ink bg-white px-4 font-bold hover:bg-acid">
          Search
        </button>
      </div>
    </div>
  );
  const selectBoxes = selects
    .filter((select) => !select.hidden)
    .map((select) => (
      <div key={select.field} className={WIDTHS[select.width ?? "wide"]}>
        <label htmlFor={`${idPrefix}-${select.field}`} className={labelClass}>
          {select.label}
        </label>
        <select
          id={`${idPrefix}-${select.field}`}
          name={list.param(select.field)}
          value={asText(draft[select.field])}
          onChange={(event) => apply({ [select.field]: list.field(select.field, event.target.value) } as Partial<Q>)}
          className={`${fieldClass} truncate`}
        >
          {select.options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      </div>
    ));

  return (
    <div className={`${className} flex flex-wrap items-end justify-between gap-3`}>
      <form role="search" aria-label={label} onSubmit={submit} className="flex min-w-0 flex-1 flex-wrap items-end gap-3">
        {searchLast ? [...selectBoxes, searchBox] : [searchBox, ...selectBoxes]}
      </form>
      {children}
    </div>
  );
}
