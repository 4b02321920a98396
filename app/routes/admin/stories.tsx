import { useCallback, useEffect, useState } from "react";
import { Link, useFetcher, useLocation, useNavigate, useRevalidator, useSearchParams } from "react-router";
import { ShortcutsDialog, useReviewShortcuts } from "~/app/components/admin/stories/shortcuts";
import { StoryDialog } from "~/app/components/admin/stories/story-dialog";
import { BulkPublishDialog, PublishDialog } from "~/app/components/admin/stories/publish-dialog";
import { RejectedList, StoryList } from "~/app/components/admin/stories/story-list";
import { BulkBar, StatusButtons, STORY_LIST, StoryToolbar } from "~/app/components/admin/stories/stories-toolbar";
import { Pagination } from "~/app/components/pagination";
import { z } from "zod";
import { useActionToast, type ActionResult } from "~/app/lib/action-toast";
import { adminAction, intent, type Failure } from "~/app/lib/admin-action.server";
import { requireAdmin } from "~/app/lib/admin.server";
import { idField, idListField, idPairsField, optionalIdField } from "~/app/lib/form-fields";
import { storyFormFields } from "~/domain/stories/story-form";
import { listAdminStories, type AdminStory } from "~/domain/stories/admin-list";
import { bulkOutcomeMessage, bulkPublishStories, bulkRejectStories, publishOneRejectCopies, sameStoryOutcomeMessage, type BulkOutcome } from "~/domain/stories/bulk-review";
import { startTriage, triageStatus } from "~/domain/triage/triage";
import { TriageBar, type TriageAnswer } from "~/app/components/admin/stories/triage-bar";
import { changeStoryCategory, createStory, deleteStory, editStory, publishStory, rejectStory, unpublishStory } from "~/domain/stories/editorial";
import { PageHeader } from "~/app/components/admin/page-header";
import { adminMeta } from "~/app/lib/meta";
import type { Route } from "./+types/stories";

export function meta(): Route.MetaDescriptors {
  return adminMeta("Stories");
}

export async function loader(args: Route.LoaderArgs) {
  await requireAdmin(args);
  const query = STORY_LIST.read(new URL(args.request.url).searchParams);
  const triage = query.status === "pending" ? await triageStatus({ models: args.context.repos.triage }) : null;
  const list = await listAdminStories(args.context.repos, query, { hasRanking: triage?.model != null });
  const running = triage ? await args.context.jobs.latestUnfinished("triage") : null;
  return { ...list, query, triage: triage ? { ...triage, runningJobId: running?.id ?? null } : null };
}

const StoryId = idField("That story is not known");
const StoryIds = idListField("That list of stories is not understood");
const CategoryId = optionalIdField("That category is not known");
const CategoryChoices = idPairsField("That choice of categories is not understood");
const FROM_SCRAPE_REFRESH_MS = 800;
const OneStory = z.object({ storyId: StoryId });

// Spec section 8's failure texts; a business-rule failure says its own words instead.
const failure = (fallback: string): Failure => ({ title: "Error", fallback });
const saveFailed = failure("Failed to save the story. Please try again.");

export async function action(args: Route.ActionArgs) {
  const deps = { editorial: args.context.repos.editorial, siteUrl: args.context.config.siteUrl, sitePictureExists: args.context.sitePictureExists };
  const done = (toast: ActionResult["toast"]): ActionResult => ({ ok: true, toast });
  // A bulk review is ok when it did something: nothing but skipped stories reads as the failure it is.
  const reviewed = (verb: "Published" | "Rejected", outcome: BulkOutcome): ActionResult => ({ ok: outcome.done > 0 || outcome.skipped.length === 0, toast: bulkOutcomeMessage(verb, outcome) });
  return adminAction(
    args,
    {
      publish: intent({
        schema: OneStory.extend({ categoryId: CategoryId }),
        changesSite: true,
        run: async ({ storyId, categoryId }, { me }) => {
          await publishStory(deps, { actorUserId: me.id, storyId, ...(categoryId !== null ? { categoryId } : {}) });
          return done({ title: "Story Published", description: "The story is live on the website." });
        },
      }),
      unpublish: intent({
        schema: OneStory,
        changesSite: true,
        run: async ({ storyId }, { me }) => {
          await unpublishStory(deps, { actorUserId: me.id, storyId });
          return done({ title: "Story Unpublished", description: "The story is back in Pending." });
        },
      }),
      reject: intent({
        schema: OneStory.extend({ duplicateOf: z.coerce.number().int().positive().optional() }),
        changesSite: true,
        failure: failure("Failed to reject the story. Please try again."),
        run: async ({ storyId, duplicateOf }, { me }) => {
          const result = await rejectStory(deps, { actorUserId: me.id, storyId, duplicateOf });
          return done({ title: "Story Rejected", description: result.message ?? "The story has been rejected and removed from the main list." });
        },
      }),
      "publish-group": intent({
        schema: OneStory.extend({ categoryId: CategoryId, duplicateIds: StoryIds }),
        changesSite: true,
        run: async ({ storyId, categoryId, duplicateIds }, { me }) => {
          const outcome = await publishOneRejectCopies(deps, { actorUserId: me.id, storyId, ...(categoryId !== null ? { categoryId } : {}), duplicateIds });
          return done(sameStoryOutcomeMessage(outcome));
        },
      }),
      retrain: intent({
        schema: z.object({}),
        failure: failure("The triage could not be started. Please try again."),
        run: async (_form, { me, context }) => ({ ok: true, ...(await startTriage({ jobs: context.jobs }, { actorUserId: me.id })) }) satisfies TriageAnswer,
      }),
      // The stories without a category come with the one the editor chose for each (the suggestion preselected).
      "bulk-publish": intent({
        schema: z.object({ ids: StoryIds, categories: CategoryChoices }).refine(
          ({ ids, categories }) => new Set(categories.map(([story]) => story)).size === categories.length && categories.every(([story]) => ids.includes(story)),
          { message: "Each category chosen must be for one of the stories chosen, once" },
        ),
        changesSite: true,
        run: async ({ ids, categories }, { me }) =>
          reviewed("Published", await bulkPublishStories(deps, { actorUserId: me.id, storyIds: ids, categoryOf: new Map(categories) })),
      }),
      "bulk-reject": intent({
        schema: z.object({ ids: StoryIds }),
        changesSite: true,
        run: async ({ ids }, { me }) => reviewed("Rejected", await bulkRejectStories(deps, { actorUserId: me.id, storyIds: ids })),
      }),
      category: intent({
        schema: OneStory.extend({ categoryId: CategoryId }),
        changesSite: true,
        run: async ({ storyId, categoryId }, { me }) => {
          await changeStoryCategory(deps, { actorUserId: me.id, storyId, categoryId });
          return done({ title: "Category Updated" });
        },
      }),
      delete: intent({
        schema: OneStory,
        changesSite: true,
        failure: failure("Failed to delete the story. Please try again."),
        run: async ({ storyId }, { me }) => {
          await deleteStory(deps, { actorUserId: me.id, storyId });
          return done({ title: "Story Deleted", description: "The story has been permanently deleted." });
        },
      }),
      create: intent({
        schema: storyFormFields,
        changesSite: true,
        failure: saveFailed,
        run: async (form, { me }) => {
          await createStory(deps, { actorUserId: me.id, form });
          return done({ title: "Story Created", description: "The story is published." });
        },
      }),
      edit: intent({
        schema: storyFormFields.extend({ storyId: StoryId }),
        changesSite: true,
        failure: saveFailed,
        run: async ({ storyId, ...form }, { me }) => {
          await editStory(deps, { actorUserId: me.id, storyId, form });
          return done({ title: "Story Updated", description: "Your changes have been saved." });
        },
      }),
    },
    failure("Something went wrong. Please try again."),
  );
}

export default function Stories({ loaderData }: Route.ComponentProps) {
  const { stories, page, pageCount, query, order, counts, didYouMean, categories, sources, rejected, triage } = loaderData;
  const filter = query.status;
  const [search, setSearch] = useSearchParams();
  const [adding, setAdding] = useState(false);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [active, setActive] = useState(-1);
  const [help, setHelp] = useState(false);
  const [publishing, setPublishing] = useState<{ story: AdminStory; group: boolean } | null>(null);
  // Publishing the selection when some of it has no category: the ids, asked for their categories first.
  const [publishingMany, setPublishingMany] = useState<number[] | null>(null);
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
    publishUncategorized: (story) => setPublishing({ story, group: false }),
    edit: setEdit,
    toggleSelected: (id) => select(id, !selected.has(id)),
  });
  const closeHelp = useCallback(() => setHelp(false), []);
  const closeAdd = useCallback(() => setAdding(false), []);
  const closePublish = useCallback(() => setPublishing(null), []);
  const closePublishMany = useCallback(() => setPublishingMany(null), []);
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
      <StoryToolbar query={query} order={order} categories={categories} sources={sources} />
      <div className="mt-3">
        <StatusButtons query={query} counts={counts} />
      </div>
      {triage ? <TriageBar triage={triage} order={order} /> : null}
      {(filter === "rejected" ? rejected.length : stories.length) === 0 ? (
        <div className="mt-6 rounded-2xl border-2 border-dashed border-ink/40 p-8 text-center">
          <p>No stories found matching your criteria.</p>
          {didYouMean ? (
            <p className="mt-2 text-lg">
              Did you mean{" "}
              <Link to={STORY_LIST.href(query, { search: didYouMean })} className="font-bold text-ufo underline">
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
          onPublishUncategorized={(story) => setPublishing({ story, group: false })}
          onPublishGroup={(story) => setPublishing({ story, group: true })}
          toolbar={
            <BulkBar
              allSelected={stories.every((s) => selected.has(s.id))}
              onSelectAll={(checked) => setSelected(checked ? new Set(stories.map((s) => s.id)) : new Set())}
              selectedCount={selected.size}
              busy={bulk.state !== "idle"}
              onReview={(intent) => {
                const ids = [...selected];
                if (intent === "bulk-publish" && stories.some((s) => selected.has(s.id) && s.status === "pending" && s.categoryId === null)) setPublishingMany(ids);
                else review(intent, ids);
              }}
            />
          }
        />
      )}
      <Pagination page={page} pageCount={pageCount} search={search} labels={{ previous: "← Previous", next: "Next →" }} />
      {help ? <ShortcutsDialog onClose={closeHelp} /> : null}
      {publishing ? <PublishDialog key={publishing.story.id} story={publishing.story} group={publishing.group} categories={categories} onClose={closePublish} /> : null}
      {publishingMany ? <BulkPublishDialog ids={publishingMany} stories={stories} categories={categories} onClose={closePublishMany} /> : null}
      {adding ? <StoryDialog story={null} categories={categories} onClose={closeAdd} /> : null}
      {editing ? <StoryDialog key={editing.id} story={editing} categories={categories} onClose={() => setEdit(null)} /> : null}
    </>
  );
}
