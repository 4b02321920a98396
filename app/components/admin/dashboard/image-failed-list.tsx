import { Spinner } from "~/app/components/admin/sources/spinner";
import { plural } from "~/app/lib/format";
import type { FailedStoryView } from "~/domain/images/image-stats";

/**
 * The stories whose last enhancement failed for a reason that will not change by itself (no picture on
 * the page, the page gone): apart from the work count, each with its reason and a retry, and a retry of all.
 */
export function ImageFailedList({
  id,
  failed,
  locked,
  busyId,
  onRetry,
  onRetryAll,
  buttonClass,
}: {
  id: string;
  failed: { count: number; stories: FailedStoryView[] };
  locked: boolean;
  /** The story whose retry is being asked for ("all" for Retry all), if any. */
  busyId: string | null;
  onRetry: (story: FailedStoryView) => void;
  onRetryAll: () => void;
  buttonClass: string;
}) {
  if (failed.count === 0) return null;
  const more = failed.count - failed.stories.length;
  return (
    <section aria-labelledby={`${id}-failed`} className="mt-5 border-t-2 border-ink/10 pt-3 text-sm">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h3 id={`${id}-failed`} className="font-bold">
          Could not be enhanced: {plural(failed.count, "story", "stories")}
        </h3>
        <button
          type="button"
          className={buttonClass}
          aria-disabled={locked || undefined}
          aria-busy={busyId === "all"}
          onClick={() => {
            if (!locked) onRetryAll();
          }}
        >
          {busyId === "all" ? <Spinner className="h-3.5 w-3.5" /> : null}
          Retry all ({failed.count})
        </button>
      </div>
      <p className="mt-1 text-ink/70">
        Their last attempt failed for a reason that will not change by itself, so they are not counted above: they come back when their page or picture is
        changed, or when you retry them.
      </p>
      <ul tabIndex={0} aria-label="Stories that could not be enhanced" className="mt-2 max-h-72 divide-y divide-ink/10 overflow-y-auto rounded-lg border-2 border-ink/15 bg-paper/60">
        {failed.stories.map((story) => (
          <li key={story.id} className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1 px-3 py-2">
            <div className="min-w-0 flex-1">
              <p className="font-semibold break-words">
                {story.title} <span className="font-normal text-ink/60">ID {story.id}</span>
              </p>
              <p className="text-ink/75 break-words">{story.reason}</p>
            </div>
            <button
              type="button"
              className={`${buttonClass} px-3 py-1`}
              aria-label={`Retry ${story.title}`}
              aria-disabled={locked || undefined}
              aria-busy={busyId === String(story.id)}
              onClick={() => {
                if (!locked) onRetry(story);
              }}
            >
              {busyId === String(story.id) ? <Spinner className="h-3.5 w-3.5" /> : null}
              Retry
            </button>
          </li>
        ))}
      </ul>
      {more > 0 ? <p className="mt-1 text-ink/70">The {failed.stories.length} most recently tried are listed; Retry all takes the {more} others too.</p> : null}
    </section>
  );
}
