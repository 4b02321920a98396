import { useState, type ReactNode } from "react";
import { ChevronIcon } from "~/app/components/icons";
import { StoryImage } from "~/app/components/story-image";
import { formatDate, formatTime } from "~/app/lib/format";
import type { AdminStory, RejectedItem } from "~/domain/stories/admin-list";
import { SuggestionNote } from "./publish-dialog";
import { StoryActions } from "./story-actions";
import { SameStoryDetails, SameStoryNote, ScoreBadge, WhyScore } from "./triage-bar";
import type { CategoryOption } from "~/app/components/admin/category-options";

const HISTORY_LABELS: Record<string, string> = {
  "story.create": "created",
  "story.publish": "published",
  "story.unpublish": "unpublished",
  "story.reject": "rejected",
  "story.edit": "edited",
  "story.category": "category changed",
  "story.delete": "deleted",
};

// Spec section 4: published green, pending yellow, other grey.
export function StatusBadge({ status }: { status: string }) {
  const colour = status === "published" ? "bg-green-200 text-green-900" : status === "pending" ? "bg-yellow-200 text-yellow-900" : "bg-gray-200 text-gray-800";
  return <span className={`inline-block rounded-full px-2 py-0.5 text-xs font-bold ${colour}`}>{status}</span>;
}

function FeaturedBadge() {
  return <span className="shrink-0 rounded-full bg-ufo px-1.5 py-px text-[0.6875rem] leading-4 font-bold text-white">Featured</span>;
}

/**
 * What a row keeps folded: the whole title and summary, the suggested category, the dates, the link
 * out, why it scored so, its same-story group and who did what.
 */
function StoryDetails({ story, categories, id, onPublishGroup }: { story: AdminStory; categories: CategoryOption[]; id: string; onPublishGroup: (story: AdminStory) => void }) {
  const { sameStory } = story;
  return (
    <div id={id} className="col-span-full mt-1 mb-1 grid gap-1 rounded-lg bg-paper px-3 py-2 text-xs text-ink/80 lg:ml-[5.25rem]">
      {/* The row's heading says it already (truncated to the eye): shown whole here, not read twice. */}
      <p className="text-sm font-bold text-ink" aria-hidden="true">
        {story.title}
      </p>
      {story.summary ? <p className="text-sm">{story.summary}</p> : null}
      {story.status === "pending" ? <SuggestionNote story={story} categories={categories} /> : null}
      {story.triageScore !== null ? <WhyScore storyId={story.id} /> : null}
      {sameStory ? <SameStoryDetails story={{ ...story, sameStory }} onPublishGroup={onPublishGroup} /> : null}
      <p>
        Added {formatDate(story.createdAt)} {formatTime(story.createdAt)}
        {story.sourcePublishedAt ? ` · Reported by its source ${formatDate(story.sourcePublishedAt)} ${formatTime(story.sourcePublishedAt)}` : ""}
        {story.publishDate ? ` · Published ${formatDate(story.publishDate)} ${formatTime(story.publishDate)}` : ""}
        {story.sourceUrl ? (
          <>
            {" · "}
            <a href={story.sourceUrl} target="_blank" rel="noopener noreferrer" className="font-semibold text-ufo underline">
              Original<span className="sr-only"> of {story.title} (opens in a new tab)</span>
            </a>
          </>
        ) : null}
      </p>
      {story.history.length > 0 ? (
        <div>
          <p className="font-semibold">History ({story.history.length})</p>
          <ul className="space-y-0.5">
            {story.history.map((h, i) => (
              <li key={i}>
                {formatDate(h.at)} {formatTime(h.at)} · {HISTORY_LABELS[h.action] ?? h.action} by {h.by ?? "a command or a removed user"}
              </li>
            ))}
          </ul>
        </div>
      ) : (
        <p>No changes recorded yet.</p>
      )}
    </div>
  );
}

// The columns of a row from 1024 px: select, picture, title and summary, source and date, category, status, actions.
const ROW_GRID = "lg:grid-cols-[1rem_3.5rem_minmax(0,1fr)_9rem_7.5rem_5.25rem_15.5rem]";

/**
 * The review list, one dense row per story (the card's fields: picture, title, summary,
 * category, date, source, ID, status and Featured badges), with its selection box and actions;
 * the details fold out. j / k move the active row.
 */
export function StoryList({
  stories,
  categories,
  active,
  onActivate,
  selected,
  onSelect,
  onPublishUncategorized,
  onPublishGroup,
  toolbar,
}: {
  /** The bar above the rows (select all, bulk actions); it stays in view while the list scrolls. */
  toolbar: ReactNode;
  stories: AdminStory[];
  categories: CategoryOption[];
  active: number;
  onActivate: (index: number) => void;
  selected: ReadonlySet<number>;
  onSelect: (id: number, checked: boolean) => void;
  onPublishUncategorized: (story: AdminStory) => void;
  /** 'Publish this, reject the others' on a story that several sources report. */
  onPublishGroup: (story: AdminStory) => void;
}) {
  const [open, setOpen] = useState<ReadonlySet<number>>(new Set());
  const toggle = (id: number) =>
    setOpen((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  return (
    <div className="mt-3 rounded-xl border-2 border-ink bg-white">
      <div className="sticky top-0 z-10 rounded-t-[0.625rem] border-b-2 border-ink bg-paper-deep px-3 py-1">{toolbar}</div>
      <ul className="divide-y divide-ink/15 [&>li:last-child]:rounded-b-[0.625rem]">
        {stories.map((story, index) => (
          <li
            key={story.id}
            id={`story-${story.id}`}
            tabIndex={-1}
            onFocus={() => onActivate(index)}
            className={`grid grid-cols-[1rem_3.5rem_minmax(0,1fr)] items-center gap-x-2.5 gap-y-1 px-3 py-[3px] outline-none ${ROW_GRID} ${
              index === active ? "bg-acid/25 shadow-[inset_4px_0_0_0_var(--color-ufo)]" : selected.has(story.id) ? "bg-ufo/5" : ""
            }`}
          >
            <input
              type="checkbox"
              aria-label={`Select ${story.title}`}
              checked={selected.has(story.id)}
              onChange={(e) => onSelect(story.id, e.target.checked)}
              className="h-4 w-4"
            />
            <StoryImage src={story.imageUrl} alt="" thumbnail className="aspect-[16/9] w-14 rounded" />
            <div className="min-w-0">
              <div className="flex min-w-0 items-center gap-1.5">
                <h2 className="truncate text-sm leading-5 font-bold" title={story.title}>
                  {story.title}
                </h2>
                {story.isFeatured ? <FeaturedBadge /> : null}
                {story.triageScore !== null ? <ScoreBadge score={story.triageScore} /> : null}
                {story.sameStory ? <SameStoryNote sameStory={story.sameStory} /> : null}
              </div>
              <p className="truncate text-xs leading-4 text-ink/65">{story.summary || "No summary"}</p>
            </div>
            <div className="col-span-2 col-start-2 min-w-0 text-xs leading-4 text-ink/70 lg:col-span-1 lg:col-start-auto">
              <p className="truncate font-semibold text-ink/80">{story.sourceName ?? "No source"}</p>
              <p className="truncate tabular-nums">
                {/* The source's own date when it gave one: how old the news is, not when it reached us. */}
                {story.sourcePublishedAt ? (
                  <time dateTime={story.sourcePublishedAt} title={`Reported by its source ${formatDate(story.sourcePublishedAt)}; added ${formatDate(story.createdAt)}`}>
                    {formatDate(story.sourcePublishedAt)}
                  </time>
                ) : (
                  <time dateTime={story.createdAt} title={`Added ${formatDate(story.createdAt)}; its source gave no date`}>
                    Added {formatDate(story.createdAt)}
                  </time>
                )}{" "}
                · ID {story.id}
              </p>
            </div>
            <div className="col-span-full flex flex-wrap items-center gap-2 lg:contents">
              <StoryActions
                story={story}
                categories={categories}
                onPublishUncategorized={onPublishUncategorized}
                badge={<StatusBadge status={story.status} />}
                details={
                  <button
                    type="button"
                    aria-expanded={open.has(story.id)}
                    aria-controls={`story-details-${story.id}`}
                    onClick={() => toggle(story.id)}
                    title="Details"
                    className="flex h-7 w-7 shrink-0 items-center justify-center rounded-full text-ufo hover:bg-ufo/10"
                  >
                    <ChevronIcon className={`h-4 w-4 transition-transform ${open.has(story.id) ? "rotate-180" : ""}`} />
                    <span className="sr-only">Details of {story.title}</span>
                  </button>
                }
              />
            </div>
            {open.has(story.id) ? <StoryDetails story={story} categories={categories} id={`story-details-${story.id}`} onPublishGroup={onPublishGroup} /> : null}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The Rejected Stories list: when, why and from where each was rejected, one dense row each. */
export function RejectedList({ rejected }: { rejected: RejectedItem[] }) {
  return (
    <ul className="mt-3 divide-y divide-ink/15 overflow-hidden rounded-xl border-2 border-ink bg-white">
      {rejected.map((r) => (
        <li key={r.id} className="flex flex-wrap items-center gap-x-3 gap-y-0.5 px-3 py-2">
          <StatusBadge status="rejected" />
          <h2 className="min-w-0 flex-1 truncate text-sm font-bold" title={r.title}>
            {r.title}
          </h2>
          <p className="text-xs text-ink/70 tabular-nums">
            Rejected {formatDate(r.rejectedAt)} · {r.rejectionReason}
            {r.note ? ` (${r.note})` : ""}
            {r.sourceName ? ` · ${r.sourceName}` : ""} · ID {r.id}
          </p>
        </li>
      ))}
    </ul>
  );
}
