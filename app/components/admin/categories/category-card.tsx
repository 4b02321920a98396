import { useSortable } from "@dnd-kit/sortable";
import { CSS } from "@dnd-kit/utilities";
import { useRef, useState } from "react";
import { useFetcher } from "react-router";
import type { AdminCategory } from "~/domain/categories/admin-categories";
import { useActionSuccess, useActionToast, type ActionResult } from "~/app/lib/action-toast";
import { useConfirm } from "~/app/components/admin/confirm-dialog";
import { DisabledReason } from "~/app/components/admin/disabled-reason";
import { categoryFormProblem } from "~/domain/categories/category-form";
import { deleteNote } from "./reasons";

/** One category: name, slug, story count and order, or its edit form; a drag handle; delete, moving its stories. */
export function CategoryCard({
  category,
  others,
  editing,
  onEdit,
  onDone,
}: {
  category: AdminCategory;
  others: AdminCategory[];
  editing: boolean;
  onEdit: () => void;
  onDone: () => void;
}) {
  const { attributes, listeners, setNodeRef, transform, transition, isDragging } = useSortable({ id: category.id });
  const fetcher = useFetcher<ActionResult>();
  useActionToast(fetcher.data);
  const [name, setName] = useState(category.name);
  const [slug, setSlug] = useState(category.slug);
  const [moveTo, setMoveTo] = useState("");
  const confirm = useConfirm();
  const deleteForm = useRef<HTMLFormElement>(null);
  useActionSuccess(fetcher, onDone);
  const field = "min-w-0 flex-1 basis-40 rounded-lg border-2 border-ink bg-white px-3 py-1.5";
  const saveReason = categoryFormProblem({ name, slug });
  const deleteReason = deleteNote(category.storyCount, others.find((o) => String(o.id) === moveTo)?.name ?? null);
  return (
    <li
      ref={setNodeRef}
      style={{ transform: CSS.Transform.toString(transform), transition }}
      className={`flex flex-wrap items-center gap-3 rounded-2xl border-2 border-ink bg-white p-4 ${isDragging ? "z-10 shadow-[6px_6px_0_0_var(--color-ufo)]" : ""}`}
    >
      <button
        type="button"
        {...attributes}
        {...listeners}
        aria-label={`Reorder ${category.name}`}
        className="cursor-grab rounded-lg border-2 border-ink/30 px-2 py-1 font-black text-ink/60 active:cursor-grabbing"
      >
        ⠿
      </button>
      {editing ? (
        <fetcher.Form method="post" className="flex min-w-0 flex-1 flex-wrap items-center gap-2">
          <input type="hidden" name="intent" value="update" />
          <input type="hidden" name="id" value={category.id} />
          <label className="sr-only" htmlFor={`name-${category.id}`}>
            Category Name
          </label>
          <input id={`name-${category.id}`} name="name" value={name} onChange={(e) => setName(e.target.value)} className={field} />
          <label className="sr-only" htmlFor={`slug-${category.id}`}>
            URL Slug
          </label>
          <input id={`slug-${category.id}`} name="slug" value={slug} onChange={(e) => setSlug(e.target.value)} className={field} />
          <button
            type="submit"
            disabled={saveReason !== null || fetcher.state !== "idle"}
            aria-describedby={saveReason ? `save-reason-${category.id}` : undefined}
            className="rounded-full bg-ink px-3 py-1.5 font-bold text-acid disabled:opacity-50"
          >
            Save
          </button>
          <button type="button" onClick={onDone} className="rounded-full border-2 border-ink px-3 py-1.5 font-bold">
            Cancel
          </button>
          {saveReason ? (
            <DisabledReason id={`save-reason-${category.id}`} className="basis-full">
              {saveReason}
            </DisabledReason>
          ) : null}
        </fetcher.Form>
      ) : (
        <>
          <div className="min-w-[14rem] flex-1">
            <h2 className="font-display text-lg font-bold">{category.name}</h2>
            <p className="text-sm text-ink/70">
              Slug: /{category.slug} · {category.published} published {category.published === 1 ? "story" : "stories"}
              {category.pending > 0 ? `, ${category.pending} pending` : ""} · Order: {category.displayOrder}
            </p>
          </div>
          <div className="flex flex-col gap-1 sm:items-end">
            <div className="flex flex-wrap items-center gap-2">
              <button type="button" onClick={onEdit} className="rounded-full border-2 border-ink px-3 py-1.5 text-sm font-bold hover:bg-acid">
                Edit<span className="sr-only"> {category.name}</span>
              </button>
              <fetcher.Form
                ref={deleteForm}
                method="post"
                className="flex items-center gap-2"
                onSubmit={(event) => {
                  // Delete asks first; a yes sends the form.
                  event.preventDefault();
                  confirm.ask({
                    title: "Delete category",
                    message: (
                      <>
                        <p>{`Delete the category ${category.name}?`}</p>
                        {deleteReason ? <p className="mt-2 text-sm text-ink/70">{deleteReason}</p> : null}
                      </>
                    ),
                    confirmLabel: "Delete",
                    onConfirm: () => {
                      if (deleteForm.current) void fetcher.submit(deleteForm.current);
                    },
                  });
                }}
              >
                <input type="hidden" name="intent" value="delete" />
                <input type="hidden" name="id" value={category.id} />
                {category.storyCount > 0 ? (
                  <>
                    <label className="sr-only" htmlFor={`move-${category.id}`}>
                      Move the stories of {category.name} to
                    </label>
                    <select
                      id={`move-${category.id}`}
                      name="moveTo"
                      value={moveTo}
                      onChange={(e) => setMoveTo(e.target.value)}
                      className="rounded-full border-2 border-ink bg-white px-2 py-1 text-sm"
                    >
                      <option value="">Move stories to...</option>
                      {others.map((o) => (
                        <option key={o.id} value={o.id}>
                          {o.name}
                        </option>
                      ))}
                    </select>
                  </>
                ) : null}
                <button
                  type="submit"
                  disabled={category.storyCount > 0 && moveTo === ""}
                  aria-describedby={deleteReason ? `delete-reason-${category.id}` : undefined}
                  className="rounded-full border-2 border-alarm-ink px-3 py-1.5 text-sm font-bold text-alarm-ink hover:bg-alarm-ink hover:text-white disabled:opacity-40"
                >
                  Delete<span className="sr-only"> {category.name}</span>
                </button>
              </fetcher.Form>
            </div>
            {deleteReason ? <DisabledReason id={`delete-reason-${category.id}`}>{deleteReason}</DisabledReason> : null}
          </div>
          {confirm.dialog}
        </>
      )}
    </li>
  );
}
