/** The Watchlist tab (placeholder until built). */
export function WatchlistTab() {
  return null;
}
