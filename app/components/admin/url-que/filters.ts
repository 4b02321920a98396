// Types only from the domain module: it also holds server code (URL hashing) that must stay out of the browser.
import type { UrlQueueFilterStatus } from "~/domain/crawl/url-queue";

/** The URL Que's filters as they live in the address (?source=&status=&q=), so a reload keeps them. */
export type UrlQueFilters = { sourceId: number | null; status: UrlQueueFilterStatus; q: string };

/** The status filter's options and default, as the domain states them (the loader hands them over). */
export type StatusChoices = { options: readonly UrlQueueFilterStatus[]; fallback: UrlQueueFilterStatus };

export const STATUS_LABELS: Record<UrlQueueFilterStatus, string> = { queued: "Queued", scraped: "Scraped", failed: "Failed", all: "All" };

/** Reads the filters; anything unknown falls back to the defaults (all sources, the default status, no search). */
export function readUrlQueFilters(params: URLSearchParams, statuses: StatusChoices): UrlQueFilters {
  const source = Number(params.get("source"));
  const status = params.get("status") ?? "";
  return {
    sourceId: Number.isSafeInteger(source) && source > 0 ? source : null,
    status: (statuses.options as readonly string[]).includes(status) ? (status as UrlQueueFilterStatus) : statuses.fallback,
    q: (params.get("q") ?? "").trim().slice(0, 500),
  };
}

/** The address of these filters, defaults left out. */
export function urlQueSearch(filters: UrlQueFilters, statuses: StatusChoices): string {
  const params = new URLSearchParams();
  if (filters.sourceId !== null) params.set("source", String(filters.sourceId));
  if (filters.status !== statuses.fallback) params.set("status", filters.status);
  if (filters.q) params.set("q", filters.q);
  const text = params.toString();
  return text ? `?${text}` : "";
}

/** One text per combination of filters: the selection belongs to it. */
export function filtersKey(filters: UrlQueFilters): string {
  return `${filters.sourceId ?? "all"}|${filters.status}|${filters.q}`;
}
