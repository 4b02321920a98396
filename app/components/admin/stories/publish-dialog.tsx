import { useId } from "react";
import { useFetcher } from "react-router";
import { Dialog } from "~/app/components/admin/dialog";
import { useActionSuccess, useActionToast, type ActionResult } from "~/app/lib/action-toast";
import type { AdminStory } from "~/domain/stories/admin-list";
import { CategoryOptions, type CategoryOption } from "~/app/components/admin/category-options";

/** The category the desk's published stories suggest for a story that has none yet, and how sure. */
export function SuggestionNote({ story, categories, className }: { story: AdminStory; categories: CategoryOption[]; className?: string }) {
  const suggested = story.suggestionConfidence !== null ? categories.find((c) => c.id === story.suggestedCategoryId) : undefined;
  if (!suggested || story.categoryId !== null) return null;
  return (
    <p className={className}>
      Suggested: {suggested.name}, {Math.round((story.suggestionConfidence ?? 0) * 100)}% sure, from the stories this desk published.
    </p>
  );
}

/**
 * Publishing a story that has no category (nothing goes live uncategorized, so the category is asked
 * for here, set as it is published), or one of several reports of the same story (`group`: the others
 * are rejected as its duplicates in the same action). The category the desk's published stories
 * suggest is chosen first, else its source's default.
 */
export function PublishDialog({ story, categories, onClose, group = false }: { story: AdminStory; categories: CategoryOption[]; onClose: () => void; group?: boolean }) {
  const duplicates = group ? (story.sameStory?.others ?? []).filter((o) => o.status === "pending") : [];
  const fetcher = useFetcher<ActionResult>();
  useActionToast(fetcher.data);
  useActionSuccess(fetcher, onClose);
  const hintId = useId();
  const problem = fetcher.data?.fields?.categoryId;
  return (
    <Dialog title={group ? "Publish one report, reject the others" : "Choose a category to publish"} onClose={onClose} width="sm">
      <fetcher.Form method="post" className="space-y-4">
        <input type="hidden" name="intent" value={group ? "publish-group" : "publish"} />
        <input type="hidden" name="storyId" value={story.id} />
        {group ? <input type="hidden" name="duplicateIds" value={JSON.stringify(duplicates.map((d) => d.id))} /> : null}
        {group ? (
          <div id={hintId}>
            <p>
              <span className="font-bold">{story.title}</span> goes live; these reports of the same story are rejected as its duplicates:
            </p>
            <ul className="mt-1 list-disc pl-5 text-sm">
              {duplicates.map((d) => (
                <li key={d.id}>
                  #{d.id} {d.title} ({d.sourceName ?? "no source"})
                </li>
              ))}
            </ul>
          </div>
        ) : (
          <p id={hintId}>
            <span className="font-bold">{story.title}</span> has no category yet. A published story is shown on its category&apos;s page and
            home card, so it needs one.
          </p>
        )}
        <label className="block text-sm font-bold">
          Category
          <select
            name="categoryId"
            required
            defaultValue={story.categoryId ?? story.suggestedCategoryId ?? ""}
            aria-describedby={hintId}
            aria-invalid={problem ? true : undefined}
            className="mt-1 w-full rounded-lg border-2 border-ink bg-white px-3 py-2"
          >
            <option value="" disabled>
              Select a category
            </option>
            <CategoryOptions categories={categories} />
          </select>
        </label>
        <SuggestionNote story={story} categories={categories} className="text-sm text-ink/70" />
        {problem ? (
          <p role="alert" className="font-semibold text-alarm-ink">
            {problem}
          </p>
        ) : null}
        <div className="flex justify-end gap-2">
          <button type="button" onClick={onClose} className="rounded-full border-2 border-ink px-4 py-2 font-bold">
            Cancel
          </button>
          <button type="submit" disabled={fetcher.state !== "idle"} className="rounded-full bg-ink px-4 py-2 font-bold text-acid disabled:opacity-60">
            Publish
          </button>
        </div>
      </fetcher.Form>
    </Dialog>
  );
}
