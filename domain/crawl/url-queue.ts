import type { Repos } from "~/db/repos";
import type { UrlQueueStatus } from "~/db/repos/crawl.repo";
import { DomainError } from "~/domain/errors";
import type { JobStarter } from "~/domain/jobs/kinds";
import { rejectionContentHash } from "~/lib/normalize-url";

/** The URL Que's limits and filters. */
export const URL_QUEUE_LIMIT = 1000;
export const URL_QUEUE_STATUSES = ["queued", "scraped", "failed", "all"] as const;
export type UrlQueueFilterStatus = (typeof URL_QUEUE_STATUSES)[number];
export const DEFAULT_URL_QUEUE_STATUS: UrlQueueFilterStatus = "queued";

/** A queue row as the page shows it (dates as ISO text). */
export type UrlQueueItem = {
  id: number;
  url: string;
  lastmod: string | null;
  sourceId: number | null;
  sourceName: string | null;
  status: UrlQueueStatus;
  error: string | null;
};

type Deps = { repos: Pick<Repos, "crawl" | "audit"> };

/** The list-url-queue read: by source (null for all), status and a URL substring, newest lastmod first, at most 1000 rows. */
export async function listUrlQueue(
  deps: Deps,
  input: { sourceId?: number | null; status?: UrlQueueFilterStatus; search?: string | null; limit?: number },
): Promise<UrlQueueItem[]> {
  const limit = Math.min(Math.max(1, input.limit ?? URL_QUEUE_LIMIT), URL_QUEUE_LIMIT);
  const rows = await deps.repos.crawl.list({
    sourceId: input.sourceId ?? null,
    status: input.status ?? DEFAULT_URL_QUEUE_STATUS,
    search: input.search ?? null,
    limit,
  });
  return rows.map((row) => ({
    id: row.id,
    url: row.url,
    lastmod: row.lastmod?.toISOString() ?? null,
    sourceId: row.sourceId,
    sourceName: row.sourceName,
    status: row.status,
    error: row.error,
  }));
}

/** A selection of queue rows as the screen, the commands and the scrape job take it: each id once, at least one, at most the limit. */
export function urlSelection(ids: readonly number[]): number[] {
  const unique = [...new Set(ids)];
  if (unique.length === 0) throw new DomainError("NO_SELECTION", "Select at least one URL.");
  if (unique.length > URL_QUEUE_LIMIT) throw new DomainError("TOO_MANY_URLS", `At most ${URL_QUEUE_LIMIT} URLs at a time.`);
  return unique;
}

/**
 * 'Scrape Selected': queues one scrape job for the selected rows (checked here, so the editor hears of
 * an empty or oversized selection at once); the job groups them by source and scrapes them politely
 * (scrape-queue.ts). Answers the job id and how many URLs it was given.
 */
export async function startScrape(deps: { jobs: Pick<JobStarter, "enqueue"> }, input: { ids: readonly number[]; actorUserId: string | null }): Promise<{ jobId: string; requested: number }> {
  const ids = urlSelection(input.ids);
  const { jobId } = await deps.jobs.enqueue("scrape-queue", { ids }, { requestedBy: input.actorUserId });
  return { jobId, requested: ids.length };
}

/**
 * Rejects queued URLs: each normalised URL is recorded in rejected_stories (so neither discovery
 * nor a feed brings it back) and the rows leave the queue. Returns how many rows were rejected.
 */
export async function rejectQueuedUrls(deps: Deps, input: { ids: readonly number[]; actorUserId: string | null; now?: Date }): Promise<number> {
  const rows = await deps.repos.crawl.identities(urlSelection(input.ids));
  const at = input.now ?? new Date();
  const rejected = await deps.repos.crawl.reject(
    rows.map((row) => ({ ...row, contentHash: rejectionContentHash({ title: row.url, url: row.url, sourceId: row.sourceId }) })),
    { rejectedBy: input.actorUserId, at },
  );
  await deps.repos.audit.record({
    actorUserId: input.actorUserId,
    action: "url_queue.reject",
    entityType: "url_queue",
    entityId: rows.map((r) => r.id).join(",").slice(0, 200),
    details: { count: rejected, urls: rows.slice(0, 50).map((r) => r.url) },
  });
  return rejected;
}

/** Deletes queued URLs for good (discovery may find them again). Returns how many rows were deleted. */
export async function deleteQueuedUrls(deps: Deps, input: { ids: readonly number[]; actorUserId: string | null }): Promise<number> {
  const ids = urlSelection(input.ids);
  const deleted = await deps.repos.crawl.remove(ids);
  await deps.repos.audit.record({
    actorUserId: input.actorUserId,
    action: "url_queue.delete",
    entityType: "url_queue",
    entityId: ids.join(",").slice(0, 200),
    details: { count: deleted },
  });
  return deleted;
}
