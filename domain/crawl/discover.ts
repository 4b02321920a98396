import { setImmediate as nextTurn } from "node:timers/promises";
import type { CrawlSourceRow, QueueCandidate } from "~/db/repos/crawl.repo";
import type { DiscoveryStats } from "~/db/schema";
import { describeError } from "~/domain/ingestion/describe-error";
import { SOURCE_LEASE_MS, SOURCE_LEASE_RENEW_MS } from "~/domain/sources/lease";
import { eachLimit } from "~/lib/each-limit";
import { nextCheckAfterFailure, nextCheckAfterSuccess, statusAfterRun } from "~/domain/ingestion/schedule";
import { dateOf, systemClock } from "~/lib/clock";
import { PAGE_ACCEPT } from "~/domain/ingestion/accept";
import { extractLinks, sameSite } from "~/integrations/crawl/links";
import { parseSitemap, SITEMAP_MAX_BYTES, type ParsedSitemap } from "~/integrations/crawl/sitemap";
import { decodeHtmlBytes } from "~/lib/decode-bytes";
import { keepLeases } from "~/lib/lease-keeper";
import { normalizeUrl } from "~/lib/normalize-url";
import { readCrawlConfig, type CrawlConfig } from "./config";
import type { CrawlDeps } from "./deps";
import { passesFilter } from "./patterns";
import type { OriginRobots } from "./robots-cache";
import { scrapeQueue, type QueueScrapeResult } from "./scrape-queue";
import type { OnProgress } from "~/lib/progress";

/** Sitemaps read per discovery, and how deep indexes may nest (index -> index -> urlset). */
export const MAX_SITEMAPS = 50;
export const MAX_SITEMAP_DEPTH = 3;
/** URLs considered per discovery, across sitemaps and start pages. */
export const MAX_DISCOVERED_URLS = 50_000;
const MAX_ERRORS_KEPT = 20;
const SITEMAP_ACCEPT = "application/xml, text/xml;q=0.9, application/x-gzip;q=0.8, text/plain;q=0.7, */*;q=0.5";
/** Sources discovered at once by one run. */
const SOURCES_AT_ONCE = 3;
/** URLs handled between two turns of the event loop: tens of thousands at once would hold every answer of the server. */
const URLS_PER_TURN = 500;

/** One source's discovery, as the CLI and the job report it. */
export type DiscoveryReport = {
  source_id: number;
  name: string;
  found: number;
  queued: number;
  skipped_robots: number;
  skipped_known: number;
  skipped_filtered: number;
  errors: string[];
  /** The run as a whole failed: nothing could be read (robots.txt unreachable, no sitemap or start page answered). */
  failed: boolean;
  auto_scrape?: Pick<QueueScrapeResult, "succeeded" | "failed">;
};

export type DiscoveryCycleResult = {
  sources_processed: number;
  found: number;
  queued: number;
  skipped_robots: number;
  skipped_known: number;
  errors: number;
  sources: DiscoveryReport[];
};

class NothingFetched extends Error {}

/**
 * Finds a web_scraping source's article URLs: robots.txt first (an unreachable one stops the run),
 * then its sitemaps (those robots.txt names, else /sitemap.xml; indexes followed, gzip and text
 * read) and the links of its start pages. Each URL on the source's site that passes its allow and
 * deny patterns and robots.txt, and is not yet queued, a story or rejected, is queued.
 */
export async function discoverSource(deps: CrawlDeps, source: CrawlSourceRow, options: { signal?: AbortSignal } = {}): Promise<DiscoveryReport> {
  const report: DiscoveryReport = {
    source_id: source.id,
    name: source.name,
    found: 0,
    queued: 0,
    skipped_robots: 0,
    skipped_known: 0,
    skipped_filtered: 0,
    errors: [],
    failed: false,
  };
  const log = deps.logger.child({ sourceId: source.id });
  // Each problem is kept on the report; the source's one warning at the end lists them.
  const noteError = (message: string) => {
    log.debug({ err: message }, "discovery problem");
    if (report.errors.length < MAX_ERRORS_KEPT) report.errors.push(message);
  };
  const fail = (message: string) => {
    noteError(message);
    report.failed = true;
    log.warn({ err: message }, "discovery failed");
    return report;
  };

  let config: CrawlConfig;
  try {
    config = readCrawlConfig(source.scrapingConfig, { userAgent: deps.userAgent });
  } catch (error) {
    return fail(describeError(error));
  }
  const siteUrl = source.websiteUrl ?? config.startUrls[0];
  if (!siteUrl) return fail("Nothing to discover from: set the Website URL, or startUrls in the scraping config.");

  const robotsOf = (url: string) => deps.http.robotsOf(url, { userAgent: config.userAgent, crawlDelayMs: config.crawlDelayMs, signal: options.signal });

  /** Fetches a page of the crawl when robots.txt allows it; null when it does not. `firstBytes`: read no more of the body than that. */
  const fetchAllowed = async (url: string, accept: string, firstBytes?: number) => {
    const robots = await robotsOf(url);
    if (robots.state === "unreachable") throw new NothingFetched(robots.reason ?? "robots.txt unreachable");
    if (!robots.rules.isAllowed(url, config.userAgent)) return null;
    const limit = firstBytes === undefined ? {} : { firstBytes, maxBodyBytes: firstBytes };
    return deps.http.fetch(url, { userAgent: config.userAgent, crawlDelayMs: config.crawlDelayMs, headers: { accept }, ...limit, signal: options.signal });
  };
  const readSitemap = deps.parseSitemap ?? parseSitemap;

  const siteRobots = await robotsOf(siteUrl);
  if (siteRobots.state === "unreachable") {
    return fail(`${siteRobots.reason ?? "robots.txt unreachable"}: nothing fetched from ${new URL(siteUrl).origin} this cycle.`);
  }

  const found = new Map<string, Date | null>();
  const add = (url: string, lastmod: string | null) => {
    if (found.size >= MAX_DISCOVERED_URLS && !found.has(url)) return;
    const date = lastmod ? new Date(lastmod) : null;
    const known = found.get(url);
    if (known === undefined || (date && (!known || date > known))) found.set(url, date);
  };

  // Sitemaps: breadth first, each once, a bounded number and depth.
  let attempted = 0;
  let answered = 0;
  const listed = siteRobots.rules.sitemaps.filter((url) => sameSite(url, siteUrl));
  const implicit = listed.length === 0;
  const pending: { url: string; depth: number }[] = (implicit ? [`${new URL(siteUrl).origin}/sitemap.xml`] : listed).map((url) => ({ url, depth: 0 }));
  const seenSitemaps = new Set(pending.map((p) => p.url));
  while (pending.length > 0 && attempted < MAX_SITEMAPS) {
    options.signal?.throwIfAborted();
    const { url, depth } = pending.shift()!;
    attempted += 1;
    let parsed: ParsedSitemap;
    try {
      // One byte past the limit tells a sitemap cut there from one that ends there.
      const response = await fetchAllowed(url, SITEMAP_ACCEPT, SITEMAP_MAX_BYTES + 1);
      if (!response) {
        report.skipped_robots += 1;
        continue;
      }
      if (response.status < 200 || response.status >= 300) {
        // No /sitemap.xml is normal for a site read through its start pages.
        if (!(implicit && response.status === 404 && config.startUrls.length > 0)) noteError(`Sitemap ${url}: HTTP ${response.status}`);
        continue;
      }
      parsed = await readSitemap(response.body, { url: response.url, contentType: response.contentType, truncated: response.truncated === true });
      answered += 1;
    } catch (error) {
      if (error instanceof NothingFetched) {
        noteError(`Sitemap ${url}: ${error.message}`);
        continue;
      }
      if (options.signal?.aborted) throw error;
      noteError(`Sitemap ${url}: ${describeError(error)}`);
      continue;
    }
    for (const warning of parsed.warnings) noteError(`Sitemap ${url}: ${warning}`);
    for (const [index, entry] of parsed.urls.entries()) {
      if (index % (10 * URLS_PER_TURN) === 0) await nextTurn();
      add(entry.loc, entry.lastmod ?? entry.news?.publicationDate ?? null);
    }
    for (const child of parsed.sitemaps) {
      if (seenSitemaps.has(child.loc)) continue;
      seenSitemaps.add(child.loc);
      if (depth + 1 >= MAX_SITEMAP_DEPTH) noteError(`Sitemap ${child.loc}: nested deeper than ${MAX_SITEMAP_DEPTH} levels; not read`);
      else if (!sameSite(child.loc, siteUrl)) noteError(`Sitemap ${child.loc}: on another site; not read`);
      else pending.push({ url: child.loc, depth: depth + 1 });
    }
  }
  if (pending.length > 0) noteError(`${pending.length} more sitemaps not read: at most ${MAX_SITEMAPS} per discovery`);

  // Start pages: their links on the same site.
  for (const startUrl of config.startUrls) {
    options.signal?.throwIfAborted();
    attempted += 1;
    try {
      const page = await readStartPage(deps, config, startUrl, fetchAllowed, robotsOf, options.signal);
      if (page === null) {
        report.skipped_robots += 1;
        continue;
      }
      if (page.status < 200 || page.status >= 300) {
        noteError(`Start page ${startUrl}: HTTP ${page.status}`);
        continue;
      }
      answered += 1;
      for (const link of extractLinks(page.html, page.url)) if (sameSite(link, page.url)) add(link, null);
    } catch (error) {
      if (options.signal?.aborted) throw error;
      noteError(`Start page ${startUrl}: ${error instanceof NothingFetched ? error.message : describeError(error)}`);
    }
  }
  if (attempted > 0 && answered === 0 && found.size === 0 && report.errors.length > 0) {
    report.failed = true;
  }

  report.found = found.size;
  await queueFound(deps, source.id, config, siteUrl, found, robotsOf, report);
  const troubled = report.errors.length > 0;
  log[troubled ? "warn" : "debug"](
    { found: report.found, queued: report.queued, skippedRobots: report.skipped_robots, skippedKnown: report.skipped_known, errors: report.errors },
    report.failed ? "discovery failed" : troubled ? "discovery finished with problems" : "discovery finished",
  );
  return report;
}

async function readStartPage(
  deps: CrawlDeps,
  config: CrawlConfig,
  url: string,
  fetchAllowed: (url: string, accept: string) => Promise<{ url: string; status: number; body: Buffer; contentType: string | null } | null>,
  robotsOf: (url: string) => Promise<OriginRobots>,
  signal?: AbortSignal,
): Promise<{ url: string; status: number; html: string } | null> {
  if (!config.jsRendering) {
    const response = await fetchAllowed(url, PAGE_ACCEPT);
    return response && { url: response.url, status: response.status, html: decodeHtmlBytes(response.body, response.contentType) };
  }
  const robots = await robotsOf(url);
  if (robots.state === "unreachable") throw new NothingFetched(robots.reason ?? "robots.txt unreachable");
  if (!robots.rules.isAllowed(url, config.userAgent)) return null;
  const renderer = deps.renderer;
  if (!renderer) throw new Error("jsRendering is on but no headless browser is available on this server");
  // Each of the page's requests goes through the gate on its own (the renderer's client is the gate).
  return renderer.render(url, { waitForSelector: config.waitForSelector ?? undefined, userAgent: config.userAgent, crawlDelayMs: config.crawlDelayMs, signal });
}

// Filters, checks robots.txt and queues what is new, counting every skip by its reason.
async function queueFound(
  deps: CrawlDeps,
  sourceId: number,
  config: CrawlConfig,
  siteUrl: string,
  found: Map<string, Date | null>,
  robotsOf: (url: string) => Promise<OriginRobots>,
  report: DiscoveryReport,
) {
  const candidates = new Map<string, QueueCandidate>();
  let handled = 0;
  for (const [url, lastmod] of found) {
    if (++handled % URLS_PER_TURN === 0) await nextTurn();
    if (!sameSite(url, siteUrl) || !passesFilter(config.filter, url)) {
      report.skipped_filtered += 1;
      continue;
    }
    const robots = await robotsOf(url);
    if (robots.state === "unreachable" || !robots.rules.isAllowed(url, config.userAgent)) {
      report.skipped_robots += 1;
      continue;
    }
    const normalized = normalizeUrl(url);
    if (!normalized.ok) {
      report.skipped_filtered += 1;
      continue;
    }
    if (candidates.has(normalized.hash)) {
      report.skipped_known += 1;
      continue;
    }
    candidates.set(normalized.hash, { url, normalizedUrl: normalized.normalized, urlHash: normalized.hash, lastmod, sourceId });
  }
  const known = await deps.repos.crawl.knownUrlHashes([...candidates.keys()]);
  const fresh = [...candidates.values()].filter((c) => !known.has(c.urlHash));
  report.queued = await deps.repos.crawl.enqueue(fresh);
  report.skipped_known += candidates.size - report.queued;
}

/**
 * One discovery cycle: every active web_scraping source ("all"), those due, or the ones named. Each
 * source's outcome is written on it (last run, counts, errors; three failed runs in a row set it to
 * error), and autoScrape, when set, scrapes that many of its newest queued URLs afterwards.
 */
export async function runDiscoveryCycle(
  deps: CrawlDeps,
  input: {
    scope: "all" | "due";
    sourceIds?: number[];
    signal?: AbortSignal;
    onProgress?: OnProgress;
    /** A run taken up again after its process died: sources discovered since then are done. */
    notFetchedSince?: Date | null;
    leaseMs?: number;
    leaseRenewMs?: number;
  },
): Promise<DiscoveryCycleResult> {
  const clock = deps.now ?? systemClock;
  const now = dateOf(clock);
  const leaseMs = input.leaseMs ?? SOURCE_LEASE_MS;
  const claimed = await deps.repos.crawl.claimSources({
    scope: input.scope,
    now,
    leaseUntil: new Date(now.getTime() + leaseMs),
    sourceIds: input.sourceIds,
    notFetchedSince: input.notFetchedSince,
  });
  const held = keepLeases<number>({
    renew: (ids) => deps.repos.crawl.renewSources(ids, new Date(clock() + leaseMs)),
    everyMs: input.leaseRenewMs ?? SOURCE_LEASE_RENEW_MS,
    onError: (error) => deps.logger.warn({ err: describeError(error) }, "could not renew the sources' leases; trying again"),
  });
  held.hold(claimed.map((source) => source.id));
  const reports: DiscoveryReport[] = [];
  let done = 0;
  await input.onProgress?.({ done, total: claimed.length });
  const finished = new Set<number>();
  try {
    await eachLimit(claimed, SOURCES_AT_ONCE, async (source) => {
      const started = dateOf(clock);
      let report: DiscoveryReport;
      try {
        report = await discoverSource(deps, source, { signal: input.signal });
      } catch (error) {
        if (input.signal?.aborted) throw error;
        report = { source_id: source.id, name: source.name, found: 0, queued: 0, skipped_robots: 0, skipped_known: 0, skipped_filtered: 0, errors: [describeError(error)], failed: true };
      }
      await finish(deps, source, report, started, dateOf(clock));
      finished.add(source.id);
      held.drop(source.id);
      const config = safeConfig(deps, source);
      if (!report.failed && config && config.autoScrape > 0) {
        const ids = await deps.repos.crawl.newestQueuedIds(source.id, config.autoScrape);
        if (ids.length > 0) {
          const scraped = await scrapeQueue(deps, { ids }, { signal: input.signal });
          report.auto_scrape = { succeeded: scraped.succeeded, failed: scraped.failed };
        }
      }
      reports.push(report);
      done += 1;
      await input.onProgress?.({ done, total: claimed.length, message: source.name });
    });
  } finally {
    held.stop();
    await deps.repos.crawl.releaseSources(claimed.filter((s) => !finished.has(s.id)).map((s) => s.id));
  }
  reports.sort((a, b) => a.source_id - b.source_id);
  const sum = (key: "found" | "queued" | "skipped_robots" | "skipped_known") => reports.reduce((n, r) => n + r[key], 0);
  return {
    sources_processed: reports.length,
    found: sum("found"),
    queued: sum("queued"),
    skipped_robots: sum("skipped_robots"),
    skipped_known: sum("skipped_known"),
    errors: reports.reduce((n, r) => n + r.errors.length, 0),
    sources: reports,
  };
}

function safeConfig(deps: CrawlDeps, source: CrawlSourceRow): CrawlConfig | null {
  try {
    return readCrawlConfig(source.scrapingConfig, { userAgent: deps.userAgent });
  } catch {
    return null;
  }
}

async function finish(deps: CrawlDeps, source: CrawlSourceRow, report: DiscoveryReport, started: Date, finishedAt: Date) {
  const stats: DiscoveryStats = {
    at: finishedAt.toISOString(),
    durationMs: finishedAt.getTime() - started.getTime(),
    found: report.found,
    queued: report.queued,
    skippedRobots: report.skipped_robots,
    skippedKnown: report.skipped_known,
    skippedFiltered: report.skipped_filtered,
    errors: report.errors,
  };
  const consecutiveErrors = report.failed ? source.consecutiveErrors + 1 : 0;
  await deps.repos.crawl.finishDiscovery(source.id, {
    stats,
    status: statusAfterRun(source.status, consecutiveErrors),
    consecutiveErrors,
    lastError: report.failed ? (report.errors[0] ?? "Discovery failed") : null,
    lastFetchedAt: finishedAt,
    ...(report.failed ? {} : { lastSuccessAt: finishedAt }),
    nextCheckAt: report.failed
      ? nextCheckAfterFailure({ now: finishedAt, pollIntervalMinutes: source.pollIntervalMinutes, consecutiveErrors, random: deps.random })
      : nextCheckAfterSuccess({ now: finishedAt, pollIntervalMinutes: source.pollIntervalMinutes }),
  });
}
