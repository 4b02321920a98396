import type { CrawlRepo } from "~/db/repos/crawl.repo";
import type { Clock } from "~/lib/clock";
import type { SourcePatch, SourceRow, SourcesRepo } from "~/db/repos/sources.repo";
import type { DiscoveryStats } from "~/db/schema";
import { DomainError } from "~/domain/errors";
import type { JobStarter } from "~/domain/jobs/kinds";
import { rootCauseMessage } from "~/lib/error-message";
import { normalizeUrl } from "~/lib/normalize-url";
import { inTrouble } from "./source-health";
import { validateSourceForm, type SourceFieldErrors, type SourceFormInput, type SourceFormValues, type SourceType } from "./source-form";

// Source management for the Sources page: list with health, create,
// edit and delete. Every change is recorded with who made it.

/** What saving an RSS source learns by reading its feed (the RSS Validator's result, in part). */
export type FeedCheck = { ok: boolean; code: string | null; error: string | null };

export type SourcesDeps = {
  sources: SourcesRepo;
  now?: Clock;
  /** Reads a feed URL before an RSS source is saved with it; without it nothing is fetched. */
  checkFeed?: (url: string) => Promise<FeedCheck>;
  /** Tells whether a default category still exists; without it the database's reference is the check. */
  categories?: { findById(id: number): Promise<unknown> };
};
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
  /** The category given to the stories it brings in, if any. */
  defaultCategoryId: number | null;
  createdAt: string;
  health: {
    lastFetchedAt: string | null;
    lastError: string | null;
    consecutiveErrors: number;
    /** Its last fetch (or discovery) failed: a source in trouble, whatever its status says. */
    failing: boolean;
  };
  /** A Web Scraping source's URL discovery: its last run (null before the first) and its URLs queued now; null for other types. */
  discovery: { lastRun: DiscoveryStats | null; queuedNow: number } | null;
};

/** The form was refused; `fields` says why, by field. */
export class InvalidSourceError extends DomainError {
  constructor(fields: SourceFieldErrors) {
    super("INVALID_SOURCE", Object.values(fields).join(" "), { fields: fields as Record<string, string> });
    this.name = "InvalidSourceError";
  }
}

function toView(row: SourceRow, queued: ReadonlyMap<number, number>): SourceView {
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
    defaultCategoryId: row.defaultCategoryId,
    createdAt: row.createdAt.toISOString(),
    health: {
      lastFetchedAt: row.lastFetchedAt?.toISOString() ?? null,
      lastError: row.lastError,
      consecutiveErrors: row.consecutiveErrors,
      failing: row.consecutiveErrors > 0,
    },
    discovery: row.sourceType === "web_scraping" ? { lastRun: row.lastDiscovery ?? null, queuedNow: queued.get(row.id) ?? 0 } : null,
  };
}

/**
 * Every source, newest first, whose name contains `search` (case-insensitive), with its health and,
 * for Web Scraping sources, their last discovery and queued URLs; with `troubled`, only those in
 * trouble. Unpaginated.
 */
export async function listSources(
  deps: Pick<SourcesDeps, "sources" | "now"> & { crawl: Pick<CrawlRepo, "queuedCounts"> },
  input: { search?: string; troubled?: boolean } = {},
): Promise<SourceView[]> {
  const [rows, queued] = await Promise.all([deps.sources.list({ search: input.search ?? "" }), deps.crawl.queuedCounts()]);
  const views = rows.map((row) => toView(row, queued));
  return input.troubled ? views.filter(inTrouble) : views;
}

/** A source whose fetch failed in an ingestion run, and why. */
export type FailedSource = { id: number; name: string; error: string };

/**
 * The sources whose fetch failed during an ingestion run (between its start and end), by name: the
 * result's three counts say what was done, this says what went wrong.
 */
export async function ingestionFailures(deps: { sources: Pick<SourcesRepo, "listFetchFailures"> }, run: { from: Date; to: Date }): Promise<FailedSource[]> {
  const rows = await deps.sources.listFetchFailures(run);
  return rows.map((row) => ({ id: row.id, name: row.name, error: row.lastError ?? "Unknown error" }));
}

/** 'Trigger RSS Ingestion': queues one RSS cycle over every active source and answers its job id. */
export async function startIngestion(deps: { jobs: Pick<JobStarter, "enqueue"> }, input: Actor & { useCanonical: boolean }): Promise<{ jobId: string }> {
  return deps.jobs.enqueue("rss-ingestion", { use_canonical: input.useCanonical }, { requestedBy: input.actorUserId });
}

/** 'Discover now': queues a URL discovery of one Web Scraping source (even an inactive one) and answers its job id. */
export async function startDiscovery(deps: { sources: Pick<SourcesRepo, "findById">; jobs: Pick<JobStarter, "enqueue"> }, input: Actor & { sourceId: number }): Promise<{ jobId: string }> {
  const source = await deps.sources.findById(input.sourceId);
  if (!source) throw new DomainError("SOURCE_NOT_FOUND", "That source no longer exists");
  if (source.sourceType !== "web_scraping") {
    throw new DomainError("NOT_A_CRAWL_SOURCE", `Only a Web Scraping source has URLs to discover; "${source.name}" is ${source.sourceType === "rss" ? "an RSS" : "a Manual"} source.`);
  }
  return deps.jobs.enqueue("crawl-discovery", { source_id: source.id }, { requestedBy: input.actorUserId });
}

/** The normalised form of a feed URL, for spotting the same feed written differently. */
export function feedKey(url: string): string | null {
  const result = normalizeUrl(url);
  return result.ok ? result.normalized : null;
}

async function check(deps: SourcesDeps, form: SourceFormInput): Promise<SourceFormValues> {
  const result = validateSourceForm(form);
  if (!result.ok) throw new InvalidSourceError(result.errors);
  const categoryId = result.value.defaultCategoryId;
  if (categoryId !== null && deps.categories && !(await deps.categories.findById(categoryId))) {
    throw new InvalidSourceError({ defaultCategoryId: "That category no longer exists: choose another, or none" });
  }
  return result.value;
}

/**
 * Reads the feed of an RSS source about to be saved with a new feed URL (or newly made RSS); one
 * that cannot be read is refused with why, unless the editor chose to save it anyway.
 */
async function assertFeedReadable(deps: SourcesDeps, values: SourceFormValues, input: { saveAnyway?: boolean }, before?: SourceRow) {
  if (!deps.checkFeed || input.saveAnyway || values.sourceType !== "rss" || !values.rssFeedUrl) return;
  if (before && before.sourceType === "rss" && before.rssFeedUrl === values.rssFeedUrl) return;
  const check = await deps.checkFeed(values.rssFeedUrl);
  if (check.ok) return;
  const why = check.error ?? "The URL does not contain a valid RSS feed";
  throw new DomainError("NOT_A_FEED", `The feed could not be read: ${why}`, { fields: { rssFeedUrl: `The feed could not be read: ${why}` } });
}

async function assertFeedUnused(deps: SourcesDeps, feedUrl: string | null, exceptId?: number) {
  if (!feedUrl) return;
  const key = feedKey(feedUrl);
  const other = (await deps.sources.listWithFeed()).find((s) => s.id !== exceptId && feedKey(s.rssFeedUrl) === key);
  if (other) throw new InvalidSourceError({ rssFeedUrl: `This feed is already added as "${other.name}"` });
}

/** Adds a source from the form; refuses a feed URL another source already has, or (unless saved anyway) one that cannot be read. */
export async function createSource(deps: SourcesDeps, input: Actor & { form: SourceFormInput; saveAnyway?: boolean }): Promise<SourceRow> {
  const values = await check(deps, input.form);
  await assertFeedUnused(deps, values.rssFeedUrl);
  await assertFeedReadable(deps, values, input);
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
export async function updateSource(deps: SourcesDeps, input: Actor & { sourceId: number; form: SourceFormInput; saveAnyway?: boolean }): Promise<SourceRow> {
  const existing = await deps.sources.findById(input.sourceId);
  if (!existing) throw new DomainError("SOURCE_NOT_FOUND", "That source no longer exists");
  const values = await check(deps, input.form);
  await assertFeedUnused(deps, values.rssFeedUrl, existing.id);
  await assertFeedReadable(deps, values, input, existing);
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

/**
 * Deletes a source and its logs, candidates, rejected stories and stories, in the spec's order, all
 * or nothing. A failure names its step: 'Failed to delete stories: ...'.
 */
export async function deleteSource(deps: SourcesDeps, input: Actor & { sourceId: number }) {
  const result = await deps.sources.deleteWithData(input.sourceId, { actorUserId: input.actorUserId, action: "source.delete" });
  if (result.deleted) return result.counts;
  if (result.reason === "not-found") throw new DomainError("SOURCE_NOT_FOUND", "That source no longer exists");
  // Not the editor's doing: the web layer logs it with its cause and answers with the generic text.
  throw new Error(`Failed to delete ${result.step}: ${rootCauseMessage(result.error)}`, { cause: result.error });
}
