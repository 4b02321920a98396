import { useMemo, useState, useSyncExternalStore } from "react";
import { toast } from "sonner";
import { formatDate, formatTime } from "~/app/lib/format";
import { CloseIcon, ExternalIcon } from "~/app/components/icons";
import { requestJson } from "~/app/components/admin/admin-fetch";
import { readStorage, writeStorage } from "~/app/components/admin/browser-storage";
import { ToolPanel, UrlSubmitRow } from "./tool-panel";
import { linkClass } from "./ui";
import {
  addToWatchlist,
  findWatched,
  newWatchlistId,
  parseWatchlist,
  readWatchlistInput,
  removeFromWatchlist,
  WATCHLIST_KEY,
  WATCHLIST_MESSAGES,
  type WatchlistItem,
} from "./watchlist";

// Other tabs change the list through 'storage' events; this page's own writes through this one.
const CHANGED = "oddwire:watchlist-changed";

function subscribe(onChange: () => void) {
  const onStorage = (event: StorageEvent) => {
    if (event.key === WATCHLIST_KEY || event.key === null) onChange();
  };
  window.addEventListener("storage", onStorage);
  window.addEventListener(CHANGED, onChange);
  return () => {
    window.removeEventListener("storage", onStorage);
    window.removeEventListener(CHANGED, onChange);
  };
}

function readStored(): string | null {
  return readStorage("local", WATCHLIST_KEY);
}

function store(list: WatchlistItem[]): boolean {
  if (!writeStorage("local", WATCHLIST_KEY, JSON.stringify(list))) {
    toast.error("Could not save the watchlist", { description: "This browser refused to store it (private mode or full storage)." });
    return false;
  }
  window.dispatchEvent(new Event(CHANGED));
  return true;
}

/** The Watchlist tab: a personal list of websites kept in this browser's local storage. */
export function WatchlistTab() {
  const raw = useSyncExternalStore(subscribe, readStored, () => null);
  const items = useMemo(() => parseWatchlist(raw), [raw]);
  const [input, setInput] = useState("");
  const [busy, setBusy] = useState(false);

  const add = async () => {
    const read = readWatchlistInput(input);
    if (!read.ok) {
      toast.error(read.error);
      return;
    }
    if (findWatched(items, read.url)) {
      toast.error(WATCHLIST_MESSAGES.duplicate);
      return;
    }
    setBusy(true);
    const answer = await requestJson<{ title: string | null }>(`/admin/api/page-title?url=${encodeURIComponent(read.url)}`);
    setBusy(false);
    const title = (answer.kind === "ok" && answer.body.title?.trim()) || read.url;
    // Read the list again: another tab may have changed it while the title was fetched.
    const added = addToWatchlist(parseWatchlist(readStored()), { id: newWatchlistId(), url: read.url, title, addedAt: new Date().toISOString() });
    if (!added.ok) {
      toast.error(added.error);
      return;
    }
    if (!store(added.list)) return;
    setInput("");
    toast.success(WATCHLIST_MESSAGES.added);
  };

  const remove = (id: string) => {
    if (store(removeFromWatchlist(parseWatchlist(readStored()), id))) toast.success(WATCHLIST_MESSAGES.removed);
  };

  return (
    <div className="space-y-6">
      <ToolPanel
        title="Your watchlist"
        description="Websites you want to keep an eye on for odd stories. The list is kept in this browser only."
        busy={busy}
        onSubmit={add}
      >
        <UrlSubmitRow
          id="watchlist-url"
          label="Website URL"
          value={input}
          onChange={setInput}
          placeholder="example.com or https://example.com/odd-news"
          busy={busy}
          idleLabel="Add to Watchlist"
          busyLabel="Adding..."
        />
      </ToolPanel>

      <section aria-labelledby="watchlist-title">
        <h2 id="watchlist-title" className="font-display text-xl font-bold">
          Watched websites <span className="text-base font-semibold text-ink/60">({items.length})</span>
        </h2>
        {items.length === 0 ? (
          <p className="mt-3 rounded-2xl border-2 border-dashed border-ink/40 p-8 text-center text-ink/70">No websites in your watchlist yet. Add one above.</p>
        ) : (
          <ul className="mt-3 grid gap-4 md:grid-cols-2">
            {items.map((item) => (
              <WatchedWebsite key={item.id} item={item} onRemove={() => remove(item.id)} />
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

function WatchedWebsite({ item, onRemove }: { item: WatchlistItem; onRemove: () => void }) {
  return (
    <li className="flex items-start gap-3 rounded-2xl border-2 border-ink bg-white p-4">
      <div className="min-w-0 flex-1">
        <h3 className="font-display text-lg leading-snug font-bold break-words">{item.title}</h3>
        <a href={item.url} target="_blank" rel="noopener noreferrer" className={`${linkClass} mt-1 inline-flex max-w-full items-center gap-1 text-sm`}>
          <span className="truncate">{item.url}</span>
          <ExternalIcon className="h-3.5 w-3.5 shrink-0" />
          <span className="sr-only"> (opens in a new tab)</span>
        </a>
        {item.addedAt ? (
          <p className="mt-1 text-xs text-ink/70">
            Added <time dateTime={item.addedAt}>{`${formatDate(item.addedAt)} at ${formatTime(item.addedAt)}`}</time>
          </p>
        ) : null}
      </div>
      <button
        type="button"
        onClick={onRemove}
        aria-label={`Remove ${item.title} from watchlist`}
        title="Remove from watchlist"
        className="shrink-0 rounded-full border-2 border-ink p-1.5 hover:bg-alarm-ink hover:text-white"
      >
        <CloseIcon className="h-4 w-4" />
      </button>
    </li>
  );
}
