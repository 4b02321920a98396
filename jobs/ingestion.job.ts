import type { IngestionDeps } from "~/domain/ingestion/deps";
import { runIngestionCycle } from "~/domain/ingestion/ingest";
import type { SourceLeaseTimes } from "~/domain/sources/lease";
import type { JobHandlers } from "./runner";

/** The RSS jobs: the manual trigger runs every polled source now, the minute poll only those due. */
export function ingestionHandlers(deps: IngestionDeps, leases: SourceLeaseTimes = {}): Pick<JobHandlers, "rss-ingestion" | "rss-poll"> {
  return {
    "rss-ingestion": (input, { reportProgress, signal, resumedSince }) =>
      runIngestionCycle(deps, { scope: "all", useCanonical: input.use_canonical, onProgress: reportProgress, signal, notFetchedSince: resumedSince, ...leases }),
    "rss-poll": ({ signal }) => runIngestionCycle(deps, { scope: "due", signal, ...leases }),
  };
}
