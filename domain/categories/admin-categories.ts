import type { CategoriesRepo } from "~/db/repos/categories.repo";
import { DomainError, fieldMessages } from "~/domain/errors";
import { categoryFormSchema, CATEGORY_FIELDS_MESSAGE } from "./category-form";

// The Categories page: add, edit, reorder, and (beyond the spec) delete.

/**
 * A category as the Categories page shows it. `published` is the category's story count wherever
 * the site shows one (its page, its home card, the Stories filter); `pending` sits beside it here;
 * `storyCount` counts every status, which a delete must move.
 */
export type AdminCategory = { id: number; name: string; slug: string; displayOrder: number; published: number; pending: number; storyCount: number };
type Deps = { categories: CategoriesRepo };
type Actor = { actorUserId: string };

/** Every category with its story counts, in display order. */
export async function listAdminCategories(deps: Deps): Promise<AdminCategory[]> {
  return (await deps.categories.listWithCounts()).map(({ id, name, slug, displayOrder, storyCount, publishedCount, pendingCount }) => ({
    id,
    name,
    slug,
    displayOrder,
    published: publishedCount,
    pending: pendingCount,
    storyCount,
  }));
}

function clean(input: { name: string; slug: string }) {
  const parsed = categoryFormSchema.safeParse(input);
  if (!parsed.success) {
    throw new DomainError("INVALID_CATEGORY", CATEGORY_FIELDS_MESSAGE, { fields: fieldMessages(parsed.error.issues) });
  }
  return parsed.data;
}

async function assertSlugFree(deps: Deps, slug: string, exceptId?: number) {
  const other = await deps.categories.findBySlug(slug);
  if (other && other.id !== exceptId) throw new DomainError("SLUG_TAKEN", `The slug "${slug}" is already used by ${other.name}`);
}

/** Adds a category after the last one. */
export async function addCategory(deps: Deps, input: Actor & { name: string; slug: string }) {
  const fields = clean(input);
  await assertSlugFree(deps, fields.slug);
  return deps.categories.insertLast(fields, { actorUserId: input.actorUserId, action: "category.create" });
}

/** Renames a category or changes its slug (which changes its public URL). */
export async function updateCategory(deps: Deps, input: Actor & { id: number; name: string; slug: string }) {
  const fields = clean(input);
  const existing = await deps.categories.findById(input.id);
  if (!existing) throw new DomainError("CATEGORY_NOT_FOUND", "That category no longer exists");
  await assertSlugFree(deps, fields.slug, input.id);
  return deps.categories.update(input.id, fields, {
    actorUserId: input.actorUserId,
    action: "category.update",
    details: { from: { name: existing.name, slug: existing.slug }, to: fields },
  });
}

/** Puts the categories in this order: display_order becomes 1..n. The list must name every category once. */
export async function reorderCategories(deps: Deps, input: Actor & { ids: number[] }) {
  const current = await deps.categories.listAll();
  const known = new Set(current.map((c) => c.id));
  if (input.ids.length !== known.size || new Set(input.ids).size !== input.ids.length || !input.ids.every((id) => known.has(id))) {
    throw new DomainError("STALE_ORDER", "The categories changed meanwhile: reload the page and try again");
  }
  await deps.categories.reorder(input.ids, input.actorUserId);
}

/** Deletes a category without stories, or after moving its stories to another category. */
export async function deleteCategory(deps: Deps, input: Actor & { id: number; moveTo: number | null }) {
  const category = await deps.categories.findById(input.id);
  if (!category) throw new DomainError("CATEGORY_NOT_FOUND", "That category no longer exists");
  const count = await deps.categories.countStories(input.id);
  if (count > 0 && input.moveTo === null) {
    throw new DomainError("CATEGORY_HAS_STORIES", `${category.name} has ${count} ${count === 1 ? "story" : "stories"}: choose a category to move them to`);
  }
  if (input.moveTo !== null && (input.moveTo === input.id || !(await deps.categories.findById(input.moveTo)))) {
    throw new DomainError("INVALID_CATEGORY", "Choose another existing category to move the stories to");
  }
  await deps.categories.deleteMovingStories(input.id, count > 0 ? input.moveTo : null, {
    actorUserId: input.actorUserId,
    action: "category.delete",
    details: { name: category.name, slug: category.slug, movedStories: count, moveTo: input.moveTo },
  });
}
