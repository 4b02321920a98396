/** The Manual Scrape tab (placeholder until built). */
export function ManualScrapeTab(_props: { sources: { id: number; name: string }[] }) {
  return null;
}
