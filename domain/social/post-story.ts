import type { Logger } from "pino";
import type { Repos } from "~/db/repos";
import type { SocialPostRow } from "~/db/repos/social.repo";
import { DomainError } from "~/domain/errors";
import type { JobStarter } from "~/domain/jobs/kinds";
import { dateOf, systemClock, type Clock } from "~/lib/clock";
import { DEFAULT_TIMEOUT_MS, isGraphError, type GraphClient, type GraphError } from "~/integrations/facebook/graph-client";
import { errorMessage } from "~/lib/error-message";
import { composeMessage, storyLink } from "./compose";

/** Queues the job that makes a post's next attempt, at `at` (now when null); server/ passes the job runner's. */
export type SchedulePost = (postRowId: number, at: Date | null) => Promise<{ jobId: string }>;

/** Queues a post's attempt as a facebook-post job, at its time when it has one: the one way a post's job starts. */
export function schedulePostWith(jobs: () => Pick<JobStarter, "enqueue">, requestedBy: string | null = null): SchedulePost {
  return (postRowId, at) => jobs().enqueue("facebook-post", { post_id: postRowId }, { requestedBy, startAfter: at });
}

/** What asking for a post needs: no Graph call is made here, only the row and its job. */
export type RequestPostDeps = {
  repos: Pick<Repos, "social">;
  siteUrl: string;
  /** Whether the site is connected to a Page at all (FACEBOOK_PAGE_ID and FACEBOOK_PAGE_TOKEN). */
  connected: boolean;
  /** Without it the caller makes the first attempt itself (the CLI's immediate post). */
  schedule: SchedulePost | null;
  now?: Clock;
};

/** What an attempt needs: the Graph API, and the scheduler for a retry. */
export type AttemptPostDeps = {
  repos: Pick<Repos, "social">;
  /** Null when the site is not connected to a Page. */
  graph: GraphClient | null;
  schedule: SchedulePost;
  logger: Logger;
  now?: Clock;
};

/**
 * Longer than an attempt can be under way: at most four Graph calls (re-scrape, publish, the new
 * post's permalink, a look-up after an uncertain answer), each cut at the client's time limit, and
 * the database's share. An attempt marked as sent more recently than this may still be running.
 */
export const ATTEMPT_SPAN_MS = 4 * DEFAULT_TIMEOUT_MS + 60_000;

/** Attempts a post gets before a rate limit or a passing failure fails it for good. */
export const MAX_ATTEMPTS = 5;
/** How far ahead a post may be scheduled (the job queue keeps a job this long). */
export const MAX_SCHEDULE_DAYS = 30;

export const NOT_CONNECTED =
  "The site is not connected to a Facebook Page: set FACEBOOK_PAGE_ID and FACEBOOK_PAGE_TOKEN (a Page token with pages_manage_posts and pages_read_engagement) and restart.";

/** What an uncertain outcome leaves when the post is still not on the Page after the last attempt. */
export const NOT_CONFIRMED =
  "Facebook did not confirm the post in time, and it is not among the Page's recent posts: it was not posted. Try again.";

/** The reason kept when a rate limit or a passing failure outlasted every attempt. */
export function gaveUpMessage(kind: GraphError["kind"]): string {
  return kind === "rate-limited"
    ? `Facebook kept refusing the post for its rate limit; gave up after ${MAX_ATTEMPTS} attempts. Try again later.`
    : `Facebook could not take the post (a temporary problem, or no connection); gave up after ${MAX_ATTEMPTS} attempts. Try again later.`;
}

/**
 * Asks for a published story to be posted to the Page, now or at a chosen time, never twice by
 * accident: the post is a pending row first (a second request for the story while one is pending is
 * refused by the database), and the Graph call is made later by its job. A story already posted is
 * refused unless this is a deliberate repost. The message defaults to the spec's composition rule.
 */
export async function requestPost(
  deps: RequestPostDeps,
  input: { storyId: number; message?: string | null; at?: Date | null; repost?: boolean; actorUserId: string | null },
): Promise<SocialPostRow> {
  const clock = deps.now ?? systemClock;
  if (!deps.connected) throw new DomainError("FACEBOOK_NOT_CONNECTED", NOT_CONNECTED);
  const at = input.at ?? null;
  if (at) {
    const ahead = at.getTime() - clock();
    if (Number.isNaN(ahead)) throw new DomainError("INVALID_INPUT", "That time is not understood.", { fields: { at: "That time is not understood." } });
    if (ahead < 0) throw new DomainError("INVALID_INPUT", "Choose a time in the future.", { fields: { at: "Choose a time in the future." } });
    if (ahead > MAX_SCHEDULE_DAYS * 24 * 60 * 60_000) {
      const message = `A post can be scheduled at most ${MAX_SCHEDULE_DAYS} days ahead.`;
      throw new DomainError("INVALID_INPUT", message, { fields: { at: message } });
    }
  }
  const story = await deps.repos.social.storyToPost(input.storyId);
  if (!story) throw new DomainError("STORY_NOT_FOUND", `Story ${input.storyId} does not exist.`);
  if (story.status !== "published") throw new DomainError("WRONG_STATUS", "Only a published story can be posted: its page must be live.");
  const earlier = await deps.repos.social.postsOf(story.id);
  const pending = earlier.find((p) => p.status === "pending");
  if (pending) throw inFlight(pending);
  if (!input.repost && earlier.some((p) => p.status === "posted")) {
    throw new DomainError("ALREADY_POSTED", "This story is already on the Page. Use Repost to post it again.");
  }
  const message = input.message?.trim() || composeMessage(story, deps.siteUrl);
  const link = storyLink(deps.siteUrl, story.slug);
  const row = await deps.repos.social.insertPending(
    { storyId: story.id, message, link, requestedBy: input.actorUserId, scheduledFor: at },
    { actorUserId: input.actorUserId, action: at ? "facebook.schedule" : input.repost ? "facebook.repost" : "facebook.post", details: at ? { at: at.toISOString() } : {} },
  );
  if (!row) {
    const now = (await deps.repos.social.postsOf(story.id)).find((p) => p.status === "pending");
    throw now ? inFlight(now) : new DomainError("POST_IN_FLIGHT", "This story is being posted right now.");
  }
  if (!deps.schedule) return row;
  try {
    const { jobId } = await deps.schedule(row.id, at);
    await deps.repos.social.setJob(row.id, jobId);
    return { ...row, jobId };
  } catch (error) {
    // A row nobody will ever attempt would block the story for good.
    await deps.repos.social.markFailed(row.id, { errorMessage: "Failed to post to Facebook", errorCode: null, errorSubcode: null, fbtraceId: null, at: dateOf(clock) });
    throw error;
  }
}

function inFlight(pending: SocialPostRow): DomainError {
  if (pending.scheduledFor && pending.attempts === 0) {
    return new DomainError("POST_IN_FLIGHT", `This story is already scheduled for ${pending.scheduledFor.toISOString()}. Cancel that first.`);
  }
  return new DomainError("POST_IN_FLIGHT", "This story is being posted right now.");
}

/** How one attempt ended: posted, failed for good, waiting for a retry, or nothing to do. */
export type AttemptOutcome =
  | { outcome: "posted" | "failed"; row: SocialPostRow }
  | { outcome: "retrying"; row: SocialPostRow; retryAt: Date }
  | { outcome: "skipped"; row: SocialPostRow | null; reason: string };

/** The wait before attempt `n + 1` after `n` attempts: Facebook's own word when it gives one, else doubling. */
export function retryDelayMs(error: Pick<GraphError, "kind" | "retryAfterMs">, attempts: number): number {
  if (error.retryAfterMs !== null && error.retryAfterMs > 0) return Math.min(error.retryAfterMs, 6 * 60 * 60_000);
  const base = error.kind === "rate-limited" ? 5 * 60_000 : 60_000;
  const cap = error.kind === "rate-limited" ? 60 * 60_000 : 30 * 60_000;
  return Math.min(base * 2 ** Math.max(0, attempts - 1), cap);
}

/**
 * Makes one attempt at a pending post (the job's work). An earlier attempt whose outcome is unknown
 * (cut off, or no answer in time) is first looked for among the Page's recent posts, so nothing is
 * posted twice. A rate limit or a passing failure keeps the row pending and queues the next attempt
 * with back-off; anything else settles the row as posted or failed.
 */
export async function attemptPost(deps: AttemptPostDeps, postRowId: number): Promise<AttemptOutcome> {
  const clock = deps.now ?? systemClock;
  const current = await deps.repos.social.findById(postRowId);
  if (!current) return { outcome: "skipped", row: null, reason: "The post was cancelled." };
  if (current.status !== "pending") return { outcome: "skipped", row: current, reason: `The post is already ${current.status}.` };
  const log = deps.logger.child({ storyId: current.storyId, postRowId });
  const failWith = async (error: { errorMessage: string; errorCode?: number | null; errorSubcode?: number | null; fbtraceId?: string | null }) => ({
    outcome: "failed" as const,
    row: await deps.repos.social.markFailed(postRowId, {
      errorMessage: error.errorMessage,
      errorCode: error.errorCode ?? null,
      errorSubcode: error.errorSubcode ?? null,
      fbtraceId: error.fbtraceId ?? null,
      at: dateOf(clock),
    }),
  });
  if (!deps.graph) return failWith({ errorMessage: NOT_CONNECTED });
  const graph = deps.graph;
  const link = current.link ?? "";

  // The story's earlier posts, and anything older than this request, are not this post: a repost
  // whose answer was lost must not be settled by the post it repeats.
  if (current.attemptStartedAt && current.nextAttemptAt === null) {
    // Marked as sent and not waiting for a retry: another job's attempt may be under way, its call
    // open. Looking on the Page now could take that attempt's post for an earlier one's and settle
    // the row under it. Look again once it cannot still be running: by then it has settled the row,
    // or it was cut off (a crash) and that look finds its post or sends it.
    const runningUntil = current.attemptStartedAt.getTime() + ATTEMPT_SPAN_MS;
    if (clock() < runningUntil) {
      const checkAt = new Date(runningUntil);
      const { jobId } = await deps.schedule(postRowId, checkAt);
      log.debug({ checkAt: checkAt.toISOString(), jobId }, "another attempt at this post may be under way; it is checked later");
      return { outcome: "skipped", row: current, reason: `Another attempt at this post is under way; it is checked again at ${checkAt.toISOString()}.` };
    }
  }

  const known = { excludePostIds: await earlierPostIds(deps, current), createdAfter: new Date(current.createdAt.getTime() - CLOCK_SKEW_MS) };
  if (current.attemptStartedAt) {
    const found = await graph.findRecentPostWithLink(link, known).catch((lookup: unknown) => {
      log.warn({ err: errorMessage(lookup) }, "could not look for the post on the Page");
      return undefined;
    });
    if (found) {
      log.debug({ postId: found.postId }, "an earlier attempt did post the story; confirmed on the Page");
      return { outcome: "posted", row: await deps.repos.social.markPosted(postRowId, { postId: found.postId, permalinkUrl: found.permalinkUrl, at: dateOf(clock) }) };
    }
    if (found === undefined) {
      // The Page could not be read: calling again could post twice. Wait and look again.
      if (current.attempts >= MAX_ATTEMPTS) return failWith({ errorMessage: NOT_CHECKED });
      return retry(deps, current, { kind: "transient", retryAfterMs: null, editorMessage: current.errorMessage ?? "", code: null, subcode: null, fbtraceId: null }, true, log);
    }
  }

  const row = await deps.repos.social.beginAttempt(postRowId, current.attemptStartedAt, dateOf(clock));
  if (!row) return { outcome: "skipped", row: await deps.repos.social.findById(postRowId), reason: "Another attempt at this post is under way, or it was settled." };

  // A fresh card first; a failed re-scrape never stops the post.
  const scraped = await graph.rescrape(link);
  if (!scraped.ok) log.warn({ code: scraped.error.code, fbtraceId: scraped.error.fbtraceId }, "Facebook could not re-read the story's card");

  try {
    const posted = await graph.publishPost({ message: row.message ?? "", link });
    log.debug({ postId: posted.postId, attempt: row.attempts }, "story posted to Facebook");
    return { outcome: "posted", row: await deps.repos.social.markPosted(postRowId, { ...posted, at: dateOf(clock) }) };
  } catch (error) {
    if (!isGraphError(error)) {
      // Ours, not Facebook's: the row must not stay pending for ever.
      await failWith({ errorMessage: "Failed to post to Facebook" });
      throw error;
    }
    const fields = { kind: error.kind, code: error.code, subcode: error.subcode, fbtraceId: error.fbtraceId, attempt: row.attempts };
    if (error.kind === "uncertain") {
      const found = await graph.findRecentPostWithLink(link, known).catch(() => null);
      if (found) {
        log.debug({ postId: found.postId }, "story post confirmed on the Page after an uncertain answer");
        return { outcome: "posted", row: await deps.repos.social.markPosted(postRowId, { postId: found.postId, permalinkUrl: found.permalinkUrl, at: dateOf(clock) }) };
      }
      log.warn(fields, "uncertain Facebook answer, and the post is not on the Page (yet)");
      if (row.attempts >= MAX_ATTEMPTS) return failWith({ errorMessage: NOT_CONFIRMED });
      return retry(deps, row, error, true, log);
    }
    if (error.retryable && row.attempts < MAX_ATTEMPTS) {
      log.warn(fields, "Facebook could not take the post now; it will be retried");
      return retry(deps, row, error, false, log);
    }
    log.warn(fields, "Facebook refused the post");
    return failWith({
      errorMessage: error.retryable ? gaveUpMessage(error.kind) : error.editorMessage,
      errorCode: error.code,
      errorSubcode: error.subcode,
      fbtraceId: error.fbtraceId,
    });
  }
}

/** Facebook's clock and ours may disagree by this much when a post's creation time is compared. */
const CLOCK_SKEW_MS = 5 * 60_000;

async function earlierPostIds(deps: AttemptPostDeps, row: SocialPostRow): Promise<string[]> {
  const posts = await deps.repos.social.postsOf(row.storyId);
  return posts.flatMap((post) => (post.id !== row.id && post.postId ? [post.postId] : []));
}

async function retry(
  deps: AttemptPostDeps,
  row: SocialPostRow,
  error: Pick<GraphError, "kind" | "retryAfterMs" | "editorMessage" | "code" | "subcode" | "fbtraceId">,
  outcomeUnknown: boolean,
  log: Logger,
): Promise<AttemptOutcome> {
  const clock = deps.now ?? systemClock;
  const retryAt = new Date(clock() + retryDelayMs(error, Math.max(1, row.attempts)));
  const waiting = await deps.repos.social.deferAttempt(row.id, {
    errorMessage: error.editorMessage || EDITORS_WAIT,
    errorCode: error.code,
    errorSubcode: error.subcode,
    fbtraceId: error.fbtraceId,
    nextAttemptAt: retryAt,
    outcomeUnknown,
    at: dateOf(clock),
  });
  const { jobId } = await deps.schedule(row.id, retryAt);
  await deps.repos.social.setJob(row.id, jobId);
  log.debug({ retryAt: retryAt.toISOString(), jobId }, "next attempt queued");
  return { outcome: "retrying", row: { ...waiting, jobId }, retryAt };
}

/** When the Page could not be read to confirm an earlier attempt, even after the last one. */
export const NOT_CHECKED =
  "Facebook did not confirm the post in time, and the Page's recent posts could not be read to check it. Look at the Page before posting again.";

const EDITORS_WAIT = "Waiting to check the Page before trying again.";

/** Cancels a scheduled post that has not been tried yet; its job finds nothing to do. */
export async function cancelScheduledPost(
  deps: { repos: Pick<Repos, "social">; cancelJob: (jobId: string) => Promise<boolean> },
  input: { postRowId: number; actorUserId: string | null },
): Promise<SocialPostRow> {
  const row = await deps.repos.social.cancelScheduled(input.postRowId, { actorUserId: input.actorUserId, action: "facebook.cancel" });
  if (!row) {
    const existing = await deps.repos.social.findById(input.postRowId);
    if (!existing) throw new DomainError("POST_NOT_FOUND", "That scheduled post no longer exists.");
    throw new DomainError("WRONG_STATUS", "That post is no longer waiting for its time: it is being posted or has been.");
  }
  if (row.jobId) await deps.cancelJob(row.jobId).catch(() => false);
  return row;
}
