import { useCallback, useEffect, useId, useRef, useState } from "react";
import { useNavigate } from "react-router";
import { SUGGESTION_MIN_LENGTH } from "~/domain/public/public-site";
import { CloseIcon, SearchIcon } from "./icons";

// Spec section 9: debounce 400 ms, at least 3 characters, results cached 5 minutes with one retry,
// input focused 100 ms after the dropdown opens.
export const SUGGEST_DEBOUNCE_MS = 400;
const CACHE_MS = 5 * 60_000;
const FOCUS_DELAY_MS = 100;

type Suggestion = { id: number; title: string; slug: string };
type State = { status: "idle" | "loading" | "done" | "error"; items: Suggestion[] };

const cache = new Map<string, { at: number; items: Suggestion[] }>();

async function fetchSuggestions(query: string): Promise<Suggestion[]> {
  const key = query.toLowerCase();
  const hit = cache.get(key);
  if (hit && Date.now() - hit.at < CACHE_MS) return hit.items;
  let lastError: unknown;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const response = await fetch(`/api/suggestions?q=${encodeURIComponent(query)}`, { headers: { accept: "application/json" } });
      if (!response.ok) throw new Error(`suggestions failed with ${response.status}`);
      const { suggestions } = (await response.json()) as { suggestions: Suggestion[] };
      cache.set(key, { at: Date.now(), items: suggestions });
      return suggestions;
    } catch (error) {
      lastError = error;
    }
  }
  throw lastError;
}

/** The header's search: a button opening an input with title suggestions as you type. */
export function SearchDropdown() {
  const [open, setOpen] = useState(false);
  const [text, setText] = useState("");
  const [state, setState] = useState<State>({ status: "idle", items: [] });
  const [active, setActive] = useState(-1);
  const inputRef = useRef<HTMLInputElement>(null);
  const toggleRef = useRef<HTMLAnchorElement>(null);
  const containerRef = useRef<HTMLDivElement>(null);
  const navigate = useNavigate();
  const listId = useId();
  const optionId = (i: number) => `${listId}-option-${i}`;

  const close = useCallback((refocus: boolean) => {
    setOpen(false);
    setText("");
    setState({ status: "idle", items: [] });
    setActive(-1);
    if (refocus) toggleRef.current?.focus();
  }, []);

  useEffect(() => {
    if (!open) return;
    const timer = setTimeout(() => inputRef.current?.focus(), FOCUS_DELAY_MS);
    return () => clearTimeout(timer);
  }, [open]);

  useEffect(() => {
    const query = text.trim();
    if (query.length < SUGGESTION_MIN_LENGTH) return;
    let cancelled = false;
    const timer = setTimeout(() => {
      setState((s) => ({ status: "loading", items: s.items }));
      fetchSuggestions(query).then(
        (items) => {
          if (cancelled) return;
          setState({ status: "done", items });
          setActive(-1);
        },
        () => {
          if (!cancelled) setState({ status: "error", items: [] });
        },
      );
    }, SUGGEST_DEBOUNCE_MS);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [text]);

  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: PointerEvent) => {
      if (!containerRef.current?.contains(event.target as Node)) close(false);
    };
    document.addEventListener("pointerdown", onPointerDown);
    return () => document.removeEventListener("pointerdown", onPointerDown);
  }, [open, close]);

  const select = (item: Suggestion) => {
    close(false);
    navigate(`/story/${item.slug}`);
  };

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (active >= 0 && state.items[active]) return select(state.items[active]);
    const query = text.trim();
    if (query === "") return;
    close(false);
    navigate(`/search?q=${encodeURIComponent(query)}`);
  };

  const onKeyDown = (event: React.KeyboardEvent<HTMLInputElement>) => {
    const count = state.items.length;
    if (event.key === "Escape") {
      event.preventDefault();
      close(true);
    } else if (event.key === "ArrowDown" && count > 0) {
      event.preventDefault();
      setActive((i) => (i + 1) % count);
    } else if (event.key === "ArrowUp" && count > 0) {
      event.preventDefault();
      setActive((i) => (i <= 0 ? count - 1 : i - 1));
    }
  };

  const showList = text.trim().length >= SUGGESTION_MIN_LENGTH && state.status !== "idle";

  return (
    <div ref={containerRef} className="relative">
      <a
        id="search"
        ref={toggleRef}
        href="/search"
        role="button"
        aria-expanded={open}
        aria-label="Search stories"
        onClick={(event) => {
          event.preventDefault();
          if (open) close(false);
          else setOpen(true);
        }}
        onKeyDown={(event) => {
          // A link acting as a button also answers Space, as buttons do.
          if (event.key === " ") {
            event.preventDefault();
            event.currentTarget.click();
          }
        }}
        className="flex h-11 w-11 items-center justify-center rounded-full bg-acid text-ink ring-2 ring-acid transition hover:bg-paper"
      >
        <SearchIcon className="h-5 w-5" />
      </a>
      {open ? (
        <div className="absolute right-0 z-40 mt-3 w-[min(92vw,26rem)] rounded-2xl border-2 border-ink bg-paper p-3 text-ink shadow-[6px_6px_0_0_var(--color-ink)]">
          <form role="search" onSubmit={submit} className="flex items-center gap-2">
            <label htmlFor={`${listId}-input`} className="sr-only">
              Search weird news
            </label>
            <input
              id={`${listId}-input`}
              ref={inputRef}
              type="search"
              value={text}
              onChange={(e) => {
                setText(e.target.value);
                // Shorter input clears the suggestions at once.
                if (e.target.value.trim().length < SUGGESTION_MIN_LENGTH) {
                  setState({ status: "idle", items: [] });
                  setActive(-1);
                }
              }}
              onKeyDown={onKeyDown}
              placeholder="Search weird news..."
              autoComplete="off"
              role="combobox"
              aria-expanded={showList}
              aria-controls={listId}
              aria-autocomplete="list"
              aria-activedescendant={active >= 0 ? optionId(active) : undefined}
              className="min-w-0 flex-1 rounded-full border-2 border-ink bg-white px-4 py-2 outline-none focus-visible:ring-4 focus-visible:ring-ufo/40 [&::-webkit-search-cancel-button]:hidden"
            />
            {text !== "" ? (
              <button
                type="button"
                onClick={() => close(true)}
                aria-label="Clear search"
                className="flex h-9 w-9 items-center justify-center rounded-full hover:bg-paper-deep"
              >
                <CloseIcon className="h-4 w-4" />
              </button>
            ) : null}
            <button type="submit" className="rounded-full bg-ink px-4 py-2 font-bold text-paper hover:bg-ufo">
              Search
            </button>
          </form>
          {showList ? (
            <div className="mt-2" aria-live="polite">
              {state.status === "loading" ? (
                <p className="px-3 py-2 text-sm text-ink/70">Searching...</p>
              ) : state.status === "error" ? (
                <p className="px-3 py-2 text-sm font-semibold text-alarm-ink">Search error - try again</p>
              ) : state.items.length === 0 ? (
                <p className="px-3 py-2 text-sm text-ink/70">No matching stories found</p>
              ) : null}
              <ul id={listId} role="listbox" aria-label="Suggested stories" className="max-h-64 overflow-y-auto">
                {state.items.map((item, i) => (
                  <li
                    key={item.id}
                    id={optionId(i)}
                    role="option"
                    aria-selected={i === active}
                    onPointerDown={(e) => e.preventDefault()}
                    onClick={() => select(item)}
                    onMouseEnter={() => setActive(i)}
                    className={`cursor-pointer rounded-lg px-3 py-2 text-sm font-semibold ${i === active ? "bg-ink text-acid" : "hover:bg-paper-deep"}`}
                  >
                    {item.title}
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
