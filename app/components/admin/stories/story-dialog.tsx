import { useId, useRef, useState } from "react";
import { useFetcher } from "react-router";
import { Dialog } from "~/app/components/admin/dialog";
import { useActionSuccess, useActionToast, type ActionResult } from "~/app/lib/action-toast";
import type { AdminStory } from "~/domain/stories/admin-list";
import { REQUIRED_FIELDS_MESSAGE } from "~/domain/stories/messages";
import { requiredStoryFieldsMissing, storyFormFields } from "~/domain/stories/story-form";
import { formFields } from "~/app/lib/form-fields";
import { formatDate, formatTime } from "~/app/lib/format";
import { CategoryOptions, type CategoryOption } from "~/app/components/admin/category-options";

const field = "w-full rounded-lg border-2 border-ink bg-white px-3 py-2 aria-invalid:border-alarm-ink aria-invalid:bg-red-50";

/** The Add/Edit dialog: a slug only when adding; Create or Update, and Cancel. */
export function StoryDialog({ story, categories, onClose }: { story: AdminStory | null; categories: CategoryOption[]; onClose: () => void }) {
  const fetcher = useFetcher<ActionResult>();
  const adding = story === null;
  const [errors, setErrors] = useState<Record<string, string>>({});
  // The spec's message for a missing title or category, shown in the form rather than a blocking alert.
  const [missing, setMissing] = useState<MissingFields | null>(null);
  const alertId = useId();
  const form = useRef<HTMLFormElement>(null);
  useActionToast(fetcher.data);
  // The server's field problems are shown once per answer; a success closes the dialog.
  const [answered, setAnswered] = useState(fetcher.data);
  if (fetcher.data !== answered) {
    setAnswered(fetcher.data);
    setErrors(fetcher.data?.fields ?? {});
  }
  useActionSuccess(fetcher, onClose);
  const value = (name: keyof AdminStory & string) => (story ? String(story[name] ?? "") : "");
  const problem = (name: string) =>
    errors[name]
      ? { "aria-invalid": true as const, "aria-describedby": `story-${name}-error` }
      : missing?.[name as keyof MissingFields]
        ? { "aria-invalid": true as const, "aria-describedby": alertId }
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
        ref={form}
        method="post"
        // Our own message, in the spec's words, instead of the browser's bubbles for the required fields.
        noValidate
        className="space-y-3"
        onSubmit={(event) => {
          const found = requiredMissing(event.currentTarget);
          if (!found) {
            setMissing(null);
            return;
          }
          event.preventDefault();
          setMissing(found);
          event.currentTarget.querySelector<HTMLElement>(found.title ? '[name="title"]' : '[name="categoryId"]')?.focus();
        }}
        onChange={() => {
          // Once the editor fills in what was missing, the fields stop being marked.
          if (missing && form.current) setMissing(requiredMissing(form.current));
        }}
      >
        <p className="text-sm text-ink/70">
          Fields marked <span className="text-alarm-ink">*</span> are required.
        </p>
        {missing ? (
          <p id={alertId} role="alert" className="rounded-lg border-2 border-alarm-ink bg-red-50 px-3 py-2 font-semibold text-alarm-ink">
            {REQUIRED_FIELDS_MESSAGE}
          </p>
        ) : null}
        <input type="hidden" name="intent" value={adding ? "create" : "edit"} />
        {story?.sourcePublishedAt ? (
          <p className="text-sm">
            Reported by {story.sourceName ?? "its source"} on{" "}
            <time dateTime={story.sourcePublishedAt} className="font-semibold">
              {formatDate(story.sourcePublishedAt)} {formatTime(story.sourcePublishedAt)}
            </time>
          </p>
        ) : null}
        {story ? <input type="hidden" name="storyId" value={story.id} /> : null}
        <label className="block text-sm font-bold">
          Title <RequiredMark />
          <input name="title" required defaultValue={value("title")} className={field} {...problem("title")} />
          {error("title")}
        </label>
        <label className="block text-sm font-bold">
          Category <RequiredMark />
          <select name="categoryId" required defaultValue={value("categoryId")} className={field} {...problem("categoryId")}>
            <option value="">Select a category</option>
            <CategoryOptions categories={categories} />
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
          {/* Text, not type="url": a picture on this site is a path (/demo/cat.svg). */}
          <input name="imageUrl" type="text" inputMode="url" defaultValue={value("imageUrl")} className={field} {...problem("imageUrl")} />
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

type MissingFields = NonNullable<ReturnType<typeof requiredStoryFieldsMissing>>;

/** Which of the spec's required fields the form lacks, by the server's own schema, or null when it has both. */
function requiredMissing(form: HTMLFormElement): MissingFields | null {
  return requiredStoryFieldsMissing(storyFormFields.parse(formFields(new FormData(form))));
}

function RequiredMark() {
  return (
    <span aria-hidden="true" className="text-alarm-ink">
      *
    </span>
  );
}
