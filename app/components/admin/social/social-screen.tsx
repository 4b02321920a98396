import { useEffect, useState } from "react";
import { useFetcher, useRevalidator } from "react-router";
import { toast } from "sonner";
import { useJobPoll } from "~/app/components/admin/job-poll";
import { PageHeader } from "~/app/components/admin/page-header";
import { useActionToast, type ActionResult } from "~/app/lib/action-toast";
import { formatDate, formatTime } from "~/app/lib/format";
import { usePageLoading } from "~/app/lib/use-page-loading";
import type { PostableStoryView, SocialPostView } from "~/domain/social/social-page";
import { Composer, type PostRequest } from "./composer";
import { ConnectionPanel } from "./connection-panel";
import { RecentPosts, ScheduledPosts } from "./post-lists";
import { ReadyList } from "./ready-list";
import { SOCIAL_TEXT } from "./texts";

/** What the Social Media page's action answers. */
export type SocialAnswer =
  | (ActionResult & { intent?: string })
  | { ok: true; intent: "post"; jobId: string; postRowId: number; scheduledFor: string | null }
  | { ok: true; intent: "load-story"; story: PostableStoryView; alreadyPosted: boolean };

export const SOCIAL_PATH = "/admin/social";

/** What a finished post job says of the post (jobs/social.job.ts). */
type PostJobResult = { outcome?: string; status?: string; error_message?: string | null; retry_at?: string | null; reason?: string };

function whenText(iso: string): string {
  return `${formatDate(iso)} ${formatTime(iso)} UTC`;
}

/** Social Media: the Page connection, stories ready to post, the composer, scheduled and recent posts. */
export function SocialScreen({
  ready,
  scheduled,
  recent,
  connected,
  siteUrl,
}: {
  ready: PostableStoryView[];
  scheduled: SocialPostView[];
  recent: SocialPostView[];
  connected: boolean;
  siteUrl: string;
}) {
  const [chosen, setChosen] = useState<{ story: PostableStoryView; repost: boolean; n: number } | null>(null);
  const [postJob, setPostJob] = useState<string | null>(null);
  // Posts that went out from this page: each one has the connection checked again, so the panel never contradicts it.
  const [postedCount, setPostedCount] = useState(0);
  const fetcher = useFetcher<SocialAnswer>();
  const revalidator = useRevalidator();
  useActionToast(fetcher.data && "toast" in fetcher.data ? fetcher.data : undefined);

  // One look at each answer: a post to follow, a scheduled post, or a story loaded for a repost. The
  // state follows during render; the toasts and the reload are effects, so a render run twice shows one toast.
  const [answer, setAnswer] = useState(fetcher.data);
  if (fetcher.data !== answer) {
    setAnswer(fetcher.data);
    const data = fetcher.data;
    if (data && "postRowId" in data) {
      if (data.scheduledFor) setChosen(null);
      else setPostJob(data.jobId);
    }
    // Posting a story that is on the Page is a repost, confirmed first; one whose posts all failed is simply posted.
    if (data && "story" in data) setChosen((prev) => ({ story: data.story, repost: data.alreadyPosted, n: (prev?.n ?? 0) + 1 }));
  }
  useEffect(() => {
    if (answer && "postRowId" in answer && answer.scheduledFor) {
      toast.success("Post scheduled", { description: `It will be posted at ${whenText(answer.scheduledFor)}.` });
      void revalidator.revalidate();
    }
    if (answer && "story" in answer) {
      const loaded = SOCIAL_TEXT.reposting(answer.story.title);
      toast.success(loaded.title, { description: loaded.description });
    }
    // The revalidator changes identity on every render; the answer alone decides.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [answer]);

  useJobPoll(postJob, (job) => {
    setPostJob(null);
    void revalidator.revalidate();
    const result = (job?.result ?? {}) as PostJobResult;
    if (job?.status === "succeeded" && result.outcome === "posted") {
      toast.success(SOCIAL_TEXT.posted.title, { description: SOCIAL_TEXT.posted.description });
      setChosen(null);
      setPostedCount((n) => n + 1);
    } else if (job?.status === "succeeded" && result.outcome === "retrying") {
      // A rate limit or a passing failure is not a failure: the post goes out later by itself.
      toast.warning("Waiting to post", {
        description: `${result.error_message ?? "Facebook could not take the post now."}${result.retry_at ? ` Next try at ${whenText(result.retry_at)}.` : ""}`,
      });
      setChosen(null);
    } else {
      const reason = job?.status === "succeeded" ? (result.error_message ?? result.reason) : job?.error;
      toast.error(SOCIAL_TEXT.failedTitle, { description: reason || SOCIAL_TEXT.failedFallback });
    }
  });

  const busy = fetcher.state !== "idle" || postJob !== null;
  const pageLoading = usePageLoading(SOCIAL_PATH) !== null;
  const loading = revalidator.state === "loading" || pageLoading;

  const post = (request: PostRequest) => {
    if (!chosen) return;
    fetcher.submit(
      { intent: "post", storyId: String(chosen.story.id), message: request.message, at: request.at ?? "", ...(request.repost ? { repost: "1" } : {}) },
      { method: "post" },
    );
  };

  return (
    <>
      <PageHeader title={SOCIAL_TEXT.title} description={`${SOCIAL_TEXT.subtitle}: post published stories to the site's Facebook Page.`} />
      <div className="grid gap-6">
        <ConnectionPanel connected={connected} postedCount={postedCount} />
        <div className="grid gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
          <ReadyList
            stories={ready}
            loading={loading}
            chosenId={chosen && !chosen.repost ? chosen.story.id : null}
            onChoose={(story) => setChosen((prev) => ({ story, repost: false, n: (prev?.n ?? 0) + 1 }))}
          />
          <Composer
            key={chosen ? `${chosen.story.id}-${chosen.n}` : "none"}
            story={chosen?.story ?? null}
            repost={chosen?.repost ?? false}
            siteUrl={siteUrl}
            connected={connected}
            busy={busy}
            onPost={post}
          />
        </div>
        <ScheduledPosts
          posts={scheduled}
          busy={busy}
          onCancel={(p) => fetcher.submit({ intent: "cancel", postRowId: String(p.id) }, { method: "post" })}
        />
        <RecentPosts posts={recent} busy={busy} onRepost={(p) => fetcher.submit({ intent: "load-story", storyId: String(p.storyId) }, { method: "post" })} />
      </div>
    </>
  );
}
