import { useEffect, useId, useRef, useState } from "react";
import { Dialog } from "~/app/components/admin/dialog";
import { Spinner } from "~/app/components/admin/sources/spinner";
import { inputClass, panelClass, primaryButtonClass, secondaryButtonClass } from "~/app/components/admin/sources/ui";
import { composeMessage, storyLink, summaryExcerpt } from "~/domain/social/compose";
import type { PostableStoryView } from "~/domain/social/social-page";
import { publicCategoryName } from "~/domain/stories/public-story";
import { siteHost, storySocialImage } from "~/lib/story-image";
import { SOCIAL_TEXT } from "./texts";

/** What the composer sends: the message, and the time for a scheduled post (UTC ISO) or null for now. */
export type PostRequest = { message: string; at: string | null; repost: boolean };

/** A `datetime-local` value read as UTC (the back office shows every time in UTC). */
function utcFromLocalInput(value: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(value)) return null;
  const at = new Date(`${value}${value.length === 16 ? ":00" : ""}Z`);
  return Number.isNaN(at.getTime()) ? null : at.toISOString();
}

/** The picture the story page names as og:image: its own picture, or its share card when it has none. */
function SharedImage({ story, siteUrl }: { story: PostableStoryView; siteUrl: string }) {
  const shared = storySocialImage({ id: story.id, imageUrl: story.imageUrl, imageWidth: story.imageWidth, title: story.title, category: publicCategoryName(story.categoryName) }, siteUrl);
  return <img src={shared.url} width={shared.width} height={shared.height} alt="" loading="lazy" className="aspect-[1.91/1] w-full bg-paper object-cover" />;
}

/** What Facebook shows under a post with a link: the story's picture, title, description and the site's domain. */
function PreviewCard({ story, siteUrl }: { story: PostableStoryView; siteUrl: string }) {
  return (
    <figure className="overflow-hidden rounded-xl border-2 border-ink/30 bg-[#f0f2f5]">
      <SharedImage story={story} siteUrl={siteUrl} />
      <figcaption className="border-t border-ink/20 px-3 py-2">
        <span className="block text-xs uppercase tracking-wide text-ink/60">{siteHost(siteUrl)}</span>
        <span className="block font-bold leading-snug">{story.title}</span>
        {story.summary ? <span className="mt-0.5 line-clamp-2 block text-sm text-ink/70">{summaryExcerpt(story.summary)}</span> : null}
      </figcaption>
    </figure>
  );
}

/**
 * The 'Facebook Post Composer': the message composed by the spec's rule (editable), now or at a chosen
 * time, and a preview of the card. The post button waits for message text; a repost asks first.
 */
export function Composer({
  story,
  repost,
  siteUrl,
  connected,
  busy,
  onPost,
}: {
  story: PostableStoryView | null;
  repost: boolean;
  siteUrl: string;
  connected: boolean;
  /** A post is on its way: the button waits. */
  busy: boolean;
  onPost: (request: PostRequest) => void;
}) {
  const messageId = useId();
  const whenId = useId();
  const [message, setMessage] = useState(() => (story ? composeMessage(story, siteUrl) : ""));
  const [mode, setMode] = useState<"now" | "later">("now");
  const [later, setLater] = useState("");
  const [confirming, setConfirming] = useState(false);
  const section = useRef<HTMLElement>(null);
  // On a narrow screen the composer sits below the list: a chosen story brings it into view.
  useEffect(() => {
    if (story && window.matchMedia("(max-width: 1023px)").matches) section.current?.scrollIntoView({ block: "start" });
  }, [story]);

  if (!story) {
    return (
      <section aria-labelledby="composer-title" className={panelClass}>
        <h2 id="composer-title" className="font-display text-xl font-extrabold">
          {SOCIAL_TEXT.composerTitle}
        </h2>
        <p className="mt-3 text-ink/80">{SOCIAL_TEXT.selectStory}</p>
      </section>
    );
  }

  const at = mode === "later" ? utcFromLocalInput(later) : null;
  const ready = message.trim() !== "" && (mode === "now" || at !== null) && connected && !busy;
  const send = () => onPost({ message, at, repost });

  return (
    <section ref={section} aria-labelledby="composer-title" className={`${panelClass} scroll-mt-4`}>
      <h2 id="composer-title" className="font-display text-xl font-extrabold">
        {SOCIAL_TEXT.composerTitle}
      </h2>
      <p className="mt-1 text-sm text-ink/70">
        {repost ? "Reposting: " : "Posting: "}
        <span className="font-semibold text-ink">{story.title}</span>
      </p>
      <form
        className="mt-4 grid gap-4"
        onSubmit={(event) => {
          event.preventDefault();
          if (!ready) return;
          if (repost) setConfirming(true);
          else send();
        }}
      >
        <div>
          <label htmlFor={messageId} className="font-bold">
            Message
          </label>
          <textarea id={messageId} value={message} onChange={(event) => setMessage(event.target.value)} rows={9} className={`${inputClass} mt-1 font-mono text-sm`} />
          <p className="mt-1 text-xs text-ink/70">
            The post links to <span className="break-all font-semibold">{storyLink(siteUrl, story.slug)}</span>.
          </p>
        </div>
        <div>
          <p className="font-bold">Preview</p>
          <div className="mt-1 max-w-md">
            <PreviewCard story={story} siteUrl={siteUrl} />
          </div>
        </div>
        <fieldset>
          <legend className="font-bold">When</legend>
          <div className="mt-1 flex flex-wrap items-center gap-x-5 gap-y-2">
            <label className="flex items-center gap-2">
              <input type="radio" name="when" value="now" checked={mode === "now"} onChange={() => setMode("now")} className="h-4 w-4 accent-ufo" />
              Post now
            </label>
            <label className="flex items-center gap-2">
              <input type="radio" name="when" value="later" checked={mode === "later"} onChange={() => setMode("later")} className="h-4 w-4 accent-ufo" />
              Schedule
            </label>
            {mode === "later" ? (
              <label htmlFor={whenId} className="flex flex-wrap items-center gap-2">
                <span className="whitespace-nowrap">Post at (UTC)</span>
                <input id={whenId} type="datetime-local" value={later} onChange={(event) => setLater(event.target.value)} className={`${inputClass} w-auto py-1`} required />
              </label>
            ) : null}
          </div>
        </fieldset>
        <div className="flex flex-wrap items-center gap-3">
          <button type="submit" className={primaryButtonClass} disabled={!ready}>
            {busy ? <Spinner /> : null}
            {mode === "later" ? "Schedule Post" : repost ? "Repost to Facebook" : "Post to Facebook"}
          </button>
          {!connected ? <p className="text-sm font-semibold text-alarm-ink">Connect the Facebook Page first (see above).</p> : null}
        </div>
      </form>
      {confirming ? (
        <Dialog title="Post this story again?" width="sm" onClose={() => setConfirming(false)}>
          <p>
            &ldquo;{story.title}&rdquo; is already on the Page. A repost makes a second, separate post{mode === "later" ? " at the chosen time" : ""}.
          </p>
          <div className="mt-5 flex justify-end gap-3">
            <button type="button" className={secondaryButtonClass} onClick={() => setConfirming(false)}>
              Cancel
            </button>
            <button
              type="button"
              className={primaryButtonClass}
              onClick={() => {
                setConfirming(false);
                send();
              }}
            >
              Repost
            </button>
          </div>
        </Dialog>
      ) : null}
    </section>
  );
}
