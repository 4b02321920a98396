import {
  closestCenter,
  DndContext,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
  type DragEndEvent,
  type KeyboardCoordinateGetter,
} from "@dnd-kit/core";
import { arrayMove, SortableContext, useSortable, verticalListSortingStrategy } from "@dnd-kit/sortable";
import { CSS } from "@dnd-kit/utilities";
import { useEffect, useState } from "react";
import { data, useFetcher, useNavigation } from "react-router";
import { toast } from "sonner";
import { z } from "zod";
import { addCategory, deleteCategory, listAdminCategories, reorderCategories, updateCategory, type AdminCategory } from "~/domain/categories/admin-categories";
import { categorySlug } from "~/domain/categories/category-slug";
import { DomainError } from "~/domain/errors";
import { requireAdmin } from "~/app/lib/admin.server";
import type { Route } from "./+types/categories";

export async function loader(args: Route.LoaderArgs) {
  await requireAdmin(args);
  return { categories: await listAdminCategories(args.context.repos) };
}

type Result = { ok: boolean; message: string };

const Id = z.coerce.number().int().positive();

export async function action(args: Route.ActionArgs) {
  const me = await requireAdmin(args);
  const form = Object.fromEntries(await args.request.formData()) as Record<string, string>;
  const actor = { actorUserId: me.id };
  const deps = args.context.repos;
  try {
    let message: string;
    switch (form.intent) {
      case "create":
        await addCategory(deps, { ...actor, name: form.name ?? "", slug: form.slug ?? "" });
        message = "Category added";
        break;
      case "update":
        await updateCategory(deps, { ...actor, id: Id.parse(form.id), name: form.name ?? "", slug: form.slug ?? "" });
        message = "Category saved";
        break;
      case "reorder":
        await reorderCategories(deps, { ...actor, ids: z.array(Id).parse(JSON.parse(form.ids ?? "[]")) });
        message = "Order saved";
        break;
      case "delete":
        await deleteCategory(deps, { ...actor, id: Id.parse(form.id), moveTo: form.moveTo ? Id.parse(form.moveTo) : null });
        message = "Category deleted";
        break;
      default:
        return data<Result>({ ok: false, message: "Unknown action" }, { status: 400 });
    }
    args.context.invalidatePublicPages();
    return { ok: true, message } satisfies Result;
  } catch (error) {
    if (error instanceof DomainError) return data<Result>({ ok: false, message: error.message }, { status: 400 });
    args.context.logger.error({ err: error, intent: form.intent }, "category action failed");
    return data<Result>({ ok: false, message: "Failed to save the category. Please try again." }, { status: 500 });
  }
}

// Spec section 9: a keyboard move is 25 px per arrow key.
const KEYBOARD_STEP = 25;
const keyboardCoordinates: KeyboardCoordinateGetter = (event, { currentCoordinates }) => {
  switch (event.code) {
    case "ArrowDown":
      return { ...currentCoordinates, y: currentCoordinates.y + KEYBOARD_STEP };
    case "ArrowUp":
      return { ...currentCoordinates, y: currentCoordinates.y - KEYBOARD_STEP };
    case "ArrowRight":
      return { ...currentCoordinates, x: currentCoordinates.x + KEYBOARD_STEP };
    case "ArrowLeft":
      return { ...currentCoordinates, x: currentCoordinates.x - KEYBOARD_STEP };
    default:
      return undefined;
  }
};

function useResultToast(result: Result | undefined) {
  useEffect(() => {
    if (!result) return;
    if (result.ok) toast.success(result.message);
    else toast.error("Error", { description: result.message });
  }, [result]);
}

function CategoryCard({
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
  const fetcher = useFetcher<Result>();
  useResultToast(fetcher.data);
  const [name, setName] = useState(category.name);
  const [slug, setSlug] = useState(category.slug);
  const [moveTo, setMoveTo] = useState("");
  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data?.ok) onDone();
  }, [fetcher.state, fetcher.data, onDone]);
  const field = "rounded-lg border-2 border-ink bg-white px-3 py-1.5";
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
        <fetcher.Form method="post" className="flex flex-1 flex-wrap items-center gap-2">
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
          <button type="submit" disabled={!name.trim() || !slug.trim() || fetcher.state !== "idle"} className="rounded-full bg-ink px-3 py-1.5 font-bold text-acid disabled:opacity-50">
            Save
          </button>
          <button type="button" onClick={onDone} className="rounded-full border-2 border-ink px-3 py-1.5 font-bold">
            Cancel
          </button>
        </fetcher.Form>
      ) : (
        <>
          <div className="min-w-[14rem] flex-1">
            <h2 className="font-display text-lg font-bold">{category.name}</h2>
            <p className="text-sm text-ink/70">
              Slug: /{category.slug} · {category.storyCount} {category.storyCount === 1 ? "story" : "stories"} · Order: {category.displayOrder}
            </p>
          </div>
          <button type="button" onClick={onEdit} className="rounded-full border-2 border-ink px-3 py-1.5 text-sm font-bold hover:bg-acid">
            Edit<span className="sr-only"> {category.name}</span>
          </button>
          <fetcher.Form
            method="post"
            className="flex items-center gap-2"
            onSubmit={(event) => {
              if (!window.confirm(`Delete the category ${category.name}?`)) event.preventDefault();
            }}
          >
            <input type="hidden" name="intent" value="delete" />
            <input type="hidden" name="id" value={category.id} />
            {category.storyCount > 0 ? (
              <>
                <label className="sr-only" htmlFor={`move-${category.id}`}>
                  Move the stories of {category.name} to
                </label>
                <select id={`move-${category.id}`} name="moveTo" value={moveTo} onChange={(e) => setMoveTo(e.target.value)} className="rounded-full border-2 border-ink bg-white px-2 py-1 text-sm">
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
              className="rounded-full border-2 border-alarm-ink px-3 py-1.5 text-sm font-bold text-alarm-ink hover:bg-alarm-ink hover:text-white disabled:opacity-40"
            >
              Delete<span className="sr-only"> {category.name}</span>
            </button>
          </fetcher.Form>
        </>
      )}
    </li>
  );
}

function AddCategory({ onDone }: { onDone: () => void }) {
  const fetcher = useFetcher<Result>();
  useResultToast(fetcher.data);
  const [name, setName] = useState("");
  const [slug, setSlug] = useState("");
  const [slugEdited, setSlugEdited] = useState(false);
  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data?.ok) onDone();
  }, [fetcher.state, fetcher.data, onDone]);
  const field = "w-full rounded-lg border-2 border-ink bg-white px-3 py-2";
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
            if (!slugEdited) setSlug(categorySlug(e.target.value));
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
      <button type="submit" disabled={!name.trim() || !slug.trim() || fetcher.state !== "idle"} className="rounded-full bg-ink px-4 py-2 font-bold text-acid disabled:opacity-50">
        Add Category
      </button>
    </fetcher.Form>
  );
}

export default function Categories({ loaderData }: Route.ComponentProps) {
  const [order, setOrder] = useState(loaderData.categories);
  const [editingId, setEditingId] = useState<number | null>(null);
  const [adding, setAdding] = useState(false);
  const reorder = useFetcher<Result>();
  const navigation = useNavigation();
  useResultToast(reorder.data);
  // The server's order wins whenever it changes (after a save, an add, a delete).
  const [shown, setShown] = useState(loaderData.categories);
  if (shown !== loaderData.categories) {
    setShown(loaderData.categories);
    setOrder(loaderData.categories);
  }

  const sensors = useSensors(
    useSensor(PointerSensor),
    useSensor(KeyboardSensor, {
      coordinateGetter: keyboardCoordinates,
      keyboardCodes: { start: ["Space", "Enter"], cancel: ["Escape"], end: ["Space", "Enter", "Tab"] },
    }),
  );

  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    const from = order.findIndex((c) => c.id === active.id);
    const to = order.findIndex((c) => c.id === over.id);
    const next = arrayMove(order, from, to).map((c, i) => ({ ...c, displayOrder: i + 1 }));
    setOrder(next);
    reorder.submit({ intent: "reorder", ids: JSON.stringify(next.map((c) => c.id)) }, { method: "post" });
  };

  const loading = navigation.state === "loading" && navigation.location.pathname === "/admin/categories";
  return (
    <>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h1 className="font-display text-4xl font-extrabold">Categories</h1>
          <p className="mt-1 text-ink/70">Manage your story categories and organization</p>
        </div>
        <button type="button" onClick={() => setAdding((a) => !a)} className="rounded-full bg-ink px-4 py-2 font-bold text-acid">
          Add Category
        </button>
      </div>
      <p role="note" className="mt-4 rounded-lg border-2 border-yellow-500 bg-yellow-100 px-3 py-2 text-sm font-semibold">
        Changing category slugs may affect existing URLs and story categorization.
      </p>
      {adding ? <AddCategory onDone={() => setAdding(false)} /> : null}
      {loading ? (
        <ul className="mt-6 space-y-3" aria-hidden="true">
          {[0, 1, 2].map((i) => (
            <li key={i} className="h-20 animate-pulse rounded-2xl border-2 border-ink/20 bg-white" />
          ))}
        </ul>
      ) : (
        <DndContext
          sensors={sensors}
          collisionDetection={closestCenter}
          onDragEnd={onDragEnd}
          autoScroll={{ threshold: { x: 0.2, y: 0.2 }, acceleration: 10, interval: 5 }}
        >
          <SortableContext items={order.map((c) => c.id)} strategy={verticalListSortingStrategy}>
            <ul className="mt-6 space-y-3">
              {order.map((category) => (
                <CategoryCard
                  key={category.id}
                  category={category}
                  others={order.filter((o) => o.id !== category.id)}
                  editing={editingId === category.id}
                  onEdit={() => setEditingId(category.id)}
                  onDone={() => setEditingId(null)}
                />
              ))}
            </ul>
          </SortableContext>
        </DndContext>
      )}
    </>
  );
}
