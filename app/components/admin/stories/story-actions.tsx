import type { ReactNode } from "react";
import { Link, useFetcher, useSearchParams } from "react-router";
import { useActionToast, type ActionResult } from "~/app/lib/action-toast";
import type { AdminStory } from "~/domain/stories/admin-list";
import { CategoryOptions, type CategoryOption } from "~/app/components/admin/category-options";
import { useConfirm } from "~/app/components/admin/confirm-dialog";

// The row's main action stands out; the others are quiet until pointed at.
const primary = "h-7 rounded-full border-2 border-ink bg-acid px-2.5 text-xs font-bold hover:bg-ink hover:text-acid disabled:opacity-50";
const button = "h-7 rounded-full border-2 border-transparent px-2 text-xs font-bold hover:border-ink disabled:opacity-50";

/**
 * A story row's last three columns: its category (a select that changes it), its
 * status badge, and its actions: Publish (asking for a category where there is none) and Reject when pending, Unpublish when published, Edit,
 * Delete, and the row's `details` toggle.
 */
export function StoryActions({
  story,
  categories,
  badge,
  details,
  onPublishUncategorized,
}: {
  story: AdminStory;
  categories: CategoryOption[];
  badge: ReactNode;
  details: ReactNode;
  /** Publish on a story without a category: the page asks for one instead. */
  onPublishUncategorized: (story: AdminStory) => void;
}) {
  const fetcher = useFetcher<ActionResult>();
  useActionToast(fetcher.data);
  const busy = fetcher.state !== "idle";
  const confirm = useConfirm();
  const act = (intent: string) => fetcher.submit({ intent, storyId: String(story.id) }, { method: "post" });
  // Editing keeps the list as it is behind the dialog.
  const [search] = useSearchParams();
  const editing = new URLSearchParams(search);
  editing.set("edit", String(story.id));
  return (
    <>
      <div className="min-w-0">
        <label className="sr-only" htmlFor={`category-${story.id}`}>
          Category of {story.title}
        </label>
        <select
          id={`category-${story.id}`}
          value={story.categoryId ?? ""}
          disabled={busy}
          onChange={(e) => fetcher.submit({ intent: "category", storyId: String(story.id), categoryId: e.target.value }, { method: "post" })}
          className="h-7 w-full truncate rounded-full border border-ink/40 bg-white px-2 text-xs hover:border-ink"
        >
          {/* A published story keeps a category. */}
          <option value="" disabled={story.status === "published"}>
            Uncategorized
          </option>
          <CategoryOptions categories={categories} />
        </select>
      </div>
      <div>{badge}</div>
      <div className="flex items-center justify-end gap-0.5">
        {story.status === "pending" ? (
          <>
            <button
              type="button"
              className={primary}
              disabled={busy}
              onClick={() => (story.categoryId === null ? onPublishUncategorized(story) : act("publish"))}
            >
              Publish<span className="sr-only"> {story.title}</span>
            </button>
            <button type="button" className={button} disabled={busy} onClick={() => act("reject")}>
              Reject<span className="sr-only"> {story.title}</span>
            </button>
          </>
        ) : null}
        {story.status === "published" ? (
          <button type="button" className={button} disabled={busy} onClick={() => act("unpublish")}>
            Unpublish<span className="sr-only"> {story.title}</span>
          </button>
        ) : null}
        <Link to={`?${editing.toString()}`} preventScrollReset className={`${button} inline-flex items-center`}>
          Edit<span className="sr-only"> {story.title}</span>
        </Link>
        <button
          type="button"
          className={`${button} text-alarm-ink hover:border-alarm-ink hover:bg-alarm-ink hover:text-white`}
          disabled={busy}
          onClick={() => confirm.ask({ title: "Delete story", message: <p>{`Delete "${story.title}" permanently?`}</p>, confirmLabel: "Delete", onConfirm: () => act("delete") })}
        >
          Delete<span className="sr-only"> {story.title}</span>
        </button>
        {details}
      </div>
      {confirm.dialog}
    </>
  );
}
