import type { CandidateRecord } from "~/db/repos/ingestion.repo";
import { DomainError } from "~/domain/errors";
import { normalizeUrl } from "~/domain/urls/normalize-url";
import { extractArticle } from "~/integrations/extract/extract-article";
import { isFetchError } from "~/integrations/http/guarded-client";
import { PAGE_ACCEPT } from "./accept";
import { decodeHtmlBytes } from "./decode-html";
import type { IngestionDeps } from "./deps";
import { eachLimit } from "./each-limit";
import { draftStory } from "./story-draft";

export type ScrapeOutcome = "inserted" | "duplicate" | "previously_rejected" | "failed";

export type ScrapeUrlResult = { url: string; success: boolean; outcome: ScrapeOutcome; error?: string; storyId?: number };

/** The result of scrape-urls: counts, and one line per URL in input order. */
export type ScrapeResult = { inserted: number; skipped: number; failed: number; total: number; results: ScrapeUrlResult[] };

export const DEFAULT_MIN_BODY = 500;
/** URLs per call: enough for a pasted list, short enough to answer within a request. */
export const MAX_URLS = 50;
const CONCURRENCY = 4;

/**
 * Fetches each URL through the guarded client, extracts its article and stores it as a pending
 * story. URLs already stored or rejected are skipped; pages that fail, or whose text is shorter
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

  const results: ScrapeUrlResult[] = new Array(urls.length);
  const candidates: CandidateRecord[] = [];
  const seen = new Set<string>();
  await eachLimit(urls, CONCURRENCY, async (url, index) => {
    const done = (outcome: ScrapeOutcome, extra: { error?: string; storyId?: number; normalizedUrl?: string; urlHash?: string; title?: string | null } = {}) => {
      results[index] = {
        url,
        success: outcome !== "failed",
        outcome,
        ...(extra.error ? { error: extra.error } : {}),
        ...(extra.storyId ? { storyId: extra.storyId } : {}),
      };
      candidates.push({
        sourceId,
        url: url.slice(0, 2048),
        normalizedUrl: extra.normalizedUrl ?? null,
        urlHash: extra.urlHash ?? null,
        title: extra.title?.slice(0, 500) ?? null,
        outcome,
        reason: extra.error ?? null,
        storyId: extra.storyId ?? null,
      });
    };
    if (!/^https?:\/\//i.test(url)) return done("failed", { error: "Not an http(s) URL" });
    const normalized = normalizeUrl(url);
    if (!normalized.ok) return done("failed", { error: normalized.error.message });
    const ids = { normalizedUrl: normalized.normalized, urlHash: normalized.hash };
    if (seen.has(normalized.hash)) return done("duplicate", { ...ids, error: "Repeated in the list" });
    seen.add(normalized.hash);
    const known = await deps.repos.ingestion.knownUrlHashes([normalized.hash]);
    if (known.rejected.has(normalized.hash)) return done("previously_rejected", { ...ids, error: "This URL was rejected before" });
    if (known.stories.has(normalized.hash)) return done("duplicate", { ...ids, error: "Already a story" });

    try {
      const page = await deps.http.fetch(url, { headers: { accept: PAGE_ACCEPT } });
      if (page.status < 200 || page.status >= 300) return done("failed", { ...ids, error: `HTTP ${page.status}` });
      if (page.contentType && !/html|xml/i.test(page.contentType)) return done("failed", { ...ids, error: `Not a web page (${page.contentType})` });
      const article = extractArticle(decodeHtmlBytes(page.body, page.contentType), page.url);
      if (article.textLength < minBody) {
        return done("failed", { ...ids, title: article.title, error: `Too little text (${article.textLength} characters; at least ${minBody} needed)` });
      }
      // The page's canonical URL identifies the story when it is valid; it may already be known.
      const canonical = article.canonicalUrl ? normalizeUrl(article.canonicalUrl) : null;
      const identity = canonical?.ok ? { url: article.canonicalUrl as string, ...canonical } : { url: page.url, ...normalized };
      if (identity.hash !== normalized.hash) {
        const knownCanonical = await deps.repos.ingestion.knownUrlHashes([identity.hash]);
        if (knownCanonical.rejected.has(identity.hash)) return done("previously_rejected", { ...ids, error: "Its canonical URL was rejected before" });
        if (knownCanonical.stories.has(identity.hash)) return done("duplicate", { ...ids, error: "Its canonical URL is already a story" });
      }
      const inserted = await deps.repos.ingestion.insertPendingStories([
        draftStory({
          title: article.title,
          summary: article.summary,
          contentHtml: article.contentHtml,
          imageUrl: article.imageUrl,
          originalUrl: identity.url,
          normalizedUrl: identity.normalized,
          urlHash: identity.hash,
          sourceId,
        }),
      ]);
      const storyId = inserted.get(identity.hash);
      if (storyId === undefined) return done("duplicate", { ...ids, title: article.title, error: "Already a story" });
      return done("inserted", { normalizedUrl: identity.normalized, urlHash: identity.hash, title: article.title, storyId });
    } catch (error) {
      const message = isFetchError(error) ? `${error.code}: ${error.message}` : (error as Error).message;
      deps.logger.warn({ url, sourceId, err: message }, "scrape failed");
      return done("failed", { ...ids, error: message });
    }
  });

  await deps.repos.ingestion.recordCandidates(candidates);
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
