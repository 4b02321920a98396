// Types only from the domain module: it also holds server code (URL hashing) that must stay out of the browser.
import type { UrlQueueFilterStatus } from "~/domain/crawl/url-queue";
import { choiceFilter, idFilter, listQuery, textFilter, type ListQuery } from "~/app/lib/list-query";

/** The URL Que's filters as they live in the address (?source=&status=&q=), so a reload keeps them. */
export type UrlQueueFilters = { sourceId: number | null; status: UrlQueueFilterStatus; q: string };

/** The status filter's options and default, as the domain states them (the loader hands them over). */
export type StatusChoices = { options: readonly UrlQueueFilterStatus[]; fallback: UrlQueueFilterStatus };

export const STATUS_LABELS: Record<UrlQueueFilterStatus, string> = { queued: "Queued", scraped: "Scraped", failed: "Failed", all: "All" };

/** The URL Que's filters in the address; anything unknown falls back to the defaults (all sources, the default status, no search). */
export function urlQueueList(statuses: StatusChoices): ListQuery<UrlQueueFilters> {
  return listQuery({ sourceId: idFilter("source"), status: choiceFilter("status", statuses.options, statuses.fallback), q: textFilter("q") });
}
