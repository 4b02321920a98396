import type { CrawlSourceRow, QueueRow } from "~/db/repos/crawl.repo";
import { PAGE_ACCEPT } from "~/domain/ingestion/accept";
import { dateOf, systemClock } from "~/lib/clock";
import { describeError } from "~/domain/ingestion/describe-error";
import { eachLimit } from "~/lib/each-limit";
import { applyKeywords } from "~/domain/ingestion/keywords";
import { readArticlePage, type PageLoader } from "~/domain/ingestion/scrape-urls";
import { candidateFromUrl, storeCandidates, type Candidate } from "~/domain/ingestion/store-candidates";
import { decodeHtmlBytes } from "~/lib/decode-bytes";
import { readCrawlConfig, type CrawlConfig } from "./config";
import type { CrawlDeps } from "./deps";
import { pauseAfter, robotsDisallowedReason } from "./polite-client";
import type { OnProgress } from "~/lib/progress";
import { URL_QUEUE_LIMIT, urlSelection } from "./url-queue";

/** The spec's text for a row left queued after a failed or rate-limited scrape (section 4). */
export const LEFT_QUEUED_TEXT = "Scrape failed or rate limited. Left queued for retry.";
/** Failed attempts after which a row is marked failed. */
export const MAX_ATTEMPTS = 3;
/** Rows per scrape run: the URL Que lists at most 1000. */
export const MAX_SCRAPE_ROWS = URL_QUEUE_LIMIT;
const PAGES_AT_ONCE = 4;

export type QueueScrapeItem = { id: number; url: string; success: boolean; outcome: string; error?: string; storyId?: number };

/** rate_limited: failures where the site answered 429 or 503 (the URL Que's toast says so). */
export type QueueScrapeResult = { succeeded: number; failed: number; rate_limited: number; total: number; results: QueueScrapeItem[] };

export const RATE_LIMITED = "Rate limited";

/**
 * Scrapes queued URLs into pending stories of their sources: grouped by source (its config, its
 * keywords), each page read politely (robots.txt, crawl delay, its User-Agent, headless Chromium for
 * jsRendering sources), then the one store step. A success marks the row scraped and clears its
 * error; a failure leaves it queued with the spec's text and the reason, and the third failure marks
 * it failed with the last reason.
 */
export async function scrapeQueue(
  deps: CrawlDeps,
  input: { ids?: number[]; sourceId?: number; limit?: number; notAttemptedSince?: Date | null },
  options: { signal?: AbortSignal; onProgress?: OnProgress } = {},
): Promise<QueueScrapeResult> {
  const rows = await pickRows(deps, input);
  const bySource = new Map<number | null, QueueRow[]>();
  for (const row of rows) bySource.set(row.sourceId, [...(bySource.get(row.sourceId) ?? []), row]);

  const results = new Map<number, QueueScrapeItem>();
  let done = 0;
  await options.onProgress?.({ done, total: rows.length });
  for (const [sourceId, group] of bySource) {
    options.signal?.throwIfAborted();
    const source = sourceId === null ? null : await deps.repos.ingestion.findSource(sourceId);
    await scrapeGroup(deps, source, group, options.signal, async (item) => {
      results.set(item.id, item);
      done += 1;
      await options.onProgress?.({ done, total: rows.length });
    });
  }

  const ordered = rows.map((row) => results.get(row.id)!);
  const succeeded = ordered.filter((r) => r.success).length;
  const rateLimited = ordered.filter((r) => !r.success && r.error?.startsWith(RATE_LIMITED)).length;
  deps.logger.debug({ succeeded, failed: ordered.length - succeeded, rateLimited }, "queue scrape finished");
  return { succeeded, failed: ordered.length - succeeded, rate_limited: rateLimited, total: ordered.length, results: ordered };
}

/** Writes one row's outcome: scraped, or left queued with the spec's text (failed at the last attempt). */
async function settleRow(deps: CrawlDeps, item: QueueScrapeItem): Promise<void> {
  const at = dateOf(deps.now ?? systemClock);
  if (item.success) return deps.repos.crawl.markScraped([item.id], at);
  const reason = item.error ?? "Unknown error";
  await deps.repos.crawl.markAttemptFailed(item.id, {
    error: `${LEFT_QUEUED_TEXT} Reason: ${reason}`,
    finalError: `Failed ${MAX_ATTEMPTS} times. Last reason: ${reason}`,
    maxAttempts: MAX_ATTEMPTS,
    at,
  });
}

async function pickRows(deps: CrawlDeps, input: { ids?: number[]; sourceId?: number; limit?: number; notAttemptedSince?: Date | null }): Promise<QueueRow[]> {
  const since = input.notAttemptedSince;
  // A run taken up again after its process died leaves out the rows it had settled already.
  const open = (row: QueueRow) => !since || row.lastAttemptAt === null || row.lastAttemptAt < since;
  if (input.ids) {
    const ids = urlSelection(input.ids);
    const rows = await deps.repos.crawl.findByIds(ids);
    const byId = new Map(rows.map((r) => [r.id, r]));
    return ids.flatMap((id) => byId.get(id) ?? []).filter(open);
  }
  const limit = Math.min(Math.max(1, input.limit ?? 20), MAX_SCRAPE_ROWS);
  return (await deps.repos.crawl.list({ status: "queued", sourceId: input.sourceId ?? null, limit })).filter(open);
}

async function scrapeGroup(
  deps: CrawlDeps,
  source: CrawlSourceRow | null,
  rows: QueueRow[],
  signal: AbortSignal | undefined,
  onRowDone: (item: QueueScrapeItem) => Promise<void>,
): Promise<void> {
  let config: CrawlConfig;
  try {
    config = readCrawlConfig(source?.scrapingConfig, { userAgent: deps.userAgent });
  } catch (error) {
    const reason = describeError(error);
    for (const row of rows) {
      const item: QueueScrapeItem = { id: row.id, url: row.url, success: false, outcome: "failed", error: reason };
      await settleRow(deps, item);
      await onRowDone(item);
    }
    return;
  }
  const load: PageLoader = async (url) => {
    const robots = await deps.http.robotsOf(url, { userAgent: config.userAgent, crawlDelayMs: config.crawlDelayMs, signal });
    if (robots.state === "unreachable") throw new Error(robots.reason ?? "robots.txt unreachable");
    if (!robots.rules.isAllowed(url, config.userAgent)) throw new Error(robotsDisallowedReason(url));
    const polite = { userAgent: config.userAgent, crawlDelayMs: config.crawlDelayMs, signal };
    if (config.jsRendering) {
      const renderer = deps.renderer;
      if (!renderer) throw new Error("jsRendering is on but no headless browser is available on this server");
      // Each of the page's requests goes through the gate on its own (the renderer's client is the gate).
      const page = await renderer.render(url, { waitForSelector: config.waitForSelector ?? undefined, ...polite });
      return { url: page.url, status: page.status, contentType: page.contentType, html: page.html };
    }
    const response = await deps.http.fetch(url, { ...polite, headers: { accept: PAGE_ACCEPT } });
    if (pauseAfter(response) !== null) throw new Error(`${RATE_LIMITED} (HTTP ${response.status})`);
    return { url: response.url, status: response.status, contentType: response.contentType, html: decodeHtmlBytes(response.body, response.contentType) };
  };

  const sourceId = source?.id ?? null;
  // Each page is stored and its row settled as soon as it is read, so a run cut off (kill -9)
  // loses none of the pages it had fetched, and a run taken up again skips them.
  await eachLimit(rows, PAGES_AT_ONCE, async (row) => {
    signal?.throwIfAborted();
    const candidate: Candidate = { ...candidateFromUrl(row.url), listedAt: row.lastmod };
    if (candidate.outcome === undefined) {
      await readArticlePage(deps, candidate, { minBody: config.minBodyThreshold, sourceId, load });
      if (candidate.outcome === undefined && candidate.content && source) {
        const keywords = applyKeywords(
          { title: candidate.content.title, summary: candidate.content.summary },
          { include: source.includeKeywords, exclude: source.excludeKeywords },
        );
        if (!keywords.keep) {
          candidate.outcome = "filtered_out";
          candidate.reason = keywords.reason;
        }
      }
    }
    await storeCandidates(deps, [candidate], { sourceId });
    const success = candidate.outcome !== "failed";
    const item: QueueScrapeItem = {
      id: row.id,
      url: row.url,
      success,
      outcome: candidate.outcome ?? "failed",
      ...(candidate.outcome !== "inserted" && candidate.reason ? { error: candidate.reason } : {}),
      ...(candidate.storyId ? { storyId: candidate.storyId } : {}),
    };
    await settleRow(deps, item);
    await onRowDone(item);
  });
}
