import { z } from "zod";

// The background jobs a screen or a command can start, each with what it takes and what it answers:
// the one list, shared by the runner (jobs/), the screens (app/) and the commands (server/). The runner
// checks a job's input against its kind before queueing it and again before running it; screens and
// commands read a finished job's result through `jobResult`, the one reader.

/** A count in a result: one that is missing or odd reads as 0, so a result from an older release still shows. */
const count = z.number().int().nonnegative().catch(0);

/** Drops the entries of a list that are not of its kind instead of failing the whole result. */
const entriesOf = <T extends z.ZodType>(entry: T) =>
  z
    .array(z.unknown())
    .catch([])
    .transform((values) => values.flatMap((value) => {
      const parsed = entry.safeParse(value);
      return parsed.success ? [parsed.data as z.output<T>] : [];
    }));

const enhancementDetail = z.object({
  storyId: z.number().int(),
  title: z.string().optional(),
  success: z.boolean().catch(false),
  outcome: z.enum(["enhanced", "skipped", "failed"]),
  error: z.string().optional().catch(undefined),
  lasting: z.boolean().optional().catch(undefined),
  imageUrl: z.string().optional().catch(undefined),
}).transform((detail) => ({ ...detail, title: detail.title ?? `Story ${detail.storyId}` }));

const discoveryReport = z.object({
  source_id: z.number().int(),
  name: z.string().catch(""),
  found: count,
  queued: count,
  skipped_robots: count,
  skipped_known: count,
  skipped_filtered: count,
  errors: entriesOf(z.string()),
  failed: z.boolean().catch(false),
});

const id = z.number().int().positive();
/** Every kind can take up the work of a job of its kind that was cut off: that job's id. */
const resumedFrom = { resumed_from: z.string().optional() };

export const JOB_KINDS = {
  /** The manual trigger: one full RSS cycle over every active source. */
  "rss-ingestion": {
    input: z.object({ use_canonical: z.boolean().default(false), ...resumedFrom }),
    result: z.object({ sources_processed: count, total_items_found: count, total_items_processed: count }),
  },
  /** 'Discover now': URL discovery of one web_scraping source, or of every active one. */
  "crawl-discovery": {
    input: z.object({ source_id: id.optional(), ...resumedFrom }),
    result: z.object({ sources_processed: count, found: count, queued: count, skipped_robots: count, skipped_known: count, sources: entriesOf(discoveryReport) }),
  },
  /** Scrapes queued URLs (the URL Que's Scrape Selected) into pending stories. */
  "scrape-queue": {
    input: z.object({ ids: z.array(id).optional(), source_id: id.optional(), limit: id.optional(), ...resumedFrom }),
    result: z.object({ succeeded: count, failed: count, rate_limited: count, total: count }),
  },
  /** Image enhancement: a bulk batch, a fixed list of stories, or one story with an optional image URL. */
  "enhance-images": {
    input: z.object({
      batchSize: id.optional(),
      storyIds: z.array(id).optional(),
      singleStoryId: id.optional(),
      customImageUrl: z.string().nullish(),
      ...resumedFrom,
    }),
    result: z.object({ processed: count, enhanced: count, failed: count, skipped: count, details: entriesOf(enhancementDetail) }),
  },
  /** One attempt at a pending Facebook post (now, at its scheduled time, or a retry after back-off). */
  "facebook-post": {
    input: z.object({ post_id: id, ...resumedFrom }),
    result: z.object({ outcome: z.string().catch("unknown"), post_row_id: count, story_id: z.number().int().nullable().catch(null) }).loose(),
  },
  /** Editorial triage: the models trained again (when due, or asked), pending stories scored, same-story groups made again. */
  triage: {
    input: z.object({ retrain: z.boolean().default(false), ...resumedFrom }),
    result: z.object({ retrained: z.boolean().catch(false), scored: count, groups: count, grouped: count }),
  },
} as const satisfies Record<string, { input: z.ZodType; result: z.ZodType }>;

/** Background work the web layer can start and watch: the one list of kinds. */
export type JobKind = keyof typeof JOB_KINDS;
export const JOB_KIND_NAMES = Object.keys(JOB_KINDS) as JobKind[];

/** What a kind of job takes, as a caller gives it (defaults may be left out). */
export type JobInput<K extends JobKind> = z.input<(typeof JOB_KINDS)[K]["input"]>;
/** What a kind of job takes, as its handler receives it. */
export type JobInputOf<K extends JobKind> = z.output<(typeof JOB_KINDS)[K]["input"]>;
/** What a finished job of a kind answers. */
export type JobResult<K extends JobKind> = z.output<(typeof JOB_KINDS)[K]["result"]>;

/** Checks a job's input against its kind; throws a ZodError naming what is wrong. */
export function parseJobInput<K extends JobKind>(kind: K, input: unknown): JobInputOf<K> {
  return JOB_KINDS[kind].input.parse(input ?? {}) as JobInputOf<K>;
}

/**
 * A job's result as its kind defines it: every count present (0 when missing), lists without the
 * entries that are not of their kind. A job with no result (it failed, or has not finished) reads as
 * an empty one.
 */
export function jobResult<K extends JobKind>(kind: K, job: { result: Record<string, unknown> | null } | null): JobResult<K> {
  const parsed = JOB_KINDS[kind].result.safeParse(job?.result ?? {});
  return (parsed.success ? parsed.data : JOB_KINDS[kind].result.parse({})) as JobResult<K>;
}

/**
 * What a domain function needs to start background work: the job runner's `enqueue`, and its
 * `latestUnfinished` for work that runs one at a time. Every job starts through a domain function
 * taking this (`startIngestion`, `startDiscovery`, `startScrape`, `startImageRun`, `facebookPostScheduler`):
 * the screens call it from their route action and the commands from the CLI.
 */
export type JobStarter = {
  enqueue<K extends JobKind>(kind: K, input: JobInput<K>, options: { requestedBy: string | null; startAfter?: Date | null }): Promise<{ jobId: string }>;
  latestUnfinished(kind: JobKind): Promise<{ id: string } | null>;
};
