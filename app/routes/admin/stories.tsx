import { useCallback, useEffect, useState } from "react";
import { data, Link, useFetcher, useLocation, useNavigate, useRevalidator, useSearchParams } from "react-router";
import { ShortcutsDialog, useReviewShortcuts } from "~/app/components/admin/stories/shortcuts";
import { StoryDialog } from "~/app/components/admin/stories/story-dialog";
import { PublishDialog } from "~/app/components/admin/stories/publish-dialog";
import { RejectedList, StoryList } from "~/app/components/admin/stories/story-list";
import { BulkBar, listHref, StatusButtons, StoryToolbar } from "~/app/components/admin/stories/stories-toolbar";
import { Pagination } from "~/app/components/pagination";
import { failedAction, useActionToast, type ActionResult } from "~/app/lib/action-toast";
import { requireAdmin } from "~/app/lib/admin.server";
import { errorAnswer } from "~/app/lib/error-response.server";
import { idField, idListField } from "~/app/lib/form-fields";
import { listAdminStories, parseAdminListQuery, type AdminStory } from "~/domain/stories/admin-list";
import { bulkOutcomeMessage, bulkPublishStories, bulkRejectStories } from "~/domain/stories/bulk-review";
import { changeStoryCategory, createStory, deleteStory, editStory, publishStory, rejectStory, unpublishStory } from "~/domain/stories/editorial";
import { PageHeader } from "~/app/components/admin/page-header";
import { adminMeta } from "~/app/lib/meta";
import type { Route } from "./+types/stories";

export function meta(): Route.MetaDescriptors {
  return adminMeta("Stories");
}

export async function loader(args: Route.LoaderArgs) {
  await requireAdmin(args);
  const params = new URL(args.request.url).searchParams;
  const query = parseAdminListQuery((name) => params.get(name));
  return { ...(await listAdminStories(args.context.repos, query)), query };
}

const StoryId = idField("That story is not known");
const StoryIds = idListField("That list of stories is not understood");
const CategoryId = idField("That category is not known");
const FROM_SCRAPE_REFRESH_MS = 800;

// Spec section 8's failure texts; a business-rule failure says its own words instead.
const FAILURES: Record<string, string> = {
  reject: "Failed to reject the story. Please try again.",
  delete: "Failed to delete the story. Please try again.",
  create: "Failed to save the story. Please try again.",
  edit: "Failed to save the story. Please try again.",
};

export async function action(args: Route.ActionArgs) {
  const me = await requireAdmin(args);
  const form = Object.fromEntries(await args.request.formData()) as Record<string, string>;
  const deps = { editorial: args.context.repos.editorial, siteUrl: args.context.config.siteUrl, sitePictureExists: args.context.sitePictureExists };
  const actor = { actorUserId: me.id };
  const storyId = () => StoryId.parse(form.storyId);
  const story = () => ({
    title: form.title ?? "",
    categoryId: form.categoryId ?? "",
    summary: form.summary ?? "",
    content: form.content ?? "",
    imageUrl: form.imageUrl ?? "",
    sourceUrl: form.sourceUrl ?? "",
    isFeatured: form.isFeatured === "on",
    slug: form.slug ?? "",
  });
  const done = (toast: ActionResult["toast"]): ActionResult => {
    args.context.invalidatePublicPages();
    return { ok: true, toast };
  };
  try {
    switch (form.intent) {
      case "publish":
        await publishStory(deps, { ...actor, storyId: storyId(), ...(form.categoryId ? { categoryId: CategoryId.parse(form.categoryId) } : {}) });
        return done({ title: "Story Published", description: "The story is live on the website." });
      case "unpublish":
        await unpublishStory(deps, { ...actor, storyId: storyId() });
        return done({ title: "Story Unpublished", description: "The story is back in Pending." });
      case "reject": {
        const result = await rejectStory(deps, { ...actor, storyId: storyId() });
        return done({ title: "Story Rejected", description: result.message ?? "The story has been rejected and removed from the main list." });
      }
      case "bulk-publish":
      case "bulk-reject": {
        const storyIds = StoryIds.parse(form.ids);
        const outcome = form.intent === "bulk-publish" ? await bulkPublishStories(deps, { ...actor, storyIds }) : await bulkRejectStories(deps, { ...actor, storyIds });
        return done(bulkOutcomeMessage(form.intent === "bulk-publish" ? "Published" : "Rejected", outcome));
      }
      case "category":
        await changeStoryCategory(deps, { ...actor, storyId: storyId(), categoryId: form.categoryId ? Number(form.categoryId) : null });
        return done({ title: "Category Updated" });
      case "delete":
        await deleteStory(deps, { ...actor, storyId: storyId() });
        return done({ title: "Story Deleted", description: "The story has been permanently deleted." });
      case "create":
        await createStory(deps, { ...actor, form: story() });
        return done({ title: "Story Created", description: "The story is published." });
      case "edit":
        await editStory(deps, { ...actor, storyId: storyId(), form: story() });
        return done({ title: "Story Updated", description: "Your changes have been saved." });
      default:
        return data(failedAction({ message: "Unknown action" }, "Error"), { status: 400 });
    }
  } catch (error) {
    const answer = errorAnswer(error, args.context.logger, FAILURES[form.intent ?? ""] ?? "Something went wrong. Please try again.", { intent: form.intent });
    return data(failedAction(answer, "Error"), { status: answer.status });
  }
}

export default function Stories({ loaderData }: Route.ComponentProps) {
  const { stories, page, pageCount, query, counts, didYouMean, categories, sources, rejected } = loaderData;
  const filter = query.status;
  const [search, setSearch] = useSearchParams();
  const [adding, setAdding] = useState(false);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [active, setActive] = useState(-1);
  const [help, setHelp] = useState(false);
  const [publishing, setPublishing] = useState<AdminStory | null>(null);
  const bulk = useFetcher<ActionResult>();
  useActionToast(bulk.data);
  const navigate = useNavigate();
  const location = useLocation();
  const revalidator = useRevalidator();

  // Spec: arriving 'from scrape' switches to Pending and refreshes the list after about 800 ms.
  useEffect(() => {
    if (!(location.state as { fromScrape?: boolean } | null)?.fromScrape) return;
    navigate("?status=pending", { replace: true, state: null });
    const timer = setTimeout(() => void revalidator.revalidate(), FROM_SCRAPE_REFRESH_MS);
    return () => clearTimeout(timer);
  }, [location.state, navigate, revalidator]);

  // Selection and the active card belong to one page of one filter.
  const [listKey, setListKey] = useState(stories);
  if (listKey !== stories) {
    setListKey(stories);
    setSelected(new Set([...selected].filter((id) => stories.some((s) => s.id === id))));
    setActive((a) => Math.min(a, stories.length - 1));
  }

  const select = (id: number, checked: boolean) =>
    setSelected((prev) => {
      const next = new Set(prev);
      if (checked) next.add(id);
      else next.delete(id);
      return next;
    });
  const review = (intent: "bulk-publish" | "bulk-reject", ids: number[]) => bulk.submit({ intent, ids: JSON.stringify(ids) }, { method: "post" });
  const setEdit = (id: number | null) =>
    setSearch(
      (prev) => {
        if (id === null) prev.delete("edit");
        else prev.set("edit", String(id));
        return prev;
      },
      { preventScrollReset: true },
    );
  useReviewShortcuts({
    stories,
    active,
    setActive,
    toggleHelp: () => setHelp((h) => !h),
    review,
    publishUncategorized: setPublishing,
    edit: setEdit,
    toggleSelected: (id) => select(id, !selected.has(id)),
  });
  const closeHelp = useCallback(() => setHelp(false), []);
  const closeAdd = useCallback(() => setAdding(false), []);
  const closePublish = useCallback(() => setPublishing(null), []);
  const editing = stories.find((s) => s.id === Number(search.get("edit"))) ?? null;

  return (
    <>
      <PageHeader
        title="Stories"
        actions={
          <>
            <button type="button" onClick={() => setHelp(true)} className="px-2 py-2 text-sm font-semibold text-ufo underline">
              Keyboard shortcuts (?)
            </button>
            <button type="button" onClick={() => setAdding(true)} className="rounded-full bg-ink px-4 py-2 font-bold text-acid">
              Add New Story
            </button>
          </>
        }
      />
      <StoryToolbar query={query} categories={categories} sources={sources} />
      <div className="mt-3">
        <StatusButtons query={query} counts={counts} />
      </div>
      {(filter === "rejected" ? rejected.length : stories.length) === 0 ? (
        <div className="mt-6 rounded-2xl border-2 border-dashed border-ink/40 p-8 text-center">
          <p>No stories found matching your criteria.</p>
          {didYouMean ? (
            <p className="mt-2 text-lg">
              Did you mean{" "}
              <Link to={listHref(query, { search: didYouMean })} className="font-bold text-ufo underline">
                {didYouMean}
              </Link>
              ?
            </p>
          ) : null}
        </div>
      ) : filter === "rejected" ? (
        <RejectedList rejected={rejected} />
      ) : (
        <StoryList
          stories={stories}
          categories={categories}
          active={active}
          onActivate={setActive}
          selected={selected}
          onSelect={select}
          onPublishUncategorized={setPublishing}
          toolbar={
            <BulkBar
              allSelected={stories.every((s) => selected.has(s.id))}
              onSelectAll={(checked) => setSelected(checked ? new Set(stories.map((s) => s.id)) : new Set())}
              selectedCount={selected.size}
              busy={bulk.state !== "idle"}
              onReview={(intent) => review(intent, [...selected])}
            />
          }
        />
      )}
      <Pagination page={page} pageCount={pageCount} search={search} labels={{ previous: "← Previous", next: "Next →" }} />
      {help ? <ShortcutsDialog onClose={closeHelp} /> : null}
      {publishing ? <PublishDialog key={publishing.id} story={publishing} categories={categories} onClose={closePublish} /> : null}
      {adding ? <StoryDialog story={null} categories={categories} onClose={closeAdd} /> : null}
      {editing ? <StoryDialog key={editing.id} story={editing} categories={categories} onClose={() => setEdit(null)} /> : null}
    </>
  );
}
