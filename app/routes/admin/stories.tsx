import { useEffect, useRef, useState } from "react";
import { data, Form, Link, useFetcher, useLocation, useNavigate, useRevalidator, useSearchParams } from "react-router";
import { z } from "zod";
import { DomainError } from "~/domain/errors";
import { parsePage } from "~/domain/public/public-site";
import {
  changeStoryCategory,
  createStory,
  deleteStory,
  editStory,
  publishStory,
  rejectStory,
  unpublishStory,
} from "~/domain/stories/editorial";
import { REQUIRED_FIELDS_MESSAGE } from "~/domain/stories/messages";
import { listAdminStories, STATUS_FILTERS, type AdminStory, type StatusFilter } from "~/domain/stories/admin-list";
import { useActionToast, type ActionToast } from "~/app/lib/action-toast";
import { requireAdmin } from "~/app/lib/admin.server";
import { formatDate, formatTime } from "~/app/lib/format";
import { Pagination } from "~/app/components/pagination";
import { StoryImage } from "~/app/components/story-image";
import type { Route } from "./+types/stories";

export async function loader(args: Route.LoaderArgs) {
  await requireAdmin(args);
  const params = new URL(args.request.url).searchParams;
  const filter = (STATUS_FILTERS as readonly string[]).includes(params.get("status") ?? "") ? (params.get("status") as StatusFilter) : "all";
  const [list, categories] = await Promise.all([
    listAdminStories(args.context.repos, { status: filter, search: params.get("q") ?? "", page: parsePage(params.get("page")) }),
    args.context.repos.categories.listAll(),
  ]);
  return { ...list, filter, categories: categories.map(({ id, name }) => ({ id, name })) };
}

const StoryId = z.coerce.number().int().positive();
const FROM_SCRAPE_REFRESH_MS = 800;

type Toast = ActionToast;
type ActionResult = { ok: boolean; toast: Toast; fields?: Record<string, string> };

export async function action(args: Route.ActionArgs) {
  const me = await requireAdmin(args);
  const form = Object.fromEntries(await args.request.formData()) as Record<string, string>;
  const deps = { editorial: args.context.repos.editorial, siteUrl: args.context.config.siteUrl };
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
  const done = (toastMessage: Toast): ActionResult => {
    args.context.invalidatePublicPages();
    return { ok: true, toast: toastMessage };
  };
  try {
    switch (form.intent) {
      case "publish":
        await publishStory(deps, { ...actor, storyId: storyId() });
        return done({ title: "Story Published", description: "The story is live on the website." });
      case "unpublish":
        await unpublishStory(deps, { ...actor, storyId: storyId() });
        return done({ title: "Story Unpublished", description: "The story is back in Pending." });
      case "reject": {
        const result = await rejectStory(deps, { ...actor, storyId: storyId() });
        return done(
          result.alreadyRejected
            ? { title: "Story Rejected", description: result.message ?? undefined }
            : { title: "Story Rejected", description: "The story has been rejected and removed from the main list." },
        );
      }
      case "bulk-publish":
      case "bulk-reject": {
        const ids = z.array(StoryId).parse(JSON.parse(form.ids ?? "[]"));
        let done_ = 0;
        const skipped: string[] = [];
        for (const id of ids) {
          try {
            if (form.intent === "bulk-publish") await publishStory(deps, { ...actor, storyId: id });
            else await rejectStory(deps, { ...actor, storyId: id });
            done_++;
          } catch (error) {
            if (!(error instanceof DomainError)) throw error;
            skipped.push(`#${id}: ${error.message}`);
          }
        }
        const verb = form.intent === "bulk-publish" ? "Published" : "Rejected";
        return done({
          title: `${verb} ${done_} ${done_ === 1 ? "story" : "stories"}`,
          description: skipped.length ? `Skipped ${skipped.length}: ${skipped.join("; ")}` : undefined,
        });
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
        return data<ActionResult>({ ok: false, toast: { title: "Error", description: "Unknown action", tone: "error" } }, { status: 400 });
    }
  } catch (error) {
    const failures: Record<string, string> = {
      reject: "Failed to reject the story. Please try again.",
      delete: "Failed to delete the story. Please try again.",
      create: "Failed to save the story. Please try again.",
      edit: "Failed to save the story. Please try again.",
    };
    if (!(error instanceof DomainError)) args.context.logger.error({ err: error, intent: form.intent }, "story action failed");
    const description = error instanceof DomainError ? error.message : (failures[form.intent ?? ""] ?? "Something went wrong. Please try again.");
    return data<ActionResult>({ ok: false, toast: { title: "Error", description, tone: "error" }, fields: form }, { status: error instanceof DomainError ? 400 : 500 });
  }
}

const HISTORY_LABELS: Record<string, string> = {
  "story.create": "created",
  "story.publish": "published",
  "story.unpublish": "unpublished",
  "story.reject": "rejected",
  "story.edit": "edited",
  "story.category": "category changed",
  "story.delete": "deleted",
};

const FILTER_LABELS: Record<StatusFilter, string> = {
  all: "All Stories",
  published: "Published",
  pending: "Pending",
  rejected: "Rejected Stories",
};

function StatusBadge({ status }: { status: string }) {
  const colour = status === "published" ? "bg-green-200 text-green-900" : status === "pending" ? "bg-yellow-200 text-yellow-900" : "bg-gray-200 text-gray-800";
  return <span className={`rounded-full px-2 py-0.5 text-xs font-bold ${colour}`}>{status}</span>;
}


function StoryActions({ story, categories }: { story: AdminStory; categories: { id: number; name: string }[] }) {
  const fetcher = useFetcher<ActionResult>();
  useActionToast(fetcher.data);
  const busy = fetcher.state !== "idle";
  const button = "rounded-full border-2 border-ink px-3 py-1 text-sm font-bold hover:bg-acid disabled:opacity-50";
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

function StoryDialog({ story, categories, onClose }: { story: AdminStory | null; categories: { id: number; name: string }[]; onClose: () => void }) {
  const fetcher = useFetcher<ActionResult>();
  const ref = useRef<HTMLDialogElement>(null);
  const adding = story === null;
  useActionToast(fetcher.data);
  useEffect(() => {
    ref.current?.showModal();
  }, []);
  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data?.ok) onClose();
  }, [fetcher.state, fetcher.data, onClose]);
  const field = "w-full rounded-lg border-2 border-ink bg-white px-3 py-2";
  const kept = fetcher.data?.ok === false ? fetcher.data.fields : undefined;
  const value = (name: keyof AdminStory & string, fallback = "") => kept?.[name] ?? (story ? String(story[name] ?? "") : fallback);
  return (
    <dialog ref={ref} onClose={onClose} aria-labelledby="story-dialog-title" className="m-auto w-[min(95vw,40rem)] rounded-2xl border-4 border-ink bg-paper p-6 backdrop:bg-ink/60">
      <h2 id="story-dialog-title" className="font-display text-2xl font-extrabold">
        {adding ? "Add New Story" : "Edit Story"}
      </h2>
      <fetcher.Form
        method="post"
        className="mt-4 space-y-3"
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
          <input name="title" defaultValue={value("title")} className={field} />
        </label>
        <label className="block text-sm font-bold">
          Category
          <select name="categoryId" defaultValue={value("categoryId")} className={field}>
            <option value="">Select a category</option>
            {categories.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
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
          <input name="imageUrl" type="url" defaultValue={value("imageUrl")} className={field} />
        </label>
        <label className="block text-sm font-bold">
          Source URL
          <input name="sourceUrl" type="url" defaultValue={value("sourceUrl")} className={field} />
        </label>
        {adding ? (
          <label className="block text-sm font-bold">
            URL Slug
            <input name="slug" defaultValue={kept?.slug ?? ""} placeholder="generated from the title" className={field} />
          </label>
        ) : null}
        <label className="flex items-center gap-2 text-sm font-bold">
          <input type="checkbox" role="switch" name="isFeatured" defaultChecked={kept ? kept.isFeatured === "on" : (story?.isFeatured ?? false)} className="h-5 w-5" />
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
    </dialog>
  );
}

const SHORTCUTS = [
  ["j", "next story"],
  ["k", "previous story"],
  ["p", "publish the story (pending)"],
  ["r", "reject the story (pending)"],
  ["e", "edit the story"],
  ["x", "select or unselect the story"],
  ["?", "show these shortcuts"],
] as const;

function isTyping(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  return !!el && (el.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(el.tagName) || !!el.closest("dialog[open]"));
}

function ShortcutsDialog({ onClose }: { onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => ref.current?.showModal(), []);
  return (
    <dialog ref={ref} onClose={onClose} aria-labelledby="shortcuts-title" className="m-auto rounded-2xl border-4 border-ink bg-paper p-6 backdrop:bg-ink/60">
      <h2 id="shortcuts-title" className="font-display text-2xl font-extrabold">
        Keyboard shortcuts
      </h2>
      <dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
        {SHORTCUTS.map(([key, what]) => (
          <div key={key} className="contents">
            <dt>
              <kbd className="rounded border-2 border-ink bg-white px-2 font-mono font-bold">{key}</kbd>
            </dt>
            <dd>{what}</dd>
          </div>
        ))}
      </dl>
      <button type="button" onClick={onClose} className="mt-4 rounded-full bg-ink px-4 py-2 font-bold text-acid">
        Close
      </button>
    </dialog>
  );
}

export default function Stories({ loaderData }: Route.ComponentProps) {
  const { stories, total, page, pageCount, filter, categories, rejected } = loaderData;
  const [search, setSearch] = useSearchParams();
  const [adding, setAdding] = useState(false);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [active, setActive] = useState(-1);
  const [help, setHelp] = useState(false);
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

  const submitFor = (intent: string, ids: number[]) => bulk.submit({ intent, ids: JSON.stringify(ids) }, { method: "post" });

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.metaKey || event.ctrlKey || event.altKey || isTyping(event.target)) return;
      const current = stories[active];
      const move = (to: number) => {
        const next = Math.max(0, Math.min(stories.length - 1, to));
        setActive(next);
        document.getElementById(`story-${stories[next]?.id}`)?.focus();
      };
      if (event.key === "j") move(active + 1);
      else if (event.key === "k") move(active - 1);
      else if (event.key === "?") setHelp((h) => !h);
      else if (!current) return;
      else if (event.key === "p" && current.status === "pending") submitFor("bulk-publish", [current.id]);
      else if (event.key === "r" && current.status === "pending") submitFor("bulk-reject", [current.id]);
      else if (event.key === "e") setSearch((prev) => (prev.set("edit", String(current.id)), prev), { preventScrollReset: true });
      else if (event.key === "x")
        setSelected((prev) => {
          const next = new Set(prev);
          if (next.has(current.id)) next.delete(current.id);
          else next.add(current.id);
          return next;
        });
      else return;
      event.preventDefault();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  });
  const editId = Number(search.get("edit"));
  const editing = stories.find((s) => s.id === editId) ?? null;
  const closeEdit = () =>
    setSearch(
      (prev) => {
        prev.delete("edit");
        return prev;
      },
      { preventScrollReset: true },
    );
  return (
    <>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="font-display text-4xl font-extrabold">Stories</h1>
        <button type="button" onClick={() => setAdding(true)} className="rounded-full bg-ink px-4 py-2 font-bold text-acid">
          Add New Story
        </button>
      </div>
      <Form method="get" className="mt-4 flex flex-wrap gap-2" role="search">
        <input type="hidden" name="status" value={filter} />
        <label htmlFor="story-search" className="sr-only">
          Search stories
        </label>
        <input id="story-search" name="q" type="search" defaultValue={search.get("q") ?? ""} placeholder="Search stories..." className="min-w-0 flex-1 rounded-full border-2 border-ink bg-white px-4 py-2" />
        <button type="submit" className="rounded-full border-2 border-ink px-4 py-2 font-bold">
          Search
        </button>
      </Form>
      <nav aria-label="Filter stories" className="mt-4 flex flex-wrap gap-2">
        {(Object.keys(FILTER_LABELS) as StatusFilter[]).map((f) => (
          <Link
            key={f}
            to={`?status=${f}${search.get("q") ? `&q=${encodeURIComponent(search.get("q")!)}` : ""}`}
            aria-current={f === filter ? "page" : undefined}
            className={`rounded-full border-2 border-ink px-4 py-1.5 text-sm font-bold ${f === filter ? "bg-ink text-acid" : "bg-white hover:bg-acid"}`}
          >
            {FILTER_LABELS[f]}
          </Link>
        ))}
      </nav>
      <div className="mt-4 flex flex-wrap items-center gap-3 text-sm">
        <span className="text-ink/70">
          {total} {total === 1 ? "story" : "stories"}
        </span>
        {filter !== "rejected" && stories.length > 0 ? (
          <>
            <label className="flex items-center gap-2 font-semibold">
              <input
                type="checkbox"
                checked={stories.length > 0 && stories.every((s) => selected.has(s.id))}
                onChange={(e) => setSelected(e.target.checked ? new Set(stories.map((s) => s.id)) : new Set())}
                className="h-4 w-4"
              />
              Select all on this page
            </label>
            <button
              type="button"
              disabled={selected.size === 0 || bulk.state !== "idle"}
              onClick={() => submitFor("bulk-publish", [...selected])}
              className="rounded-full border-2 border-ink px-3 py-1 font-bold hover:bg-acid disabled:opacity-40"
            >
              Publish selected ({selected.size})
            </button>
            <button
              type="button"
              disabled={selected.size === 0 || bulk.state !== "idle"}
              onClick={() => submitFor("bulk-reject", [...selected])}
              className="rounded-full border-2 border-ink px-3 py-1 font-bold hover:bg-acid disabled:opacity-40"
            >
              Reject selected ({selected.size})
            </button>
          </>
        ) : null}
        <button type="button" onClick={() => setHelp(true)} className="ml-auto font-semibold text-ufo underline">
          Keyboard shortcuts (?)
        </button>
      </div>
      {(filter === "rejected" ? rejected.length : stories.length) === 0 ? (
        <p className="mt-8 rounded-2xl border-2 border-dashed border-ink/40 p-8 text-center">No stories found matching your criteria.</p>
      ) : filter === "rejected" ? (
        <ul className="mt-4 space-y-3">
          {rejected.map((r) => (
            <li key={r.id} className="rounded-2xl border-2 border-ink bg-white p-4">
              <div className="flex flex-wrap items-center gap-2">
                <StatusBadge status="rejected" />
                <h2 className="font-display text-lg font-bold">{r.title}</h2>
              </div>
              <p className="mt-1 text-sm text-ink/70">
                Rejected {formatDate(r.rejectedAt)} · {r.rejectionReason}
                {r.sourceName ? ` · ${r.sourceName}` : ""} · ID {r.id}
              </p>
            </li>
          ))}
        </ul>
      ) : (
        <ul className="mt-4 space-y-3">
          {stories.map((story, index) => (
            <li
              key={story.id}
              id={`story-${story.id}`}
              tabIndex={-1}
              onFocus={() => setActive(index)}
              className={`grid gap-4 rounded-2xl border-2 bg-white p-4 outline-none sm:grid-cols-[auto_8rem_1fr] ${index === active ? "border-ufo ring-4 ring-ufo/30" : "border-ink"}`}
            >
              <input
                type="checkbox"
                aria-label={`Select ${story.title}`}
                checked={selected.has(story.id)}
                onChange={(e) =>
                  setSelected((prev) => {
                    const next = new Set(prev);
                    if (e.target.checked) next.add(story.id);
                    else next.delete(story.id);
                    return next;
                  })
                }
                className="mt-1 h-4 w-4"
              />
              <StoryImage src={story.imageUrl} alt={story.title} className="aspect-[4/3] w-full rounded-lg" />
              <div>
                <div className="flex flex-wrap items-center gap-2">
                  <StatusBadge status={story.status} />
                  {story.isFeatured ? <span className="rounded-full bg-ufo px-2 py-0.5 text-xs font-bold text-white">Featured</span> : null}
                  <h2 className="font-display text-lg font-bold">{story.title}</h2>
                </div>
                {story.summary ? <p className="mt-1 line-clamp-2 text-sm text-ink/75">{story.summary}</p> : null}
                <p className="mt-1 text-xs text-ink/60">
                  {story.category} · {formatDate(story.publishDate ?? story.createdAt)} · {story.sourceName ?? "No source"} · ID {story.id}
                </p>
                <div className="mt-3">
                  <StoryActions story={story} categories={categories} />
                </div>
                {story.history.length > 0 ? (
                  <details className="mt-2 text-xs text-ink/70">
                    <summary className="cursor-pointer font-semibold">History ({story.history.length})</summary>
                    <ul className="mt-1 space-y-0.5">
                      {story.history.map((h, i) => (
                        <li key={i}>
                          {formatDate(h.at)} {formatTime(h.at)} · {HISTORY_LABELS[h.action] ?? h.action} by {h.by ?? "a removed user"}
                        </li>
                      ))}
                    </ul>
                  </details>
                ) : null}
              </div>
            </li>
          ))}
        </ul>
      )}
      <Pagination page={page} pageCount={pageCount} search={search} />
      {help ? <ShortcutsDialog onClose={() => setHelp(false)} /> : null}
      {adding ? <StoryDialog story={null} categories={categories} onClose={() => setAdding(false)} /> : null}
      {editing ? <StoryDialog story={editing} categories={categories} onClose={closeEdit} /> : null}
    </>
  );
}
