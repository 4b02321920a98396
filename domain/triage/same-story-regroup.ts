import type { GroupingRow, SameStoryWrite, TriageRepo } from "~/db/repos/triage.repo";
import { dateOf, systemClock, type Clock } from "~/lib/clock";
import { groupSameStories, SAME_TEXT_DAYS, type SameStoryInput } from "./same-story";
import { hostOf } from "./text-features";

/** Pending stories are read this many at a time. */
const READ_PAGE = 5_000;
/** Groups are written this many stories per statement. */
const WRITE_BATCH = 1_000;
/**
 * Published stories a pending one is checked against: those published in the last month. A copy
 * arrives within days of the original; the month leaves room for a story left pending a while.
 */
export const PUBLISHED_LOOKBACK_DAYS = Math.max(30, SAME_TEXT_DAYS);

export type RegroupDeps = {
  triage: Pick<TriageRepo, "pendingForGrouping" | "publishedForGrouping" | "writeSameStory">;
  now?: Clock;
  /** Stories read per page and written per statement (smaller in tests). */
  readPage?: number;
  writeBatch?: number;
};

/** What a regrouping did: what it read, what it found, and how many stories' groups changed. */
export type RegroupResult = { pending: number; published: number; groups: number; grouped: number; changed: number; ms: number };

const toInput = (row: GroupingRow): SameStoryInput => ({
  id: row.id,
  title: row.title,
  summary: row.summary,
  sourceId: row.sourceId,
  sourceName: row.sourceName,
  linkHost: hostOf(row.link),
  at: row.at,
});

/**
 * Groups the whole inbox again: reads every pending story and the recently published ones, groups
 * those that report one event (domain/triage/same-story.ts), and writes each pending story's group
 * and reason, changing only the stories whose group or reason changed (a story now alone is cleared).
 * Idempotent; meant to run as a job after ingestion and on demand.
 */
export async function regroupSameStories(deps: RegroupDeps): Promise<RegroupResult> {
  const started = performance.now();
  const now = dateOf(deps.now ?? systemClock);
  const readPage = deps.readPage ?? READ_PAGE;
  const writeBatch = deps.writeBatch ?? WRITE_BATCH;
  const pending: GroupingRow[] = [];
  for (let afterId = 0; ; ) {
    const page = await deps.triage.pendingForGrouping(afterId, readPage);
    pending.push(...page);
    if (page.length < readPage) break;
    afterId = page[page.length - 1]!.id;
  }
  const published = await deps.triage.publishedForGrouping(new Date(now.getTime() - PUBLISHED_LOOKBACK_DAYS * 86_400_000));
  const groups = groupSameStories(pending.map(toInput), published.map(toInput));

  const wanted = new Map<number, { group: number; reason: string }>();
  for (const group of groups) for (const member of group.pending) wanted.set(member.id, { group: group.groupId, reason: member.reason });
  const changes: SameStoryWrite[] = [];
  for (const row of pending) {
    const next = wanted.get(row.id) ?? { group: null, reason: null };
    if (next.group !== row.sameStoryGroup || next.reason !== row.sameStoryReason) changes.push({ id: row.id, ...next });
  }
  let changed = 0;
  for (let i = 0; i < changes.length; i += writeBatch) changed += await deps.triage.writeSameStory(changes.slice(i, i + writeBatch));
  return { pending: pending.length, published: published.length, groups: groups.length, grouped: wanted.size, changed, ms: Math.round(performance.now() - started) };
}
