import type { SourcePatch, SourceRow, SourcesRepo } from "~/db/repos/sources.repo";
import { DomainError } from "~/domain/errors";
import { normalizeUrl } from "~/domain/urls/normalize-url";
import { HEALTH_WINDOW_DAYS, validateSourceForm, type SourceFieldErrors, type SourceFormInput, type SourceFormValues, type SourceType } from "./source-form";

// Source management for the Sources page (spec sections 2, 3, 4, 5 and 7): list with health, create,
// edit and delete. Every change is recorded with who made it.

export type SourcesDeps = { sources: SourcesRepo; clock?: () => Date };
/** Who acts: a user, or null for the command line. */
type Actor = { actorUserId: string | null };

/** A source as the Sources tab shows it. */
export type SourceView = {
  id: number;
  name: string;
  websiteUrl: string | null;
  rssFeedUrl: string | null;
  sourceType: SourceType;
  status: "active" | "inactive" | "error";
  scrapingConfig: Record<string, unknown>;
  includeKeywords: string[];
  excludeKeywords: string[];
  notes: string | null;
  pollIntervalMinutes: number;
  createdAt: string;
  health: {
    lastFetchedAt: string | null;
    lastError: string | null;
    consecutiveErrors: number;
    /** Stories created from this source in the last HEALTH_WINDOW_DAYS days. */
    recentStories: number;
    recentPublished: number;
    /** Share of those published, 0..100 (rounded), or null when there are none. */
    publishedPercent: number | null;
  };
};

/** The form was refused; `fieldErrors` says why, by field. */
export class InvalidSourceError extends DomainError {
  constructor(readonly fieldErrors: SourceFieldErrors) {
    super("INVALID_SOURCE", Object.values(fieldErrors).join(" "));
    this.name = "InvalidSourceError";
  }
}

function toView(row: SourceRow & { recentStories: number; recentPublished: number }): SourceView {
  return {
    id: row.id,
    name: row.name,
    websiteUrl: row.websiteUrl,
    rssFeedUrl: row.rssFeedUrl,
    sourceType: row.sourceType,
    status: row.status,
    scrapingConfig: row.scrapingConfig,
    includeKeywords: row.includeKeywords,
    excludeKeywords: row.excludeKeywords,
    notes: row.notes,
    pollIntervalMinutes: row.pollIntervalMinutes,
    createdAt: row.createdAt.toISOString(),
    health: {
      lastFetchedAt: row.lastFetchedAt?.toISOString() ?? null,
      lastError: row.lastError,
      consecutiveErrors: row.consecutiveErrors,
      recentStories: row.recentStories,
      recentPublished: row.recentPublished,
      publishedPercent: row.recentStories > 0 ? Math.round((row.recentPublished * 100) / row.recentStories) : null,
    },
  };
}

/** Every source, newest first, whose name contains `search` (case-insensitive), with its health. Unpaginated. */
export async function listSources(deps: SourcesDeps, input: { search?: string } = {}): Promise<SourceView[]> {
  const now = (deps.clock ?? (() => new Date()))();
  const since = new Date(now.getTime() - HEALTH_WINDOW_DAYS * 24 * 3_600_000);
  return (await deps.sources.listWithHealth({ search: input.search ?? "", since })).map(toView);
}

/** The normalised form of a feed URL, for spotting the same feed written differently. */
export function feedKey(url: string): string | null {
  const result = normalizeUrl(url);
  return result.ok ? result.normalized : null;
}

function check(form: SourceFormInput): SourceFormValues {
  const result = validateSourceForm(form);
  if (!result.ok) throw new InvalidSourceError(result.errors);
  return result.value;
}

async function assertFeedUnused(deps: SourcesDeps, feedUrl: string | null, exceptId?: number) {
  if (!feedUrl) return;
  const key = feedKey(feedUrl);
  const other = (await deps.sources.listWithFeed()).find((s) => s.id !== exceptId && feedKey(s.rssFeedUrl) === key);
  if (other) throw new InvalidSourceError({ rssFeedUrl: `This feed is already added as "${other.name}"` });
}

/** Adds a source from the form; refuses a feed URL another source already has. */
export async function createSource(deps: SourcesDeps, input: Actor & { form: SourceFormInput }): Promise<SourceRow> {
  const values = check(input.form);
  await assertFeedUnused(deps, values.rssFeedUrl);
  const { scrapingConfig, ...fields } = values;
  return deps.sources.create(
    { ...fields, scrapingConfig: scrapingConfig ?? {} },
    { actorUserId: input.actorUserId, action: "source.create", details: { name: values.name } },
  );
}

/**
 * Saves the Edit dialog. A source in error saved with the switch on becomes active and is due at once;
 * a new feed URL drops the old one's conditional-GET state. Config text that is not JSON on a type that
 * does not need it keeps the stored config.
 */
export async function updateSource(deps: SourcesDeps, input: Actor & { sourceId: number; form: SourceFormInput }): Promise<SourceRow> {
  const existing = await deps.sources.findById(input.sourceId);
  if (!existing) throw new DomainError("SOURCE_NOT_FOUND", "That source no longer exists");
  const values = check(input.form);
  await assertFeedUnused(deps, values.rssFeedUrl, existing.id);
  const { scrapingConfig, ...fields } = values;
  const patch: SourcePatch = { ...fields, scrapingConfig: scrapingConfig ?? existing.scrapingConfig };
  if (existing.status === "error" && values.status === "active") Object.assign(patch, { consecutiveErrors: 0, nextCheckAt: null });
  if (values.rssFeedUrl !== existing.rssFeedUrl) Object.assign(patch, { etag: null, lastModified: null });
  const changed = (Object.keys(patch) as (keyof SourcePatch)[]).filter(
    (k) => JSON.stringify(patch[k]) !== JSON.stringify(existing[k as keyof SourceRow]),
  );
  const row = await deps.sources.update(existing.id, patch, {
    actorUserId: input.actorUserId,
    action: "source.update",
    details: { changed, ...(existing.status !== values.status ? { status: { from: existing.status, to: values.status } } : {}) },
  });
  if (!row) throw new DomainError("SOURCE_NOT_FOUND", "That source no longer exists");
  return row;
}

function causeMessage(error: unknown): string {
  // Drizzle wraps the database's error ("Failed query: ..."); the database's own words are clearer.
  let current: unknown = error;
  while (current instanceof Error && current.cause instanceof Error) current = current.cause;
  return current instanceof Error ? current.message : String(current);
}

/**
 * Deletes a source and its logs, candidates, rejected stories and stories, in the spec's order, all
 * or nothing. A failure names its step: 'Failed to delete stories: ...'.
 */
export async function deleteSource(deps: SourcesDeps, input: Actor & { sourceId: number }) {
  const result = await deps.sources.deleteWithData(input.sourceId, { actorUserId: input.actorUserId, action: "source.delete" });
  if (result.deleted) return result.counts;
  if (result.reason === "not-found") throw new DomainError("SOURCE_NOT_FOUND", "That source no longer exists");
  throw new DomainError("SOURCE_DELETE_FAILED", `Failed to delete ${result.step}: ${causeMessage(result.error)}`, { cause: result.error });
}
