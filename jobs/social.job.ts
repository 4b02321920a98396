import { attemptPost, type AttemptPostDeps } from "~/domain/social/post-story";
import type { JobHandlers } from "./runner";


/**
 * Facebook posting as a job: one attempt at a pending post. A job resumed after a restart (its
 * attempt cut off mid-call) finds the attempt marked as sent and looks for it on the Page first, once
 * that attempt cannot still be running (ATTEMPT_SPAN_MS after it began; until then it queues the look).
 */
export function socialHandlers(deps: AttemptPostDeps): Pick<JobHandlers, "facebook-post"> {
  return {
    "facebook-post": async (input) => {
      const postRowId = input.post_id;
      const result = await attemptPost(deps, postRowId);
      const row = result.row;
      return {
        outcome: result.outcome,
        post_row_id: postRowId,
        story_id: row?.storyId ?? null,
        status: row?.status ?? null,
        post_id: row?.postId ?? null,
        permalink_url: row?.permalinkUrl ?? null,
        error_message: row?.errorMessage ?? null,
        retry_at: result.outcome === "retrying" ? result.retryAt.toISOString() : null,
        ...(result.outcome === "skipped" ? { reason: result.reason } : {}),
      };
    },
  };
}
