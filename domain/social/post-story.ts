import type { Logger } from "pino";
import type { Repos } from "~/db/repos";
import type { SocialPostRow } from "~/db/repos/social.repo";
import { DomainError } from "~/domain/errors";
import { systemClock, type Clock } from "~/domain/ingestion/deps";
import { isGraphError, type GraphClient } from "~/integrations/facebook/graph-client";
import { errorMessage } from "~/lib/error-message";
import { composeMessage, storyLink } from "./compose";

export type SocialDeps = { repos: Pick<Repos, "social">; graph: GraphClient; siteUrl: string; logger: Logger; clock?: Clock };

/** What an uncertain outcome leaves when the post is not on the Page afterwards. */
export const NOT_CONFIRMED =
  "Facebook did not confirm the post in time, and it is not among the Page's recent posts: it was not posted. Try again.";

/**
 * Posts a published story to the Page, never twice by accident: the post is a pending row first (a
 * second request for the story while one is in flight is refused by the database), the Graph call
 * second. A story already posted is refused unless this is a deliberate repost. An answer that never
 * came (a timeout after the request went out) is reconciled by looking for the link among the Page's
 * recent posts before the row is settled. The message defaults to the spec's composition rule.
 */
export async function postStory(
  deps: SocialDeps,
  input: { storyId: number; message?: string | null; repost?: boolean; actorUserId: string | null },
): Promise<SocialPostRow> {
  const clock = deps.clock ?? systemClock;
  const story = await deps.repos.social.storyToPost(input.storyId);
  if (!story) throw new DomainError("STORY_NOT_FOUND", `Story ${input.storyId} does not exist.`);
  if (story.status !== "published") throw new DomainError("WRONG_STATUS", "Only a published story can be posted: its page must be live.");
  const earlier = await deps.repos.social.postsOf(story.id);
  if (earlier.some((p) => p.status === "pending")) throw new DomainError("POST_IN_FLIGHT", "This story is being posted right now.");
  if (!input.repost && earlier.some((p) => p.status === "posted")) {
    throw new DomainError("ALREADY_POSTED", "This story is already on the Page. Use Repost to post it again.");
  }
  const message = input.message?.trim() || composeMessage(story, deps.siteUrl);
  const link = storyLink(deps.siteUrl, story.slug);
  const row = await deps.repos.social.insertPending({ storyId: story.id, message, link, requestedBy: input.actorUserId });
  if (!row) throw new DomainError("POST_IN_FLIGHT", "This story is being posted right now.");
  const log = deps.logger.child({ storyId: story.id, postRowId: row.id });

  // A fresh card first; a failed re-scrape never stops the post.
  const scraped = await deps.graph.rescrape(link);
  if (!scraped.ok) log.warn({ code: scraped.error.code, fbtraceId: scraped.error.fbtraceId }, "Facebook could not re-read the story's card");

  try {
    const posted = await deps.graph.publishPost({ message, link });
    log.info({ postId: posted.postId }, "story posted to Facebook");
    return await deps.repos.social.markPosted(row.id, { ...posted, at: clock.now() });
  } catch (error) {
    if (isGraphError(error) && error.kind === "uncertain") {
      const found = await deps.graph.findRecentPostWithLink(link).catch((lookup: unknown) => {
        log.warn({ err: errorMessage(lookup) }, "could not look for the post on the Page");
        return null;
      });
      if (found) {
        log.info({ postId: found.postId }, "story post confirmed on the Page after an uncertain answer");
        return deps.repos.social.markPosted(row.id, { postId: found.postId, permalinkUrl: found.permalinkUrl, at: clock.now() });
      }
      log.warn({ err: error.message }, "uncertain Facebook answer, and the post is not on the Page");
      return deps.repos.social.markFailed(row.id, { errorMessage: NOT_CONFIRMED, errorCode: null, errorSubcode: null, fbtraceId: null, at: clock.now() });
    }
    if (isGraphError(error)) {
      log.warn({ kind: error.kind, code: error.code, subcode: error.subcode, fbtraceId: error.fbtraceId }, "Facebook refused the post");
      return deps.repos.social.markFailed(row.id, {
        errorMessage: error.editorMessage,
        errorCode: error.code,
        errorSubcode: error.subcode,
        fbtraceId: error.fbtraceId,
        at: clock.now(),
      });
    }
    // Anything else is ours: the row must not stay pending for ever.
    await deps.repos.social.markFailed(row.id, { errorMessage: "Failed to post to Facebook", errorCode: null, errorSubcode: null, fbtraceId: null, at: clock.now() });
    throw error;
  }
}
