import { ExternalIcon } from "~/app/components/icons";
import { linkClass, safeHref, secondaryButtonClass } from "~/app/components/admin/sources/ui";
import { formatDate, formatTime } from "~/app/lib/format";
import type { SocialPostView } from "~/domain/social/social-page";
import { SOCIAL_TEXT } from "./texts";

// The Stories page's colours: waiting is yellow, done is green, failed is red.
const BADGE: Record<SocialPostView["status"], string> = {
  pending: "bg-yellow-200 text-yellow-900",
  posted: "bg-green-200 text-green-900",
  failed: "bg-red-100 text-alarm-ink",
};

/** A time as the back office shows it: 'MMM d, yyyy HH:mm' UTC. */
function at(iso: string | null): string {
  return iso ? `${formatDate(iso)} ${formatTime(iso)}` : "";
}

/** What a pending post is waiting for: its time, a retry after a rate limit, or its turn now. */
function pendingLine(post: SocialPostView): string {
  if (post.attempts === 0 && post.scheduledFor) return `Scheduled for ${at(post.scheduledFor)} UTC`;
  if (post.nextAttemptAt) return `Trying again at ${at(post.nextAttemptAt)} UTC`;
  return "Posting...";
}

function PostItem({ post, onRepost, busy }: { post: SocialPostView; onRepost: (post: SocialPostView) => void; busy: boolean }) {
  const live = safeHref(post.permalinkUrl);
  return (
    <li className="rounded-xl border-2 border-ink/30 bg-white p-3">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <p className="min-w-0 font-bold leading-snug">{post.storyTitle}</p>
        <span className={`shrink-0 rounded-full px-2 py-0.5 text-xs font-bold ${BADGE[post.status]}`}>{post.status}</span>
      </div>
      <p className="mt-1 text-xs text-ink/70">
        <time dateTime={post.postedAt ?? post.createdAt}>{at(post.postedAt ?? post.createdAt)}</time>
        {post.status === "pending" ? ` · ${pendingLine(post)}` : null}
      </p>
      {post.errorMessage ? (
        <p className={`mt-2 text-sm ${post.status === "failed" ? "font-semibold text-alarm-ink" : "text-ink/80"}`}>
          {post.errorMessage}
          {post.errorCode !== null ? <span className="block text-xs font-normal text-ink/60">Facebook code {post.errorCode}{post.fbtraceId ? `, trace ${post.fbtraceId}` : ""}</span> : null}
        </p>
      ) : null}
      <div className="mt-2 flex flex-wrap items-center gap-3 text-sm">
        {live ? (
          <a href={live} target="_blank" rel="noopener noreferrer" className={`${linkClass} inline-flex items-center gap-1`}>
            View on Facebook <ExternalIcon className="h-3.5 w-3.5" />
            <span className="sr-only">(opens in a new tab)</span>
          </a>
        ) : null}
        {post.status !== "pending" ? (
          <button type="button" className={secondaryButtonClass} onClick={() => onRepost(post)} disabled={busy} aria-label={`Repost ${post.storyTitle}`}>
            Repost
          </button>
        ) : null}
      </div>
    </li>
  );
}

/** 'Recent Facebook Posts': the newest posts with their status, time, live link, error, and Repost. */
export function RecentPosts({ posts, onRepost, busy }: { posts: SocialPostView[]; onRepost: (post: SocialPostView) => void; busy: boolean }) {
  return (
    <section aria-labelledby="recent-title">
      <h2 id="recent-title" className="font-display text-xl font-extrabold">
        {SOCIAL_TEXT.recentTitle}
      </h2>
      {posts.length === 0 ? (
        <p className="mt-3 rounded-xl border-2 border-dashed border-ink/40 p-4 text-sm text-ink/80">{SOCIAL_TEXT.noPosts}</p>
      ) : (
        <ul className="mt-3 space-y-2">
          {posts.map((post) => (
            <PostItem key={post.id} post={post} onRepost={onRepost} busy={busy} />
          ))}
        </ul>
      )}
    </section>
  );
}

/** Posts waiting for their chosen time, each with Cancel. Not drawn when there are none. */
export function ScheduledPosts({ posts, onCancel, busy }: { posts: SocialPostView[]; onCancel: (post: SocialPostView) => void; busy: boolean }) {
  if (posts.length === 0) return null;
  return (
    <section aria-labelledby="scheduled-title">
      <h2 id="scheduled-title" className="font-display text-xl font-extrabold">
        {SOCIAL_TEXT.scheduledTitle}
      </h2>
      <ul className="mt-3 space-y-2">
        {posts.map((post) => (
          <li key={post.id} className="flex flex-wrap items-center justify-between gap-3 rounded-xl border-2 border-ink/30 bg-white p-3">
            <div className="min-w-0">
              <p className="font-bold leading-snug">{post.storyTitle}</p>
              <p className="text-xs text-ink/70">{pendingLine(post)}</p>
            </div>
            {post.attempts === 0 ? (
              <button type="button" className={secondaryButtonClass} onClick={() => onCancel(post)} disabled={busy} aria-label={`Cancel the scheduled post of ${post.storyTitle}`}>
                Cancel
              </button>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
