import { useRef, type KeyboardEvent as ReactKeyboardEvent } from "react";

export const TABS = [
  { id: "sources", label: "Sources" },
  { id: "rss-validator", label: "RSS Validator" },
  { id: "manual-scrape", label: "Manual Scrape" },
  { id: "watchlist", label: "Watchlist" },
] as const;
export type TabId = (typeof TABS)[number]["id"];

/** The Sources page's four tabs; arrow keys, Home and End move between them. */
export function Tabs({ active, onSelect }: { active: TabId; onSelect: (tab: TabId) => void }) {
  const refs = useRef<Record<string, HTMLButtonElement | null>>({});
  const onKeyDown = (event: ReactKeyboardEvent) => {
    // From the focused tab, not the selected one: the URL (and so the selection) catches up a moment later.
    const focused = TABS.findIndex((t) => refs.current[t.id] === event.target);
    const index = focused >= 0 ? focused : TABS.findIndex((t) => t.id === active);
    const to = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: TABS.length - 1 }[event.key];
    if (to === undefined) return;
    event.preventDefault();
    const next = TABS[(to + TABS.length) % TABS.length]!;
    onSelect(next.id);
    refs.current[next.id]?.focus();
  };
  return (
    <div role="tablist" aria-label="Source tools" onKeyDown={onKeyDown} className="mt-6 flex gap-1 overflow-x-auto border-b-2 border-ink">
      {TABS.map((tab) => {
        const selected = tab.id === active;
        return (
          <button
            key={tab.id}
            ref={(el) => {
              refs.current[tab.id] = el;
            }}
            type="button"
            role="tab"
            id={`tab-${tab.id}`}
            aria-selected={selected}
            aria-controls={`panel-${tab.id}`}
            tabIndex={selected ? 0 : -1}
            onClick={() => onSelect(tab.id)}
            className={`-mb-0.5 shrink-0 rounded-t-xl border-2 px-4 py-2 text-sm font-bold whitespace-nowrap ${
              selected ? "border-ink border-b-paper bg-paper text-ink" : "border-transparent text-ink/75 hover:bg-white hover:text-ink"
            }`}
          >
            {tab.label}
          </button>
        );
      })}
    </div>
  );
}
