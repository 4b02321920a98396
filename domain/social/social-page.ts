import type { Repos } from "~/db/repos";
import type { PostableStory, SocialPostListItem } from "~/db/repos/social.repo";
import { DomainError } from "~/domain/errors";

/** Stories Ready to Post and Recent Facebook Posts each list 20 items. */
export const READY_LIMIT = 20;
export const RECENT_LIMIT = 20;
/** Scheduled posts listed at most; more than this many waiting is not a newsroom's day. */
export const SCHEDULED_LIMIT = 50;

/** A story as the composer and its preview card use it, dates as ISO text for the page. */
export type PostableStoryView = Omit<PostableStory, "publishDate"> & { publishDate: string | null };

/** A post as the page lists it. */
export type SocialPostView = {
  id: number;
  storyId: number;
  storyTitle: string;
  storySlug: string;
  status: "pending" | "posted" | "failed";
  message: string | null;
  postId: string | null;
  permalinkUrl: string | null;
  errorMessage: string | null;
  errorCode: number | null;
  fbtraceId: string | null;
  attempts: number;
  createdAt: string;
  postedAt: string | null;
  scheduledFor: string | null;
  nextAttemptAt: string | null;
};

const iso = (date: Date | null) => (date ? date.toISOString() : null);

export function storyView(story: PostableStory): PostableStoryView {
  return { ...story, publishDate: iso(story.publishDate) };
}

export function postView(post: SocialPostListItem): SocialPostView {
  return {
    id: post.id,
    storyId: post.storyId,
    storyTitle: post.storyTitle,
    storySlug: post.storySlug,
    status: post.status,
    message: post.message,
    postId: post.postId,
    permalinkUrl: post.permalinkUrl,
    errorMessage: post.errorMessage,
    errorCode: post.errorCode,
    fbtraceId: post.fbtraceId,
    attempts: post.attempts,
    createdAt: post.createdAt.toISOString(),
    postedAt: iso(post.postedAt),
    scheduledFor: iso(post.scheduledFor),
    nextAttemptAt: iso(post.nextAttemptAt),
  };
}

/** What the Social Media page shows: stories ready to post, scheduled posts and the recent posts. */
export async function socialOverview(deps: { repos: Pick<Repos, "social"> }) {
  const [ready, scheduled, recent] = await Promise.all([
    deps.repos.social.readyToPost(READY_LIMIT),
    deps.repos.social.scheduledPosts(SCHEDULED_LIMIT),
    deps.repos.social.recentPosts(RECENT_LIMIT),
  ]);
  return { ready: ready.map(storyView), scheduled: scheduled.map(postView), recent: recent.map(postView) };
}

/**
 * A published story loaded into the composer from Recent Facebook Posts; refused when it is gone or
 * no longer published. `alreadyPosted` says whether it is on the Page now: only then is posting it a
 * repost, confirmed first (a story whose only posts failed is simply posted).
 */
export async function storyForRepost(
  deps: { repos: Pick<Repos, "social"> },
  storyId: number,
): Promise<{ story: PostableStoryView; alreadyPosted: boolean }> {
  const story = await deps.repos.social.storyToPost(storyId);
  if (!story) throw new DomainError("STORY_NOT_FOUND", "That story no longer exists.");
  if (story.status !== "published") throw new DomainError("WRONG_STATUS", "That story is no longer published, so its page is not live.");
  const { status: _status, ...postable } = story;
  const posts = await deps.repos.social.postsOf(storyId);
  return { story: storyView(postable), alreadyPosted: posts.some((post) => post.status === "posted") };
}
