import type { IngestSourceRow, CandidateRecord, SourceStateUpdate } from "~/db/repos/ingestion.repo";
import { normalizeUrl } from "~/domain/urls/normalize-url";
import { extractCanonicalUrl } from "~/integrations/extract/extract-article";
import { isFetchError } from "~/integrations/http/guarded-client";
import { FEED_ACCEPT, PAGE_ACCEPT } from "./accept";
import { decodeHtmlBytes } from "./decode-html";
import { systemClock, type IngestionDeps } from "./deps";
import { eachLimit } from "./each-limit";
import { parseFeed, type FeedItem } from "./feed/parse-feed";
import { applyKeywords } from "./keywords";
import { nextCheckAfterFailure, nextCheckAfterSuccess, statusAfterRun } from "./schedule";
import { draftStory } from "./story-draft";

/** The spec's rss-ingestion result (section 3). */
export type IngestionResult = { sources_processed: number; total_items_found: number; total_items_processed: number };

export type IngestionProgress = (progress: { done: number; total: number; message?: string }) => Promise<void> | void;

export type IngestionOptions = {
  /** "all": every polled RSS source now (the manual trigger); "due": those whose next check has come. */
  scope: "all" | "due";
  /** Prefer each new item's rel=canonical URL (one page fetch per new item). */
  useCanonical?: boolean;
  /** Only these sources (still only polled RSS ones). */
  sourceIds?: number[];
  onProgress?: IngestionProgress;
  /** Sources fetched at once (the HTTP client also limits each host to two). */
  concurrency?: number;
  /** Stops the cycle early (shutdown): sources not yet started are released for the next runner. */
  signal?: AbortSignal;
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

// Long enough for a slow feed (20 s fetch) plus storing its items; a crashed runner's lease lapses after it.
const LEASE_MS = 10 * 60_000;
const CANONICAL_CONCURRENCY = 4;

/** Runs one ingestion cycle: claims the sources, ingests each (one failing never stops the rest), and totals the result. */
export async function runIngestionCycle(deps: IngestionDeps, options: IngestionOptions): Promise<IngestionResult> {
  const clock = deps.clock ?? systemClock;
  const now = clock.now();
  const claimed = await deps.repos.ingestion.claimSources({
    scope: options.scope,
    now,
    leaseUntil: new Date(now.getTime() + LEASE_MS),
    sourceIds: options.sourceIds,
  });
  const result: IngestionResult = { sources_processed: 0, total_items_found: 0, total_items_processed: 0 };
  await options.onProgress?.({ done: 0, total: claimed.length, message: `Processing ${claimed.length} sources` });
  const skipped: number[] = [];
  await eachLimit(claimed, options.concurrency ?? 8, async (source) => {
    if (options.signal?.aborted) return void skipped.push(source.id);
    const run = await ingestSource(deps, source, { useCanonical: options.useCanonical === true, signal: options.signal });
    result.sources_processed++;
    result.total_items_found += run.itemsFound;
    result.total_items_processed += run.inserted;
    await options.onProgress?.({
      done: result.sources_processed,
      total: claimed.length,
      message: `Processed ${result.sources_processed} of ${claimed.length} sources`,
    });
  });
  if (skipped.length > 0) {
    await deps.repos.ingestion.releaseLeases(skipped);
    deps.logger.warn({ skipped: skipped.length }, "ingestion cycle stopped early; the remaining sources are left for the next cycle");
  }
  // A poll with nothing due is the common case: keep it out of the info log.
  deps.logger[claimed.length > 0 ? "info" : "debug"]({ ...result, scope: options.scope }, "ingestion cycle finished");
  return result;
}

/** Fetches one claimed source's feed (conditionally), stores its new items and records the run and the source's next check. */
export async function ingestSource(
  deps: IngestionDeps,
  source: IngestSourceRow,
  options: { useCanonical: boolean; signal?: AbortSignal },
): Promise<SourceRunSummary> {
  const clock = deps.clock ?? systemClock;
  const startedAt = clock.now();
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
      Object.assign(summary, await storeItems(deps, source, feed.items, options));
    }
    summary.ok = true;
    const finishedAt = clock.now();
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
    const finishedAt = clock.now();
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
    deps.logger.warn({ sourceId: source.id, url: source.rssFeedUrl, failures, err: summary.error }, "feed ingestion failed");
  }
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
    deps.logger.info(
      { sourceId: source.id, found: summary.itemsFound, inserted: summary.inserted, notModified: summary.notModified },
      "feed ingested",
    );
  }
  return summary;
}

type Candidate = {
  item: FeedItem;
  url: string;
  normalizedUrl: string | null;
  urlHash: string | null;
  outcome?: CandidateRecord["outcome"];
  reason?: string;
  storyId?: number;
};

/** Normalises, filters and deduplicates a feed's items, then stores the new ones as pending stories. */
async function storeItems(deps: IngestionDeps, source: IngestSourceRow, items: FeedItem[], options: { useCanonical: boolean }) {
  const candidates: Candidate[] = items.map((item) => {
    const url = item.link ?? item.guid ?? "";
    if (!item.link) return { item, url, normalizedUrl: null, urlHash: null, outcome: "failed", reason: "item has no link" };
    const normalized = normalizeUrl(item.link);
    if (!normalized.ok) return { item, url, normalizedUrl: null, urlHash: null, outcome: "failed", reason: `bad link: ${normalized.error.message}` };
    const keywords = applyKeywords(item, { include: source.includeKeywords, exclude: source.excludeKeywords });
    if (!keywords.keep) return { item, url, normalizedUrl: normalized.normalized, urlHash: normalized.hash, outcome: "filtered_out", reason: keywords.reason };
    return { item, url, normalizedUrl: normalized.normalized, urlHash: normalized.hash };
  });

  await markKnown(deps, candidates);
  if (options.useCanonical) {
    await eachLimit(
      candidates.filter((c) => c.outcome === undefined),
      CANONICAL_CONCURRENCY,
      (candidate) => preferCanonical(deps, candidate),
    );
    await markKnown(deps, candidates);
  }

  const fresh = candidates.filter((c) => c.outcome === undefined);
  const inserted = await deps.repos.ingestion.insertPendingStories(
    fresh.map((c) =>
      draftStory({
        title: c.item.title,
        summary: c.item.summary,
        contentHtml: c.item.contentHtml,
        imageUrl: c.item.imageUrl,
        originalUrl: c.url,
        normalizedUrl: c.normalizedUrl as string,
        urlHash: c.urlHash as string,
        sourceId: source.id,
      }),
    ),
  );
  for (const c of fresh) {
    const storyId = inserted.get(c.urlHash as string);
    if (storyId !== undefined) {
      c.outcome = "inserted";
      c.storyId = storyId;
    } else {
      c.outcome = "duplicate";
      c.reason = "stored by another runner meanwhile";
    }
  }

  await deps.repos.ingestion.recordCandidates(
    candidates.map((c) => ({
      sourceId: source.id,
      url: c.url.slice(0, 2048),
      normalizedUrl: c.normalizedUrl,
      urlHash: c.urlHash,
      title: c.item.title?.slice(0, 500) ?? null,
      outcome: c.outcome ?? "failed",
      reason: c.reason ?? null,
      storyId: c.storyId ?? null,
    })),
  );
  const count = (outcome: CandidateRecord["outcome"]) => candidates.filter((c) => c.outcome === outcome).length;
  return {
    inserted: count("inserted"),
    duplicate: count("duplicate"),
    rejected: count("previously_rejected"),
    filtered: count("filtered_out"),
    failed: count("failed"),
  };
}

// Marks the candidates whose URL is already a story or was rejected, and repeats within the feed itself.
async function markKnown(deps: IngestionDeps, candidates: Candidate[]) {
  const open = candidates.filter((c) => c.outcome === undefined);
  const known = await deps.repos.ingestion.knownUrlHashes([...new Set(open.map((c) => c.urlHash as string))]);
  const seen = new Set<string>();
  for (const c of open) {
    const hash = c.urlHash as string;
    if (known.rejected.has(hash)) {
      c.outcome = "previously_rejected";
      c.reason = "URL was rejected before";
    } else if (known.stories.has(hash)) {
      c.outcome = "duplicate";
      c.reason = "URL is already a story";
    } else if (seen.has(hash)) {
      c.outcome = "duplicate";
      c.reason = "URL repeated in the feed";
    }
    seen.add(hash);
  }
}

// With use_canonical, the page's rel=canonical replaces the feed's link when it is a valid, different URL.
async function preferCanonical(deps: IngestionDeps, candidate: Candidate) {
  try {
    const page = await deps.http.fetch(candidate.url, { headers: { accept: PAGE_ACCEPT } });
    if (page.status < 200 || page.status >= 300) return;
    const canonical = extractCanonicalUrl(decodeHtmlBytes(page.body, page.contentType), page.url);
    if (!canonical) return;
    const normalized = normalizeUrl(canonical);
    if (!normalized.ok || normalized.hash === candidate.urlHash) return;
    candidate.url = canonical;
    candidate.normalizedUrl = normalized.normalized;
    candidate.urlHash = normalized.hash;
  } catch (error) {
    // The feed's own link still identifies the story; the canonical look-up is a refinement.
    deps.logger.info({ url: candidate.url, err: describeError(error) }, "canonical look-up failed; keeping the feed link");
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

function describeError(error: unknown): string {
  if (isFetchError(error)) return `${error.code}: ${error.message}`;
  if (error instanceof Error) return error.message;
  return String(error);
}
