import { useId, useState, type ComponentProps } from "react";
import { useFetcher } from "react-router";
import { Dialog } from "~/app/components/admin/dialog";
import { useActionSuccess, useActionToast, type ActionResult } from "~/app/lib/action-toast";
import type { AdminStory } from "~/domain/stories/admin-list";
import { CategoryOptions, type CategoryOption } from "~/app/components/admin/category-options";

/** A required choice of category, none chosen until the editor picks one (or one is preselected). */
function CategoryChoice({ categories, className = "", ...props }: ComponentProps<"select"> & { categories: CategoryOption[] }) {
  return (
    <select required {...props} className={`mt-1 w-full rounded-lg border-2 border-ink bg-white px-3 py-2 ${className}`}>
      <option value="" disabled>
        Select a category
      </option>
      <CategoryOptions categories={categories} />
    </select>
  );
}

/** The category the desk's published stories suggest for a story that has none yet, and how sure. */
export function SuggestionNote({
  story,
  categories,
  className,
  brief = false,
  id,
}: {
  story: AdminStory;
  categories: CategoryOption[];
  className?: string;
  brief?: boolean;
  id?: string;
}) {
  const suggested = story.suggestionConfidence !== null ? categories.find((c) => c.id === story.suggestedCategoryId) : undefined;
  if (!suggested || story.categoryId !== null) return null;
  const sure = `Suggested: ${suggested.name}, ${Math.round((story.suggestionConfidence ?? 0) * 100)}% sure`;
  return (
    <p id={id} className={className}>
      {brief ? `${sure}.` : `${sure}, from the stories this desk published.`}
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
          <CategoryChoice
            categories={categories}
            name="categoryId"
            defaultValue={story.categoryId ?? story.suggestedCategoryId ?? ""}
            aria-describedby={hintId}
            aria-invalid={problem ? true : undefined}
          />
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

/**
 * Publishing a selection of which some stories have no category: each of those is listed with a
 * category to choose, the one the desk's published stories suggest (else its source's default)
 * chosen first; the rest keep their own. The browser sends nothing until every one has a category.
 */
export function BulkPublishDialog({ ids, stories, categories, onClose }: { ids: number[]; stories: AdminStory[]; categories: CategoryOption[]; onClose: () => void }) {
  // The stories as they were when the dialog opened: the list reloads under it once they are published.
  const [chosen] = useState(() => stories.filter((s) => ids.includes(s.id) && s.status === "pending"));
  const needing = chosen.filter((s) => s.categoryId === null);
  const [choice, setChoice] = useState<Record<number, string>>(() => Object.fromEntries(needing.map((s) => [s.id, s.suggestedCategoryId ? String(s.suggestedCategoryId) : ""])));
  const fetcher = useFetcher<ActionResult>();
  useActionToast(fetcher.data);
  useActionSuccess(fetcher, onClose);
  const hintId = useId();
  const missing = needing.filter((s) => !choice[s.id]).length;
  const others = chosen.length - needing.length;
  const refused = fetcher.data && !fetcher.data.ok ? fetcher.data.toast.description : null;
  return (
    <Dialog title="Choose categories to publish" onClose={onClose} width="md">
      <fetcher.Form
        method="post"
        className="space-y-4"
        onSubmit={(event) => {
          event.preventDefault();
          const categoriesChosen = needing.map((s) => [s.id, Number(choice[s.id])]);
          void fetcher.submit({ intent: "bulk-publish", ids: JSON.stringify(ids), categories: JSON.stringify(categoriesChosen) }, { method: "post" });
        }}
      >
        <p id={hintId}>
          {needing.length === 1 ? "One of the stories chosen has" : `${needing.length} of the stories chosen have`} no category yet. A published story is shown on
          its category&apos;s page and home card, so each needs one.
          {needing.some((s) => s.suggestionConfidence !== null) ? " The suggestions come from the stories this desk published." : ""}
          {others > 0 ? ` The other ${others === 1 ? "story keeps its own" : `${others} keep their own`}.` : ""}
        </p>
        <ul className="max-h-[50vh] space-y-3 overflow-y-auto pr-1">
          {needing.map((story) => (
            <li key={story.id}>
              <label className="block text-sm font-bold">
                {story.title}
                <CategoryChoice
                  categories={categories}
                  value={choice[story.id] ?? ""}
                  onChange={(e) => setChoice((prev) => ({ ...prev, [story.id]: e.target.value }))}
                  aria-describedby={story.suggestionConfidence !== null ? `${hintId}-${story.id}` : undefined}
                  className="font-normal"
                />
              </label>
              <SuggestionNote id={`${hintId}-${story.id}`} story={story} categories={categories} brief className="mt-0.5 text-xs text-ink/70" />
            </li>
          ))}
        </ul>
        {refused ? (
          <p role="alert" className="font-semibold text-alarm-ink">
            {refused}
          </p>
        ) : null}
        <div className="flex items-center justify-end gap-2">
          <p className="mr-auto text-sm text-ink/70" aria-live="polite">
            {missing > 0 ? `${missing === 1 ? "1 story still needs" : `${missing} stories still need`} a category.` : ""}
          </p>
          <button type="button" onClick={onClose} className="rounded-full border-2 border-ink px-4 py-2 font-bold">
            Cancel
          </button>
          <button type="submit" disabled={fetcher.state !== "idle"} className="rounded-full bg-ink px-4 py-2 font-bold text-acid disabled:opacity-50">
            Publish {chosen.length === 1 ? "1 story" : `${chosen.length} stories`}
          </button>
        </div>
      </fetcher.Form>
    </Dialog>
  );
}
