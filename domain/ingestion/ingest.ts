import type { IngestSourceRow, SourceStateUpdate } from "~/db/repos/ingestion.repo";
import { extractCanonicalUrl } from "~/integrations/extract/extract-article";
import { decodeHtmlBytes } from "~/lib/decode-bytes";
import { rootCauseMessage } from "~/lib/error-message";
import { keepLeases, type LeaseKeeper } from "~/lib/lease-keeper";
import { FEED_ACCEPT, PAGE_ACCEPT } from "./accept";
import { dateOf, systemClock } from "~/lib/clock";
import type { IngestionDeps } from "./deps";
import { describeError } from "./describe-error";
import { SOURCE_LEASE_MS, SOURCE_LEASE_RENEW_MS } from "~/domain/sources/lease";
import { eachLimit } from "~/lib/each-limit";
import { parseFeed, type FeedItem } from "./feed/parse-feed";
import { applyKeywords } from "./keywords";
import { nextCheckAfterFailure, nextCheckAfterStorageFailure, nextCheckAfterSuccess, statusAfterRun } from "./schedule";
import { candidateFromUrl, settleKnownUrls, storeCandidates, type Candidate, type StoreCounts } from "./store-candidates";
import { sourcePace } from "./source-pace";
import type { OnProgress, Progress } from "~/lib/progress";

/** The spec's rss-ingestion result (section 3). */
export type IngestionResult = { sources_processed: number; total_items_found: number; total_items_processed: number };


export type IngestionOptions = {
  /** "all": every polled RSS source now (the manual trigger); "due": those whose next check has come. */
  scope: "all" | "due";
  /** Prefer each new item's rel=canonical URL (one page fetch per new item). */
  useCanonical?: boolean;
  /** Only these sources (still only polled RSS ones). */
  sourceIds?: number[];
  onProgress?: OnProgress;
  /** Sources fetched at once (the HTTP client also limits each host to two). */
  concurrency?: number;
  /** Stops the cycle early (shutdown): sources not yet started are released for the next runner. */
  signal?: AbortSignal;
  /** How long a source's lease lasts, and how often a running cycle renews it (tests shorten them). */
  leaseMs?: number;
  leaseRenewMs?: number;
  /** A cycle taken up again after its process died: sources fetched since then were done by it and are skipped. */
  notFetchedSince?: Date | null;
};

/** What one source's run did, as written to feed_processing_log. */
export type SourceRunSummary = {
  sourceId: number;
  ok: boolean;
  httpStatus: number | null;
  notModified: boolean;
  itemsFound: number;
  inserted: number;
  duplicate: number;
  rejected: number;
  filtered: number;
  failed: number;
  error: string | null;
};

const CANONICAL_CONCURRENCY = 4;

/** Runs one ingestion cycle: claims the sources, ingests each (one failing never stops the rest), and totals the result. */
export async function runIngestionCycle(deps: IngestionDeps, options: IngestionOptions): Promise<IngestionResult> {
  const clock = deps.now ?? systemClock;
  const now = dateOf(clock);
  const leaseMs = options.leaseMs ?? SOURCE_LEASE_MS;
  const claimed = await deps.repos.ingestion.claimSources({
    scope: options.scope,
    now,
    leaseUntil: new Date(now.getTime() + leaseMs),
    sourceIds: options.sourceIds,
    notFetchedSince: options.notFetchedSince,
  });
  // Renewed while the cycle runs, for the sources not yet done; a renewal that fails is retried next time.
  const held = keepLeases<number>({
    renew: (ids) => deps.repos.ingestion.renewLeases(ids, new Date(clock() + leaseMs)),
    everyMs: options.leaseRenewMs ?? SOURCE_LEASE_RENEW_MS,
    onError: (error) => deps.logger.warn({ err: rootCauseMessage(error) }, "could not renew the sources' leases; trying again"),
  });
  held.hold(claimed.map((source) => source.id));
  try {
    return await runClaimed(deps, options, claimed, held);
  } finally {
    held.stop();
  }
}

async function runClaimed(deps: IngestionDeps, options: IngestionOptions, claimed: IngestSourceRow[], held: LeaseKeeper<number>): Promise<IngestionResult> {
  const result: IngestionResult = { sources_processed: 0, total_items_found: 0, total_items_processed: 0 };
  // Progress is a courtesy to whoever watches: failing to report it never stops or fails the cycle.
  const report = async (progress: Progress) => {
    try {
      await options.onProgress?.(progress);
    } catch (error) {
      deps.logger.error({ err: rootCauseMessage(error) }, "ingestion progress could not be reported");
    }
  };
  // A lease left behind only lapses after SOURCE_LEASE_MS; give sources back at once whenever we can.
  const release = async (sourceIds: number[]) => {
    try {
      await deps.repos.ingestion.releaseLeases(sourceIds);
    } catch (error) {
      deps.logger.error({ sourceIds, err: rootCauseMessage(error) }, "could not release sources; their leases lapse by themselves");
    }
  };

  await report({ done: 0, total: claimed.length, message: `Processing ${claimed.length} sources` });
  const skipped: number[] = [];
  await eachLimit(claimed, options.concurrency ?? 8, async (source) => {
    if (options.signal?.aborted) {
      held.drop(source.id);
      return void skipped.push(source.id);
    }
    try {
      const run = await ingestSource(deps, source, { useCanonical: options.useCanonical === true, signal: options.signal });
      result.sources_processed++;
      result.total_items_found += run.itemsFound;
      result.total_items_processed += run.inserted;
    } catch (error) {
      // Not the feed's failure (that is recorded by ingestSource) but ours, such as the database refusing the run's record.
      deps.logger.error(
        { sourceId: source.id, url: source.rssFeedUrl, err: rootCauseMessage(error) },
        "source run could not be completed; released for the next cycle",
      );
      await release([source.id]);
    } finally {
      held.drop(source.id);
    }
    await report({
      done: result.sources_processed,
      total: claimed.length,
      message: `Processed ${result.sources_processed} of ${claimed.length} sources`,
    });
  });
  if (skipped.length > 0) {
    await release(skipped);
    deps.logger.warn({ skipped: skipped.length }, "ingestion cycle stopped early; the remaining sources are left for the next cycle");
  }
  // The job runner writes the run's one info line, with this result in it.
  deps.logger.debug({ ...result, scope: options.scope }, "ingestion cycle finished");
  return result;
}

/** Fetches one claimed source's feed (conditionally), stores its new items and records the run and the source's next check. */
export async function ingestSource(
  deps: IngestionDeps,
  source: IngestSourceRow,
  options: { useCanonical: boolean; signal?: AbortSignal },
): Promise<SourceRunSummary> {
  const clock = deps.now ?? systemClock;
  const startedAt = dateOf(clock);
  const summary: SourceRunSummary = {
    sourceId: source.id,
    ok: false,
    httpStatus: null,
    notModified: false,
    itemsFound: 0,
    inserted: 0,
    duplicate: 0,
    rejected: 0,
    filtered: 0,
    failed: 0,
    error: null,
  };
  let state: SourceStateUpdate;
  try {
    const response = await deps.http.fetch(source.rssFeedUrl ?? "", {
      ...sourcePace(source.scrapingConfig),
      etag: source.etag,
      lastModified: source.lastModified,
      headers: { accept: FEED_ACCEPT },
      signal: options.signal,
    });
    summary.httpStatus = response.status;
    if (!response.notModified && (response.status < 200 || response.status >= 300)) {
      throw new SourceRunError(`HTTP ${response.status} from the feed`, response.headers["retry-after"] ?? null);
    }
    if (response.notModified) {
      summary.notModified = true;
    } else {
      const input = { bytes: response.body, contentType: response.contentType, url: response.url };
      const feed = deps.parseFeed ? await deps.parseFeed(input) : parseFeed(input);
      summary.itemsFound = feed.items.length;
      try {
        Object.assign(summary, await storeItems(deps, source, feed.items, options));
      } catch (error) {
        throw new StorageFailure(error);
      }
    }
    summary.ok = true;
    const finishedAt = dateOf(clock);
    state = {
      status: statusAfterRun(source.status, 0),
      // A 304 may omit the validators: keep the ones that produced it.
      etag: response.notModified ? (response.etag ?? source.etag) : response.etag,
      lastModified: response.notModified ? (response.lastModified ?? source.lastModified) : response.lastModified,
      lastFetchedAt: finishedAt,
      lastSuccessAt: finishedAt,
      lastHttpStatus: response.status,
      consecutiveErrors: 0,
      lastError: null,
      nextCheckAt: nextCheckAfterSuccess({
        now: finishedAt,
        pollIntervalMinutes: source.pollIntervalMinutes,
        retryAfter: response.headers["retry-after"],
        cacheControl: response.headers["cache-control"],
      }),
    };
  } catch (error) {
    if (options.signal?.aborted) {
      // Stopped from outside (shutdown): not the source's fault, so nothing counts against it.
      await deps.repos.ingestion.releaseLeases([source.id]);
      return { ...summary, error: "stopped before the source was done" };
    }
    const finishedAt = dateOf(clock);
    if (error instanceof StorageFailure) {
      // Our database failed, not the feed: nothing counts against the source, its validators stay
      // (so the next fetch brings the items again), and it is tried again soon.
      summary.error = `Could not store the items: ${rootCauseMessage(error.cause)}`;
      state = {
        status: source.status,
        lastFetchedAt: finishedAt,
        lastHttpStatus: summary.httpStatus,
        consecutiveErrors: source.consecutiveErrors,
        lastError: source.lastError,
        nextCheckAt: nextCheckAfterStorageFailure({ now: finishedAt, pollIntervalMinutes: source.pollIntervalMinutes }),
      };
      deps.logger.error({ sourceId: source.id, url: source.rssFeedUrl, err: summary.error }, "feed items could not be stored; retrying soon");
      return finishRun(deps, source, startedAt, summary, state);
    }
    const failures = source.consecutiveErrors + 1;
    summary.error = describeError(error);
    state = {
      status: statusAfterRun(source.status, failures),
      lastFetchedAt: finishedAt,
      lastHttpStatus: summary.httpStatus,
      consecutiveErrors: failures,
      lastError: summary.error,
      nextCheckAt: nextCheckAfterFailure({
        now: finishedAt,
        pollIntervalMinutes: source.pollIntervalMinutes,
        consecutiveErrors: failures,
        retryAfter: error instanceof SourceRunError ? error.retryAfter : null,
        random: deps.random,
      }),
    };
    // Told when a feed starts failing and when that marks it error; the failures in between and after
    // (every retry of a dead feed) are on the Sources page and at debug.
    const news = failures === 1 || (state.status === "error" && source.status !== "error");
    deps.logger[news ? "warn" : "debug"]({ sourceId: source.id, url: source.rssFeedUrl, failures, status: state.status, err: summary.error }, "feed ingestion failed");
  }
  return finishRun(deps, source, startedAt, summary, state);
}

// Writes the run's log row and the source's new state (releasing its lease).
async function finishRun(deps: IngestionDeps, source: IngestSourceRow, startedAt: Date, summary: SourceRunSummary, state: SourceStateUpdate) {
  await deps.repos.ingestion.finishSourceRun(
    {
      sourceId: source.id,
      startedAt,
      finishedAt: state.lastFetchedAt,
      httpStatus: summary.httpStatus,
      itemsFound: summary.itemsFound,
      itemsInserted: summary.inserted,
      itemsDuplicate: summary.duplicate,
      itemsRejected: summary.rejected,
      itemsFiltered: summary.filtered,
      itemsFailed: summary.failed,
      notModified: summary.notModified,
      error: summary.error,
    },
    state,
  );
  if (summary.ok) {
    deps.logger.debug(
      { sourceId: source.id, found: summary.itemsFound, inserted: summary.inserted, notModified: summary.notModified },
      "feed ingested",
    );
  }
  return summary;
}

/** Normalises and filters a feed's items, then hands them to the store step (preferring canonical URLs when asked). */
async function storeItems(deps: IngestionDeps, source: IngestSourceRow, items: FeedItem[], options: { useCanonical: boolean }): Promise<StoreCounts> {
  const candidates = items.map((item): Candidate => {
    const content = { title: item.title, summary: item.summary, contentHtml: item.contentHtml, imageUrl: item.imageUrl, publishedAt: item.publishedAt };
    if (!item.link) return { url: item.guid ?? "", normalizedUrl: null, urlHash: null, content, outcome: "failed", reason: "item has no link" };
    const candidate = candidateFromUrl(item.link, content);
    if (candidate.outcome !== undefined) return candidate;
    const keywords = applyKeywords(item, { include: source.includeKeywords, exclude: source.excludeKeywords });
    return keywords.keep ? candidate : { ...candidate, outcome: "filtered_out", reason: keywords.reason };
  });
  if (options.useCanonical) {
    // Known URLs first, so that only new items cost a page fetch.
    await settleKnownUrls(deps, candidates);
    await eachLimit(
      candidates.filter((c) => c.outcome === undefined),
      CANONICAL_CONCURRENCY,
      (candidate) => preferCanonical(deps, candidate, sourcePace(source.scrapingConfig)),
    );
  }
  return storeCandidates(deps, candidates, { sourceId: source.id });
}

// With use_canonical, the page's rel=canonical identifies the story instead of the feed's link.
async function preferCanonical(deps: IngestionDeps, candidate: Candidate, pace: ReturnType<typeof sourcePace>) {
  try {
    const page = await deps.http.fetch(candidate.url, { ...pace, headers: { accept: PAGE_ACCEPT } });
    if (page.status < 200 || page.status >= 300) return;
    candidate.canonicalUrl = extractCanonicalUrl(decodeHtmlBytes(page.body, page.contentType), page.url);
  } catch (error) {
    // The feed's own link still identifies the story; the canonical look-up is a refinement.
    deps.logger.debug({ url: candidate.url, err: describeError(error) }, "canonical look-up failed; keeping the feed link");
  }
}

/** Storing a feed's items failed: a fault of our database, never of the feed. */
class StorageFailure extends Error {
  constructor(cause: unknown) {
    super("storing the items failed", { cause });
  }
}

class SourceRunError extends Error {
  constructor(
    message: string,
    readonly retryAfter: string | null,
  ) {
    super(message);
  }
}
