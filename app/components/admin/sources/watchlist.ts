import { httpUrlOrNull } from "~/lib/http-url";

/** The one local-storage key the watchlist lives under. */
export const WATCHLIST_KEY = "oddwire.watchlist";

/** A website an editor keeps an eye on. */
export type WatchlistItem = { id: string; url: string; title: string; addedAt: string };

export const WATCHLIST_MESSAGES = {
  empty: "Please enter a URL",
  invalid: "Please enter a valid URL",
  duplicate: "Website already in watchlist",
  added: "Website added to watchlist",
  removed: "Website removed from watchlist",
} as const;

/** The stored list, keeping only well-formed items: corrupt or foreign data never breaks the tab. */
export function parseWatchlist(raw: string | null): WatchlistItem[] {
  if (!raw) return [];
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return [];
  }
  if (!Array.isArray(value)) return [];
  const items: WatchlistItem[] = [];
  for (const entry of value) {
    if (!entry || typeof entry !== "object") continue;
    const { id, url, title, addedAt } = entry as Record<string, unknown>;
    if (typeof id !== "string" || typeof url !== "string" || !isWebUrl(url)) continue;
    if (items.some((item) => item.id === id)) continue;
    items.push({
      id,
      url,
      title: typeof title === "string" && title.trim() ? title : url,
      addedAt: typeof addedAt === "string" && !Number.isNaN(Date.parse(addedAt)) ? addedAt : "",
    });
  }
  return items;
}

/** What the add box holds, as a URL to watch: https:// added when no scheme is given; or the reason it is refused. */
export function readWatchlistInput(input: string): { ok: true; url: string } | { ok: false; error: string } {
  const text = input.trim();
  if (!text) return { ok: false, error: WATCHLIST_MESSAGES.empty };
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `https://${text}`;
  if (!isWebUrl(withScheme)) return { ok: false, error: WATCHLIST_MESSAGES.invalid };
  return { ok: true, url: new URL(withScheme).href };
}

/** The list with a new item at the top, or the duplicate message when the URL is already watched. */
export function addToWatchlist(list: readonly WatchlistItem[], item: WatchlistItem): { ok: true; list: WatchlistItem[] } | { ok: false; error: string } {
  if (findWatched(list, item.url)) return { ok: false, error: WATCHLIST_MESSAGES.duplicate };
  return { ok: true, list: [item, ...list] };
}

/** The already-watched item with this URL (the same page after URL parsing), if any. */
export function findWatched(list: readonly WatchlistItem[], url: string): WatchlistItem | undefined {
  const key = sameSiteKey(url);
  return list.find((item) => sameSiteKey(item.url) === key);
}

/** The list without the item of this id. */
export function removeFromWatchlist(list: readonly WatchlistItem[], id: string): WatchlistItem[] {
  return list.filter((item) => item.id !== id);
}

/** A fresh id; randomUUID is missing outside secure contexts, so there is a fallback. */
export function newWatchlistId(): string {
  return globalThis.crypto?.randomUUID?.() ?? `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
}

// http(s) with a real-looking host and no credentials: 'mailto:a@b.example' must not become a login URL.
function isWebUrl(value: string): boolean {
  const href = httpUrlOrNull(value);
  if (!href) return false;
  const url = new URL(href);
  const hostOk = url.hostname.includes(".") || url.hostname === "localhost" || url.hostname.startsWith("[");
  return hostOk && !url.username && !url.password;
}

// Trailing slashes and a leading www. do not make a different website.
function sameSiteKey(url: string): string {
  try {
    const parsed = new URL(url);
    const host = parsed.host.replace(/^www\./, "");
    return `${host}${parsed.pathname.replace(/\/+$/, "")}${parsed.search}`;
  } catch {
    return url;
  }
}
