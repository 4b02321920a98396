import type { CandidateRecord } from "~/db/repos/ingestion.repo";
import { normalizeUrl } from "~/lib/normalize-url";
import { plausiblePublishedAt } from "~/lib/parse-date";
import { dateOf, systemClock } from "~/lib/clock";
import type { IngestionDeps } from "./deps";
import { draftStory } from "./story-draft";

export type CandidateOutcome = CandidateRecord["outcome"];

/** What a feed item or an extracted page brings to its story. */
export type CandidateContent = {
  title: string | null;
  summary: string | null;
  contentHtml: string | null;
  imageUrl: string | null;
  /** When the feed item or the page says it was published (ISO 8601); kept on the story as the source's date. */
  publishedAt?: string | null;
};

/**
 * A URL found by a feed, a pasted list or a crawl, on its way to becoming a pending story. Callers
 * settle the ones they already know the fate of (failed, filtered out) by setting `outcome`; the
 * store step settles the rest.
 */
export type Candidate = {
  /** The URL as found (a feed's link, a pasted URL); recorded as is. */
  url: string;
  /** Its normalised form and hash; null when it has none (then `outcome` says why). */
  normalizedUrl: string | null;
  urlHash: string | null;
  /** The URL the story links to when it is not `url` (a page's final URL after redirects). */
  storyUrl?: string;
  /** The page's rel=canonical URL: when it normalises, it identifies the story and is what the story links to. */
  canonicalUrl?: string | null;
  /**
   * The date the listing that found the URL gave it (the URL Que row's sitemap date): the story's
   * date only when the page itself states none, since the page speaks for its own article.
   */
  listedAt?: Date | null;
  content?: CandidateContent;
  outcome?: CandidateOutcome;
  reason?: string | null;
  storyId?: number | null;
};

export type StoreCounts = {
  inserted: number;
  duplicate: number;
  rejected: number;
  filtered: number;
  failed: number;
};

const MAX_RECORDED_URL = 2048;
const MAX_RECORDED_TITLE = 500;

/** A candidate for a found URL: normalised, or already failed when the URL cannot be. */
export function candidateFromUrl(url: string, content?: CandidateContent): Candidate {
  const normalized = normalizeUrl(url);
  if (!normalized.ok)
    return {
      url,
      normalizedUrl: null,
      urlHash: null,
      content,
      outcome: "failed",
      reason: `Bad URL: ${normalized.error.message}`,
    };
  return {
    url,
    normalizedUrl: normalized.normalized,
    urlHash: normalized.hash,
    content,
  };
}

/**
 * Settles the open candidates whose URL is already a story, was rejected before, or came earlier in
 * the same batch. Callers run it before fetching pages, so known URLs cost no fetch; storeCandidates
 * checks again, with the canonical URLs found meanwhile.
 */
export async function settleKnownUrls(deps: Pick<IngestionDeps, "repos">, candidates: Candidate[]): Promise<void> {
  const open = candidates.filter((c) => c.outcome === undefined && c.urlHash !== null);
  await settleKnown(
    deps,
    open.map((c) => ({
      candidate: c,
      hash: c.urlHash as string,
      canonical: false,
    })),
  );
}

/**
 * The one dedup-and-store step: each open candidate is identified by its canonical URL when it has a
 * valid one (else its own), checked against stories, rejected stories and the rest of the batch, and
 * stored as a pending story; every candidate, settled or not, is recorded in scraped_candidates.
 * Settles the candidates in place and returns the counts by outcome.
 */
export async function storeCandidates(
  deps: Pick<IngestionDeps, "repos" | "now">,
  candidates: Candidate[],
  input: { sourceId: number | null },
): Promise<StoreCounts> {
  const open: Identified[] = [];
  for (const candidate of candidates) {
    if (candidate.outcome !== undefined) continue;
    if (candidate.urlHash === null || candidate.normalizedUrl === null) {
      settle(candidate, "failed", "No URL to store");
    } else if (!candidate.content) {
      settle(candidate, "failed", "Nothing to store");
    } else {
      open.push(identify(candidate));
    }
  }
  await settleKnown(deps, open);

  const fresh = open.filter(({ candidate }) => candidate.outcome === undefined);
  // Every story a source brings in starts in the source's default category, when it names one.
  const categoryId =
    fresh.length > 0 && input.sourceId !== null ? ((await deps.repos.ingestion.findSource(input.sourceId))?.defaultCategoryId ?? null) : null;
  const now = dateOf(deps.now ?? systemClock);
  const inserted = await deps.repos.ingestion.insertPendingStories(
    fresh.map(({ candidate, hash, url, normalizedUrl }) =>
      draftStory({
        ...(candidate.content as CandidateContent),
        originalUrl: url,
        normalizedUrl,
        urlHash: hash,
        sourceId: input.sourceId,
        categoryId,
        sourcePublishedAt: sourceDate(candidate, now),
      }),
    ),
  );
  for (const { candidate, hash } of fresh) {
    const storyId = inserted.get(hash);
    if (storyId === undefined) settle(candidate, "duplicate", "Stored by another run meanwhile");
    else settle(candidate, "inserted", null, storyId);
  }

  await deps.repos.ingestion.recordCandidates(candidates.map((c) => candidateRecord(c, input.sourceId)));
  const count = (outcome: CandidateOutcome) => candidates.filter((c) => c.outcome === outcome).length;
  return {
    inserted: count("inserted"),
    duplicate: count("duplicate"),
    rejected: count("previously_rejected"),
    filtered: count("filtered_out"),
    failed: count("failed"),
  };
}

// The page's or item's own date first, then the listing's; a date that cannot be true is no date.
function sourceDate(candidate: Candidate, now: Date): Date | null {
  return plausiblePublishedAt(candidate.content?.publishedAt, now) ?? plausiblePublishedAt(candidate.listedAt, now);
}

type Identified = {
  candidate: Candidate;
  hash: string;
  canonical: boolean;
  url: string;
  normalizedUrl: string;
};

// The story's identity: its canonical URL when that normalises, else the URL found.
function identify(candidate: Candidate): Identified {
  const canonical = candidate.canonicalUrl ? normalizeUrl(candidate.canonicalUrl) : null;
  const identity = canonical?.ok
    ? {
        hash: canonical.hash,
        normalizedUrl: canonical.normalized,
        url: candidate.canonicalUrl as string,
        canonical: canonical.hash !== candidate.urlHash,
      }
    : {
        hash: candidate.urlHash as string,
        normalizedUrl: candidate.normalizedUrl as string,
        url: candidate.storyUrl ?? candidate.url,
        canonical: false,
      };
  // The record keeps the identity the story was checked (and stored) under.
  candidate.normalizedUrl = identity.normalizedUrl;
  candidate.urlHash = identity.hash;
  return { candidate, ...identity };
}

async function settleKnown(deps: Pick<IngestionDeps, "repos">, open: Pick<Identified, "candidate" | "hash" | "canonical">[]): Promise<void> {
  if (open.length === 0) return;
  const known = await deps.repos.ingestion.knownUrlHashes([...new Set(open.map((c) => c.hash))]);
  const seen = new Set<string>();
  for (const { candidate, hash, canonical } of open) {
    const subject = canonical ? "Its canonical URL" : "This URL";
    if (known.rejected.has(hash)) settle(candidate, "previously_rejected", `${subject} was rejected before`);
    else if (known.stories.has(hash)) settle(candidate, "duplicate", `${subject} is already a story`);
    else if (seen.has(hash)) settle(candidate, "duplicate", "Repeated earlier in the same list");
    seen.add(hash);
  }
}

function settle(candidate: Candidate, outcome: CandidateOutcome, reason: string | null, storyId: number | null = null) {
  candidate.outcome = outcome;
  candidate.reason = reason;
  candidate.storyId = storyId;
}

function candidateRecord(candidate: Candidate, sourceId: number | null): CandidateRecord {
  return {
    sourceId,
    url: candidate.url.slice(0, MAX_RECORDED_URL),
    normalizedUrl: candidate.normalizedUrl,
    urlHash: candidate.urlHash,
    title: candidate.content?.title?.slice(0, MAX_RECORDED_TITLE) ?? null,
    outcome: candidate.outcome ?? "failed",
    reason: candidate.reason ?? null,
    storyId: candidate.storyId ?? null,
  };
}
