import { useId, useState } from "react";
import { useFetcher } from "react-router";
import { categoryFormProblem } from "~/domain/categories/category-form";
import { slugify } from "~/lib/slug";
import { useActionSuccess, useActionToast, type ActionResult } from "~/app/lib/action-toast";
import { DisabledReason } from "~/app/components/admin/disabled-reason";

/** The Add Category form: the slug follows the name until it is edited by hand. */
export function AddCategory({ onDone }: { onDone: () => void }) {
  const fetcher = useFetcher<ActionResult>();
  useActionToast(fetcher.data);
  const [name, setName] = useState("");
  const [slug, setSlug] = useState("");
  const [slugEdited, setSlugEdited] = useState(false);
  useActionSuccess(fetcher, onDone);
  const field = "w-full rounded-lg border-2 border-ink bg-white px-3 py-2";
  const reasonId = useId();
  const reason = categoryFormProblem({ name, slug });
  return (
    <fetcher.Form method="post" className="mt-4 grid gap-3 rounded-2xl border-2 border-ink bg-white p-4 sm:grid-cols-[1fr_1fr_auto] sm:items-end">
      <input type="hidden" name="intent" value="create" />
      <label className="text-sm font-bold">
        Category Name
        <input
          name="name"
          value={name}
          onChange={(e) => {
            setName(e.target.value);
            if (!slugEdited) setSlug(slugify(e.target.value));
          }}
          className={field}
        />
      </label>
      <label className="text-sm font-bold">
        URL Slug
        <input
          name="slug"
          value={slug}
          onChange={(e) => {
            setSlug(e.target.value);
            setSlugEdited(true);
          }}
          className={field}
        />
      </label>
      <button
        type="submit"
        disabled={reason !== null || fetcher.state !== "idle"}
        aria-describedby={reason ? reasonId : undefined}
        className="rounded-full bg-ink px-4 py-2 font-bold text-acid disabled:opacity-50"
      >
        {fetcher.state !== "idle" ? "Adding..." : "Add Category"}
      </button>
      {reason ? (
        <DisabledReason id={reasonId} className="sm:col-span-3">
          {reason}
        </DisabledReason>
      ) : null}
    </fetcher.Form>
  );
}
