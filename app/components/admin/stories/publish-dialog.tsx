import { useId } from "react";
import { useFetcher } from "react-router";
import { Dialog } from "~/app/components/admin/dialog";
import { useActionSuccess, useActionToast, type ActionResult } from "~/app/lib/action-toast";
import type { AdminStory } from "~/domain/stories/admin-list";
import { CategoryOptions, type CategoryOption } from "~/app/components/admin/category-options";

/**
 * Publishing a story that has no category: nothing goes live uncategorized, so the category is asked
 * for here, with its source's default category chosen when it has one, and set as it is published.
 */
export function PublishDialog({ story, categories, onClose }: { story: AdminStory; categories: CategoryOption[]; onClose: () => void }) {
  const fetcher = useFetcher<ActionResult>();
  useActionToast(fetcher.data);
  useActionSuccess(fetcher, onClose);
  const hintId = useId();
  const problem = fetcher.data?.fields?.categoryId;
  return (
    <Dialog title="Choose a category to publish" onClose={onClose} width="sm">
      <fetcher.Form method="post" className="space-y-4">
        <input type="hidden" name="intent" value="publish" />
        <input type="hidden" name="storyId" value={story.id} />
        <p id={hintId}>
          <span className="font-bold">{story.title}</span> has no category yet. A published story is shown on its category&apos;s page and
          home card, so it needs one.
        </p>
        <label className="block text-sm font-bold">
          Category
          <select
            name="categoryId"
            required
            defaultValue={story.suggestedCategoryId ?? ""}
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
