import { closestCenter, DndContext, type DragEndEvent } from "@dnd-kit/core";
import { arrayMove, SortableContext, verticalListSortingStrategy } from "@dnd-kit/sortable";
import { useId, useMemo, useState } from "react";
import { useFetcher } from "react-router";
import { AddCategory } from "~/app/components/admin/categories/add-category";
import { CategoryCard } from "~/app/components/admin/categories/category-card";
import { CATEGORY_DRAG_INSTRUCTIONS, categoryAnnouncements, useCategorySensors } from "~/app/components/admin/categories/sortable";
import { z } from "zod";
import { useActionToast, type ActionResult } from "~/app/lib/action-toast";
import { adminAction, intent } from "~/app/lib/admin-action.server";
import { requireAdmin } from "~/app/lib/admin.server";
import { idField, idListField, optionalIdField } from "~/app/lib/form-fields";
import { categoryFormSchema } from "~/domain/categories/category-form";
import { addCategory, deleteCategory, listAdminCategories, reorderCategories, updateCategory } from "~/domain/categories/admin-categories";
import { PageHeader } from "~/app/components/admin/page-header";
import { adminMeta } from "~/app/lib/meta";
import { usePageLoading } from "~/app/lib/use-page-loading";
import type { Route } from "./+types/categories";

export function meta(): Route.MetaDescriptors {
  return adminMeta("Categories");
}

export async function loader(args: Route.LoaderArgs) {
  await requireAdmin(args);
  return { categories: await listAdminCategories(args.context.repos) };
}

const Id = idField("That category is not known");
const Ids = idListField("That order is not understood");

export async function action(args: Route.ActionArgs) {
  const saved = (title: string): ActionResult => ({ ok: true, toast: { title } });
  return adminAction(
    args,
    {
      create: intent({
        schema: categoryFormSchema,
        changesSite: true,
        run: async (input, { me, context }) => {
          await addCategory(context.repos, { actorUserId: me.id, ...input });
          return saved("Category added");
        },
      }),
      update: intent({
        schema: categoryFormSchema.extend({ id: Id }),
        changesSite: true,
        run: async (input, { me, context }) => {
          await updateCategory(context.repos, { actorUserId: me.id, ...input });
          return saved("Category saved");
        },
      }),
      reorder: intent({
        schema: z.object({ ids: Ids }),
        changesSite: true,
        run: async ({ ids }, { me, context }) => {
          await reorderCategories(context.repos, { actorUserId: me.id, ids });
          return saved("Order saved");
        },
      }),
      delete: intent({
        schema: z.object({ id: Id, moveTo: optionalIdField("That category is not known") }),
        changesSite: true,
        run: async ({ id, moveTo }, { me, context }) => {
          await deleteCategory(context.repos, { actorUserId: me.id, id, moveTo });
          return saved("Category deleted");
        },
      }),
    },
    { title: "Error", fallback: "Failed to save the category. Please try again." },
  );
}

export default function Categories({ loaderData }: Route.ComponentProps) {
  const [order, setOrder] = useState(loaderData.categories);
  const [editingId, setEditingId] = useState<number | null>(null);
  const [adding, setAdding] = useState(false);
  const reorder = useFetcher<ActionResult>();
  useActionToast(reorder.data);
  // The server's order wins whenever it changes (after a save, an add, a delete).
  const [shown, setShown] = useState(loaderData.categories);
  if (shown !== loaderData.categories) {
    setShown(loaderData.categories);
    setOrder(loaderData.categories);
  }

  const sensors = useCategorySensors();
  // dnd-kit names the handles' description with a module counter unless given an id, and the server's
  // count is not the browser's: React's id is the same in both.
  const dndId = useId();
  const accessibility = useMemo(() => ({ announcements: categoryAnnouncements(order), screenReaderInstructions: CATEGORY_DRAG_INSTRUCTIONS }), [order]);

  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    const from = order.findIndex((c) => c.id === active.id);
    const to = order.findIndex((c) => c.id === over.id);
    const next = arrayMove(order, from, to).map((c, i) => ({ ...c, displayOrder: i + 1 }));
    setOrder(next);
    reorder.submit({ intent: "reorder", ids: JSON.stringify(next.map((c) => c.id)) }, { method: "post" });
  };

  const loading = usePageLoading("/admin/categories") !== null;
  return (
    <>
      <PageHeader
        title="Categories"
        description="Manage your story categories and organization"
        actions={
          <button type="button" onClick={() => setAdding((a) => !a)} className="rounded-full bg-ink px-4 py-2 font-bold text-acid">
            Add Category
          </button>
        }
      />
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
          id={dndId}
          sensors={sensors}
          collisionDetection={closestCenter}
          onDragEnd={onDragEnd}
          accessibility={accessibility}
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
