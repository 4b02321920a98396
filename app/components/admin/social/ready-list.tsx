import { formatDate } from "~/app/lib/format";
import type { PostableStoryView } from "~/domain/social/social-page";
import { SOCIAL_TEXT } from "./texts";

/**
 * 'Stories Ready to Post': the newest published stories not posted yet. Each is a button that loads
 * it into the composer; the chosen one is marked pressed.
 */
export function ReadyList({
  stories,
  chosenId,
  loading,
  onChoose,
}: {
  stories: PostableStoryView[];
  chosenId: number | null;
  loading: boolean;
  onChoose: (story: PostableStoryView) => void;
}) {
  return (
    <section aria-labelledby="ready-title" className="min-w-0">
      <h2 id="ready-title" className="font-display text-xl font-extrabold">
        {SOCIAL_TEXT.readyTitle}
      </h2>
      {loading ? (
        <p className="mt-3 text-sm text-ink/70" role="status">
          {SOCIAL_TEXT.loadingStories}
        </p>
      ) : stories.length === 0 ? (
        <p className="mt-3 rounded-xl border-2 border-dashed border-ink/40 p-4 text-sm text-ink/80">{SOCIAL_TEXT.noStories}</p>
      ) : (
        <ul className="mt-3 max-h-[70vh] space-y-2 overflow-y-auto pr-1">
          {stories.map((story) => {
            const chosen = story.id === chosenId;
            return (
              <li key={story.id}>
                <button
                  type="button"
                  aria-pressed={chosen}
                  onClick={() => onChoose(story)}
                  className={`w-full rounded-xl border-2 px-3 py-2 text-left transition-colors ${
                    chosen ? "border-ink bg-acid" : "border-ink/30 bg-white hover:border-ink hover:bg-acid/40"
                  }`}
                >
                  <span className="block font-bold leading-snug">{story.title}</span>
                  <span className="mt-0.5 block text-xs text-ink/70">
                    {[story.categoryName, formatDate(story.publishDate)].filter(Boolean).join(" · ")}
                  </span>
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
