import { Link, useFetcher } from "react-router";
import { useActionToast, type ActionResult } from "~/app/lib/action-toast";
import type { AdminStory } from "~/domain/stories/admin-list";
import type { CategoryOption } from "./types";

const button = "rounded-full border-2 border-ink px-3 py-1 text-sm font-bold hover:bg-acid disabled:opacity-50";

/** A story card's actions (spec section 2): Publish and Reject when pending, Unpublish when published, category, Edit, Delete. */
export function StoryActions({ story, categories }: { story: AdminStory; categories: CategoryOption[] }) {
  const fetcher = useFetcher<ActionResult>();
  useActionToast(fetcher.data);
  const busy = fetcher.state !== "idle";
  const act = (intent: string) => fetcher.submit({ intent, storyId: String(story.id) }, { method: "post" });
  return (
    <div className="flex flex-wrap items-center gap-2">
      {story.status === "pending" ? (
        <>
          <button type="button" className={button} disabled={busy} onClick={() => act("publish")}>
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
      <label className="sr-only" htmlFor={`category-${story.id}`}>
        Category of {story.title}
      </label>
      <select
        id={`category-${story.id}`}
        value={story.categoryId ?? ""}
        disabled={busy}
        onChange={(e) => fetcher.submit({ intent: "category", storyId: String(story.id), categoryId: e.target.value }, { method: "post" })}
        className="rounded-full border-2 border-ink bg-white px-2 py-1 text-sm"
      >
        <option value="">Uncategorized</option>
        {categories.map((c) => (
          <option key={c.id} value={c.id}>
            {c.name}
          </option>
        ))}
      </select>
      <Link to={`?edit=${story.id}`} preventScrollReset className={button}>
        Edit<span className="sr-only"> {story.title}</span>
      </Link>
      <button
        type="button"
        className={`${button} border-alarm-ink text-alarm-ink hover:bg-alarm-ink hover:text-white`}
        disabled={busy}
        onClick={() => {
          if (window.confirm(`Delete "${story.title}" permanently?`)) act("delete");
        }}
      >
        Delete<span className="sr-only"> {story.title}</span>
      </button>
    </div>
  );
}
