import { DomainError } from "~/domain/errors";
import { extractArticle } from "~/integrations/extract/extract-article";
import { decodeHtmlBytes } from "~/lib/decode-bytes";
import { isHttpUrl } from "~/lib/http-url";
import type { FetchRequest } from "~/integrations/http/types";
import { PAGE_ACCEPT } from "./accept";
import type { IngestionDeps } from "./deps";
import { describeError } from "./describe-error";
import { eachLimit } from "~/lib/each-limit";
import { sourcePace } from "./source-pace";
import { candidateFromUrl, settleKnownUrls, storeCandidates, type Candidate } from "./store-candidates";

export type ScrapeOutcome = "inserted" | "duplicate" | "previously_rejected" | "failed";

export type ScrapeUrlResult = { url: string; success: boolean; outcome: ScrapeOutcome; error?: string; storyId?: number };

/** The result of scrape-urls: counts, and one line per URL in input order. */
export type ScrapeResult = { inserted: number; skipped: number; failed: number; total: number; results: ScrapeUrlResult[] };

export const DEFAULT_MIN_BODY = 500;
/** URLs per call: enough for a pasted list, short enough to answer within a request. */
export const MAX_URLS = 50;
const CONCURRENCY = 4;

/**
 * Fetches each URL through the politeness gate (robots.txt, the source's crawl delay), extracts its
 * article and stores it as a pending story. URLs already stored or rejected are skipped; pages that fail, or whose text is shorter
 * than the source's minBodyThreshold (default 500 characters), count as failed.
 */
export async function scrapeUrls(deps: IngestionDeps, input: { urls: string[]; sourceId?: number | null }): Promise<ScrapeResult> {
  const urls = input.urls.map((u) => u.trim()).filter((u) => u !== "");
  if (urls.length === 0) throw new DomainError("NO_URLS", "Paste one or more valid URLs first.");
  if (urls.length > MAX_URLS) throw new DomainError("TOO_MANY_URLS", `At most ${MAX_URLS} URLs at a time.`);
  const source = input.sourceId ? await deps.repos.ingestion.findSource(input.sourceId) : null;
  if (input.sourceId && !source) throw new DomainError("SOURCE_NOT_FOUND", `Source ${input.sourceId} does not exist.`);
  const configured = Number(source?.scrapingConfig?.minBodyThreshold);
  const minBody = Number.isFinite(configured) && configured >= 0 ? configured : DEFAULT_MIN_BODY;
  const sourceId = source?.id ?? null;

  const candidates = urls.map((url): Candidate =>
    isHttpUrl(url) ? candidateFromUrl(url) : { url, normalizedUrl: null, urlHash: null, outcome: "failed", reason: "Not an http(s) URL" },
  );
  // Known and repeated URLs are settled before any page is fetched.
  await settleKnownUrls(deps, candidates);
  // The source's pace and name, where there is a source, for the politeness gate `http` is.
  const load = fetchPageLoader(deps, sourcePace(source?.scrapingConfig));
  await eachLimit(
    candidates.filter((c) => c.outcome === undefined),
    CONCURRENCY,
    (candidate) => readArticlePage(deps, candidate, { minBody, sourceId, load }),
  );
  await storeCandidates(deps, candidates, { sourceId });

  const results = candidates.map((c): ScrapeUrlResult => ({
    url: c.url,
    success: c.outcome !== "failed",
    outcome: c.outcome as ScrapeOutcome,
    ...(c.outcome !== "inserted" && c.reason ? { error: c.reason } : {}),
    ...(c.storyId ? { storyId: c.storyId } : {}),
  }));
  const count = (...outcomes: ScrapeOutcome[]) => results.filter((r) => outcomes.includes(r.outcome)).length;
  const result = {
    inserted: count("inserted"),
    skipped: count("duplicate", "previously_rejected"),
    failed: count("failed"),
    total: results.length,
    results,
  };
  deps.logger.info({ sourceId, inserted: result.inserted, skipped: result.skipped, failed: result.failed }, "manual scrape finished");
  return result;
}

/** A page as read for extraction: fetched and decoded, or rendered by a browser. */
export type LoadedPage = { url: string; status: number; contentType: string | null; html: string };

/** Reads one page: fetched through `http` (the politeness gate), or rendered by a caller that brings its own. */
export type PageLoader = (url: string) => Promise<LoadedPage>;

export function fetchPageLoader(deps: Pick<IngestionDeps, "http">, polite: Pick<FetchRequest, "userAgent" | "crawlDelayMs"> = {}): PageLoader {
  return async (url) => {
    const page = await deps.http.fetch(url, { ...polite, headers: { accept: PAGE_ACCEPT } });
    return { url: page.url, status: page.status, contentType: page.contentType, html: decodeHtmlBytes(page.body, page.contentType) };
  };
}

/**
 * Loads and extracts one page into its candidate; a page that cannot become a story (an HTTP error,
 * not a web page, too little text, a failed fetch) settles the candidate as failed with the reason.
 */
export async function readArticlePage(
  deps: Pick<IngestionDeps, "logger">,
  candidate: Candidate,
  input: { minBody: number; sourceId: number | null; load: PageLoader },
): Promise<void> {
  const fail = (reason: string): void => {
    candidate.outcome = "failed";
    candidate.reason = reason;
  };
  try {
    const page = await input.load(candidate.url);
    if (page.status < 200 || page.status >= 300) return fail(`HTTP ${page.status}`);
    if (page.contentType && !/html|xml/i.test(page.contentType)) return fail(`Not a web page (${page.contentType})`);
    const article = extractArticle(page.html, page.url);
    candidate.content = { title: article.title, summary: article.summary, contentHtml: article.contentHtml, imageUrl: article.imageUrl, publishedAt: article.publishedAt };
    if (article.textLength < input.minBody) {
      return fail(`Too little text (${article.textLength} characters; at least ${input.minBody} needed)`);
    }
    candidate.storyUrl = page.url;
    candidate.canonicalUrl = article.canonicalUrl;
  } catch (error) {
    const message = describeError(error);
    deps.logger.warn({ url: candidate.url, sourceId: input.sourceId, err: message }, "scrape failed");
    fail(message);
  }
}
