import type { Logger } from "pino";
import type { Repos } from "~/db/repos";
import type { ImageStory } from "~/db/repos/images.repo";
import { DomainError } from "~/domain/errors";
import type { JobStarter } from "~/domain/jobs/kinds";
import { PAGE_ACCEPT } from "~/domain/ingestion/accept";
import { dateOf, systemClock, type Clock } from "~/lib/clock";
import { describeError } from "~/domain/ingestion/describe-error";
import { eachLimit } from "~/lib/each-limit";
import { collectImageCandidates } from "~/integrations/images/candidates";
import { chooseBest, HIGH_RESOLUTION_WIDTH, judgeImage } from "~/integrations/images/choose";
import { isImageProbeError, probeImage, type ProbedImage } from "~/integrations/images/probe";
import { isFetchError } from "~/integrations/http/fetch-error";
import type { HttpClient } from "~/integrations/http/types";
import { decodeHtmlBytes } from "~/lib/decode-bytes";
import { isHttpUrl } from "~/lib/http-url";
import type { OnProgress } from "~/lib/progress";

/** Stories worked on at once; the guarded client keeps to 2 requests per host besides. */
const STORIES_AT_ONCE = 4;
/** Candidates measured per story: the page's best-placed ones come first. */
const MAX_PROBES = 8;
/** A bulk run covers at most this many stories. */
export const MAX_BATCH = 5_000;

export type ImageDeps = { repos: Pick<Repos, "images">; http: HttpClient; logger: Logger; now?: Clock };

/** One story's outcome, as the spec's details list shows it (title, success, error) and a little more. */
export type EnhancementDetail = {
  storyId: number;
  title: string;
  success: boolean;
  outcome: "enhanced" | "skipped" | "failed";
  error?: string;
  /** A failure that will stay until the story's page or picture changes (see isLastingFailure). */
  lasting?: boolean;
  imageUrl?: string;
  /** The size of the story's picture as measured: the new one when enhanced, the current one when skipped. */
  imageSize?: { width: number; height: number };
};

/** The spec's enhance-story-images result. */
export type EnhancementResult = { processed: number; enhanced: number; failed: number; skipped: number; details: EnhancementDetail[] };

export type EnhancementInput =
  | { batchSize: number }
  | { storyIds: number[]; since?: Date | null }
  | { singleStoryId: number; customImageUrl?: string | null };

/** Answers from the original page saying it is gone: asking again will get the same. */
const GONE_STATUSES: ReadonlySet<number> = new Set([404, 410]);
/** Fetch failures that are the URL's own: it (or the site's robots.txt) must change for a fetch to work. */
const LASTING_FETCH_CODES: ReadonlySet<string> = new Set(["INVALID_URL", "UNSUPPORTED_SCHEME", "ROBOTS_DISALLOWED"]);

/**
 * Whether a failure to read a page or picture will stay until the story's URL or picture changes:
 * the page or picture gone (404, 410), bytes that are no image, robots.txt refusing the page, a URL
 * that cannot be fetched at all. Timeouts, 5xx, 429, network and DNS failures may pass: false.
 */
export function isLastingFailure(error: unknown): boolean {
  if (isImageProbeError(error)) return error.code === "HTTP_STATUS" ? error.status !== null && GONE_STATUSES.has(error.status) : true;
  if (isFetchError(error)) return LASTING_FETCH_CODES.has(error.code);
  return false;
}

const probeFailure = (error: unknown) => (isImageProbeError(error) ? `${error.code}: ${error.message}` : describeError(error));

/**
 * Finds and stores the best image for each story: a bulk batch of those needing work (never
 * enhanced, or failed last time), a fixed list (a resumed run skips those looked at since `since`),
 * or one story, with an editor's image URL when given. Each story is written as it finishes, so an
 * interrupted run loses nothing.
 */
export async function enhanceStoryImages(
  deps: ImageDeps,
  input: EnhancementInput,
  options: { signal?: AbortSignal; onProgress?: OnProgress } = {},
): Promise<EnhancementResult> {
  const clock = deps.now ?? systemClock;
  const { stories, custom } = await pickStories(deps, input);
  const result: EnhancementResult = { processed: 0, enhanced: 0, failed: 0, skipped: 0, details: [] };
  const report = () =>
    options.onProgress?.({
      done: result.processed,
      total: stories.length,
      counts: { enhanced: result.enhanced, failed: result.failed, skipped: result.skipped },
    });
  await report();
  await eachLimit(stories, STORIES_AT_ONCE, async (story) => {
    options.signal?.throwIfAborted();
    await deps.repos.images.markProcessing(story.id);
    const detail = await enhanceOne(deps, story, custom, options.signal);
    await deps.repos.images.recordOutcome(
      story.id,
      detail.outcome === "enhanced"
        ? { kind: "enhanced", imageUrl: detail.imageUrl!, size: detail.imageSize! }
        : detail.outcome === "skipped"
          ? { kind: "skipped", reason: detail.error ?? "Unknown reason", size: detail.imageSize ?? null }
          : { kind: "failed", reason: detail.error ?? "Unknown reason", lasting: detail.lasting === true },
      dateOf(clock),
    );
    result.processed += 1;
    result[detail.outcome] += 1;
    result.details.push(detail);
    await report();
  });
  deps.logger.debug({ processed: result.processed, enhanced: result.enhanced, failed: result.failed, skipped: result.skipped }, "image enhancement finished");
  return result;
}

async function pickStories(deps: ImageDeps, input: EnhancementInput): Promise<{ stories: ImageStory[]; custom: string | null }> {
  if ("singleStoryId" in input) {
    const custom = input.customImageUrl?.trim() || null;
    if (custom && !isHttpUrl(custom)) throw new DomainError("INVALID_INPUT", "The custom image URL must start with http:// or https://.");
    const [story] = await deps.repos.images.findStories([input.singleStoryId]);
    if (!story) throw new DomainError("STORY_NOT_FOUND", `Story ${input.singleStoryId} does not exist.`);
    return { stories: [story], custom };
  }
  if ("storyIds" in input) {
    const found = await deps.repos.images.findStories([...new Set(input.storyIds)]);
    const since = input.since ?? null;
    const order = new Map(input.storyIds.map((id, i) => [id, i]));
    return {
      stories: found
        .filter((s) => !since || !s.imageCheckedAt || s.imageCheckedAt < since)
        .sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0)),
      custom: null,
    };
  }
  const size = Math.floor(input.batchSize);
  if (!Number.isFinite(size) || size < 1) throw new DomainError("INVALID_INPUT", "The batch size must be a whole number of at least 1.");
  const ids = await deps.repos.images.idsNeedingWork(Math.min(size, MAX_BATCH));
  const found = await deps.repos.images.findStories(ids);
  return { stories: found.sort((a, b) => b.id - a.id), custom: null };
}

async function enhanceOne(deps: ImageDeps, story: ImageStory, custom: string | null, signal?: AbortSignal): Promise<EnhancementDetail> {
  const base = { storyId: story.id, title: story.title };
  const failed = (error: string, lasting = false): EnhancementDetail => ({ ...base, success: false, outcome: "failed", error, lasting });
  const sizeOf = (image: ProbedImage) => ({ width: image.width, height: image.height });
  const skipped = (error: string, image: ProbedImage | null = null): EnhancementDetail => ({
    ...base,
    success: true,
    outcome: "skipped",
    error,
    ...(image ? { imageSize: sizeOf(image) } : {}),
  });
  const enhanced = (image: ProbedImage): EnhancementDetail => ({ ...base, success: true, outcome: "enhanced", imageUrl: image.url, imageSize: sizeOf(image) });

  if (custom) {
    try {
      const image = await probeImage(deps.http, custom, { signal });
      const verdict = judgeImage(image);
      return verdict.ok ? enhanced({ ...image, url: custom }) : failed(`The custom image is not usable: ${verdict.reason}`);
    } catch (error) {
      return failed(`The custom image could not be read: ${probeFailure(error)}`);
    }
  }

  // The current image, measured: one at least 1200 px wide is already high-resolution.
  let current: ProbedImage | null = null;
  if (story.imageUrl && isHttpUrl(story.imageUrl)) {
    try {
      current = await probeImage(deps.http, story.imageUrl, { signal });
      if (current.width >= HIGH_RESOLUTION_WIDTH) return skipped(`Already high-resolution (${current.width}x${current.height})`, current);
    } catch (error) {
      deps.logger.debug({ storyId: story.id, err: probeFailure(error) }, "current image unreadable");
    }
  }

  if (!story.pageUrl || !isHttpUrl(story.pageUrl)) return current ? skipped("No original page to look for a larger image", current) : failed("No original page to find an image on", true);
  let candidates: string[];
  try {
    const page = await deps.http.fetch(story.pageUrl, { headers: { accept: PAGE_ACCEPT }, signal });
    if (page.status < 200 || page.status >= 300) return failed(`The original page answered HTTP ${page.status}`, GONE_STATUSES.has(page.status));
    candidates = collectImageCandidates(decodeHtmlBytes(page.body, page.contentType), page.url).map((c) => c.url);
  } catch (error) {
    signal?.throwIfAborted();
    return failed(`The original page could not be read: ${describeError(error)}`, isLastingFailure(error));
  }

  const urls = [...new Set(candidates)].filter((url) => url !== current?.url && url !== story.imageUrl).slice(0, MAX_PROBES);
  const probed: ProbedImage[] = [];
  // A candidate that failed for a passing reason may be the picture next time: then nothing here is lasting.
  let passingProbeFailure = false;
  await eachLimit(urls, 2, async (url) => {
    try {
      probed.push({ ...(await probeImage(deps.http, url, { signal })), url });
    } catch (error) {
      signal?.throwIfAborted();
      if (!isLastingFailure(error)) passingProbeFailure = true;
      deps.logger.debug({ storyId: story.id, url, err: probeFailure(error) }, "image candidate unreadable");
    }
  });
  // Keep the page's order for ties: probes finish in any order.
  probed.sort((a, b) => urls.indexOf(a.url) - urls.indexOf(b.url));
  const best = chooseBest(probed);
  if (best && (!current || best.width * best.height > current.width * current.height)) return enhanced(best);
  if (current) return skipped(best ? "The current image is the largest found" : "No larger image found on the original page", current);
  if (urls.length === 0) return failed("No image found on the original page", true);
  if (passingProbeFailure) return failed("No usable image could be read on the original page this time (some pictures did not answer)");
  return failed("No usable image on the original page (only icons, logos or tiny images)", true);
}

/**
 * The job input for a run the editor asks for: a bulk batch is pinned to its stories now (so a run
 * resumed after a restart finishes the same ones), one story is checked to exist, and a retry takes
 * one story or every story whose last failure was lasting.
 */
export async function planEnhancement(
  deps: { repos: Pick<Repos, "images"> },
  input: { batchSize: number } | { singleStoryId: string | number; customImageUrl?: string | null } | { retry: "all" | string | number },
): Promise<{ storyIds: number[]; batchSize: number } | { singleStoryId: number; customImageUrl: string | null }> {
  if ("retry" in input) {
    if (input.retry === "all") {
      const storyIds = await deps.repos.images.idsFailedForGood(MAX_BATCH);
      return { storyIds, batchSize: storyIds.length };
    }
    const id = storyIdOf(input.retry);
    const [story] = await deps.repos.images.findStories([id]);
    if (!story) throw new DomainError("STORY_NOT_FOUND", `Story ${id} does not exist.`);
    return { storyIds: [id], batchSize: 1 };
  }
  if ("singleStoryId" in input) {
    const id = storyIdOf(input.singleStoryId);
    const custom = input.customImageUrl?.trim() || null;
    if (custom && !isHttpUrl(custom)) throw new DomainError("INVALID_INPUT", "The custom image URL must start with http:// or https://.", { fields: { customImageUrl: "Must start with http:// or https://" } });
    const [story] = await deps.repos.images.findStories([id]);
    if (!story) throw new DomainError("STORY_NOT_FOUND", `Story ${id} does not exist.`);
    return { singleStoryId: id, customImageUrl: custom };
  }
  const size = Math.floor(input.batchSize);
  if (!Number.isFinite(size) || size < 1) throw new DomainError("INVALID_INPUT", "The batch size must be a whole number of at least 1.");
  const batchSize = Math.min(size, MAX_BATCH);
  return { storyIds: await deps.repos.images.idsNeedingWork(batchSize), batchSize };
}

/**
 * Starts an enhancement run the editor asked for (`planEnhancement`'s input). One run at a time: while
 * one is unfinished, its id comes back instead of a new job; a plan with no story to work on starts none.
 */
export async function startImageRun(
  deps: { repos: Pick<Repos, "images">; jobs: JobStarter },
  input: { plan: Parameters<typeof planEnhancement>[1]; actorUserId: string | null },
): Promise<{ outcome: "started" | "already-running"; jobId: string } | { outcome: "nothing-to-do" }> {
  const plan = await planEnhancement(deps, input.plan);
  if ("storyIds" in plan && plan.storyIds.length === 0) return { outcome: "nothing-to-do" };
  const running = await deps.jobs.latestUnfinished("enhance-images");
  if (running) return { outcome: "already-running", jobId: running.id };
  const { jobId } = await deps.jobs.enqueue("enhance-images", plan, { requestedBy: input.actorUserId });
  return { outcome: "started", jobId };
}

/** A story ID as an editor typed it: blank and non-numbers refused with the spec's words. */
function storyIdOf(value: string | number): number {
  const text = String(value).trim();
  if (text === "") throw new DomainError("INVALID_INPUT", "Please enter a story ID to test", { fields: { storyId: "Please enter a story ID to test" } });
  const id = Number(text);
  if (!Number.isInteger(id) || id < 1) throw new DomainError("INVALID_INPUT", `"${text}" is not a story ID.`, { fields: { storyId: "A story ID is a whole number" } });
  return id;
}
