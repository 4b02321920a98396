import { useEffect, useState } from "react";
import { useFetcher } from "react-router";
import { Dialog } from "~/app/components/admin/dialog";
import { useActionToast, type ActionResult } from "~/app/lib/action-toast";
import type { AdminStory } from "~/domain/stories/admin-list";
import { REQUIRED_FIELDS_MESSAGE } from "~/domain/stories/messages";
import type { CategoryOption } from "./types";

const field = "w-full rounded-lg border-2 border-ink bg-white px-3 py-2";

/** The Add/Edit dialog of spec section 2: a slug only when adding; Create or Update, and Cancel. */
export function StoryDialog({ story, categories, onClose }: { story: AdminStory | null; categories: CategoryOption[]; onClose: () => void }) {
  const fetcher = useFetcher<ActionResult>();
  const adding = story === null;
  const [errors, setErrors] = useState<Record<string, string>>({});
  useActionToast(fetcher.data);
  // The server's field problems are shown once per answer; a success closes the dialog.
  const [answered, setAnswered] = useState(fetcher.data);
  if (fetcher.data !== answered) {
    setAnswered(fetcher.data);
    setErrors(fetcher.data?.fieldErrors ?? {});
  }
  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data?.ok) onClose();
  }, [fetcher.state, fetcher.data, onClose]);
  const value = (name: keyof AdminStory & string) => (story ? String(story[name] ?? "") : "");
  const problem = (name: string) =>
    errors[name]
      ? { "aria-invalid": true as const, "aria-describedby": `story-${name}-error` }
      : {};
  const error = (name: string) =>
    errors[name] ? (
      <span id={`story-${name}-error`} className="mt-1 block font-semibold text-alarm-ink">
        {errors[name]}
      </span>
    ) : null;
  return (
    <Dialog title={adding ? "Add New Story" : "Edit Story"} onClose={onClose}>
      <fetcher.Form
        method="post"
        className="space-y-3"
        onSubmit={(event) => {
          const form = new FormData(event.currentTarget);
          if (String(form.get("title") ?? "").trim() === "" || !form.get("categoryId")) {
            event.preventDefault();
            window.alert(REQUIRED_FIELDS_MESSAGE);
          }
        }}
      >
        <input type="hidden" name="intent" value={adding ? "create" : "edit"} />
        {story ? <input type="hidden" name="storyId" value={story.id} /> : null}
        <label className="block text-sm font-bold">
          Title
          <input name="title" defaultValue={value("title")} className={field} {...problem("title")} />
          {error("title")}
        </label>
        <label className="block text-sm font-bold">
          Category
          <select name="categoryId" defaultValue={value("categoryId")} className={field} {...problem("categoryId")}>
            <option value="">Select a category</option>
            {categories.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
          {error("categoryId")}
        </label>
        <label className="block text-sm font-bold">
          Summary
          <textarea name="summary" rows={2} defaultValue={value("summary")} className={field} />
        </label>
        <label className="block text-sm font-bold">
          Content
          <textarea name="content" rows={4} defaultValue={value("content")} className={field} />
        </label>
        <label className="block text-sm font-bold">
          Image URL
          <input name="imageUrl" type="url" defaultValue={value("imageUrl")} className={field} {...problem("imageUrl")} />
          {error("imageUrl")}
        </label>
        <label className="block text-sm font-bold">
          Source URL
          <input name="sourceUrl" type="url" defaultValue={value("sourceUrl")} className={field} {...problem("sourceUrl")} />
          {error("sourceUrl")}
        </label>
        {adding ? (
          <label className="block text-sm font-bold">
            URL Slug
            <input name="slug" placeholder="generated from the title" className={field} {...problem("slug")} />
            {error("slug")}
          </label>
        ) : null}
        <label className="flex items-center gap-2 text-sm font-bold">
          <input type="checkbox" role="switch" name="isFeatured" defaultChecked={story?.isFeatured ?? false} className="h-5 w-5" />
          Featured Story
        </label>
        <div className="flex justify-end gap-2 pt-2">
          <button type="button" onClick={onClose} className="rounded-full border-2 border-ink px-4 py-2 font-bold">
            Cancel
          </button>
          <button type="submit" disabled={fetcher.state !== "idle"} className="rounded-full bg-ink px-4 py-2 font-bold text-acid disabled:opacity-60">
            {adding ? "Create" : "Update"}
          </button>
        </div>
      </fetcher.Form>
    </Dialog>
  );
}
