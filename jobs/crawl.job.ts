import type { CrawlDeps } from "~/domain/crawl/deps";
import { runDiscoveryCycle } from "~/domain/crawl/discover";
import { scrapeQueue } from "~/domain/crawl/scrape-queue";
import type { SourceLeaseTimes } from "~/domain/sources/lease";
import type { JobHandlers } from "./runner";

/** The crawl jobs: 'Discover now' (one source or all), the minute poll of due sources, and the queue scrape. */
export function crawlHandlers(deps: CrawlDeps, leases: SourceLeaseTimes = {}): Pick<JobHandlers, "crawl-discovery" | "crawl-poll" | "scrape-queue"> {
  return {
    "crawl-discovery": async (input, { reportProgress, signal, resumedSince }) => {
      const sourceId = input.source_id;
      const result = await runDiscoveryCycle(deps, {
        scope: "all",
        sourceIds: sourceId ? [sourceId] : undefined,
        signal,
        onProgress: reportProgress,
        notFetchedSince: resumedSince,
        ...leases,
      });
      // A named source that could not be claimed is being discovered by another run right now (a
      // resumed run finds nothing left when its source was discovered before its process died).
      if (sourceId && result.sources_processed === 0 && !resumedSince) {
        throw new Error("This source is being discovered by another run right now; try again when it has finished.");
      }
      return result;
    },
    "crawl-poll": ({ signal }) => runDiscoveryCycle(deps, { scope: "due", signal, ...leases }),
    "scrape-queue": async (input, { reportProgress, signal, resumedSince }) => {
      const result = await scrapeQueue(
        deps,
        { ids: input.ids, sourceId: input.source_id, limit: input.limit, notAttemptedSince: resumedSince },
        { signal, onProgress: reportProgress },
      );
      return { ...result };
    },
  };
}
