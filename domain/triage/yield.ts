import type { SourceYieldRow, TriageRepo } from "~/db/repos/triage.repo";
import { DomainError } from "~/domain/errors";
import { dateOf, systemClock, type Clock } from "~/lib/clock";

// What each source yields: over a window of days, the items it brought in and what became of them,
// so the desk can prune the sources that bring only noise.
//
// An item is brought in when it reached Pending within the window: a story created then, or a story
// created then and since rejected, whether rejected by hand or as the duplicate in a same-story group.
// Items a source's keywords filtered out, that were already known, or URLs rejected from the crawl
// queue before they were scraped never reached Pending and are not counted. The published, rejected
// and pending figures are what became of those same items, so they add up to the items brought in.

/** The windows the Sources page offers. */
export const YIELD_WINDOWS = [7, 30, 90] as const;
export type YieldWindow = (typeof YIELD_WINDOWS)[number];
export const DEFAULT_YIELD_WINDOW: YieldWindow = 30;
/** The longest window asked for (ten years). */
export const MAX_YIELD_DAYS = 3_650;

/** What a source yielded over the window. */
export type SourceYield = {
  sourceId: number;
  name: string;
  status: "active" | "inactive" | "error";
  broughtIn: number;
  published: number;
  rejected: number;
  pending: number;
  /**
   * Published share of the items brought in, 0 to 1 (what is worth the noise: every item the editor
   * had to look at, including those still waiting); null when it brought nothing in.
   */
  publishRate: number | null;
  /** Its last published story's publish date, at any time; null when none. */
  lastPublishedAt: string | null;
};

export type YieldReport = { days: number; since: string; sources: SourceYield[] };

export type YieldDeps = { triage: Pick<TriageRepo, "sourceYield">; now?: Clock };

function toYield(row: SourceYieldRow): SourceYield {
  return {
    sourceId: row.id,
    name: row.name,
    status: row.status,
    broughtIn: row.broughtIn,
    published: row.published,
    rejected: row.rejected,
    pending: row.pending,
    publishRate: row.broughtIn > 0 ? row.published / row.broughtIn : null,
    lastPublishedAt: row.lastPublishedAt?.toISOString() ?? null,
  };
}

/**
 * Best yield first: the higher publish rate, then more published, then fewer items (less noise for
 * the same rate), then by name; sources that brought nothing in come last.
 */
export function byBestYield(a: SourceYield, b: SourceYield): number {
  if ((a.publishRate === null) !== (b.publishRate === null)) return a.publishRate === null ? 1 : -1;
  return (b.publishRate ?? 0) - (a.publishRate ?? 0) || b.published - a.published || a.broughtIn - b.broughtIn || a.name.localeCompare(b.name) || a.sourceId - b.sourceId;
}

/**
 * Worst yield first: the lower publish rate, then more items (more noise for the same rate), then
 * by name; sources that brought nothing in come last (they bring no noise to prune).
 */
export function byWorstYield(a: SourceYield, b: SourceYield): number {
  if ((a.publishRate === null) !== (b.publishRate === null)) return a.publishRate === null ? 1 : -1;
  return (a.publishRate ?? 0) - (b.publishRate ?? 0) || b.broughtIn - a.broughtIn || a.name.localeCompare(b.name) || a.sourceId - b.sourceId;
}

/** Every source's yield over the last `days` days, best yield first: the figures of the Sources page and of `source:stats`. */
export async function sourceYields(deps: YieldDeps, input: { days: number }): Promise<YieldReport> {
  if (!Number.isInteger(input.days) || input.days < 1 || input.days > MAX_YIELD_DAYS) {
    throw new DomainError("INVALID_INPUT", `The window must be a whole number of days from 1 to ${MAX_YIELD_DAYS}.`);
  }
  const now = dateOf(deps.now ?? systemClock);
  const since = new Date(now.getTime() - input.days * 86_400_000);
  const rows = await deps.triage.sourceYield(since);
  return { days: input.days, since: since.toISOString(), sources: rows.map(toYield).sort(byBestYield) };
}

/** The orders the Sources page offers: as listed (newest first), best yield first, worst yield first. */
export const SOURCE_SORTS = ["newest", "best-yield", "worst-yield"] as const;
export type SourceSort = (typeof SOURCE_SORTS)[number];

/** Puts sources (with an `id`) in the order `sort` asks for, by their yields; "newest" keeps the order given. */
export function orderByYield<T extends { id: number }>(items: readonly T[], yields: readonly SourceYield[], sort: SourceSort): T[] {
  if (sort === "newest") return [...items];
  const ranked = [...yields].sort(sort === "best-yield" ? byBestYield : byWorstYield);
  const rank = new Map(ranked.map((y, i) => [y.sourceId, i]));
  // A source made after the yields were read has none yet: it goes last.
  return [...items].sort((a, b) => (rank.get(a.id) ?? ranked.length) - (rank.get(b.id) ?? ranked.length));
}
