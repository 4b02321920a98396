import type { IngestionDeps } from "~/domain/ingestion/deps";
import { runIngestionCycle } from "~/domain/ingestion/ingest";
import type { JobHandlers } from "./runner";

/** The RSS jobs: the manual trigger runs every polled source now, the minute poll only those due. */
export function ingestionHandlers(deps: IngestionDeps): JobHandlers {
  return {
    "rss-ingestion": (input, { reportProgress }) =>
      runIngestionCycle(deps, { scope: "all", useCanonical: input.use_canonical === true, onProgress: reportProgress }),
    "rss-poll": () => runIngestionCycle(deps, { scope: "due" }),
  };
}
