import { StoryImage } from "~/app/components/story-image";
import { formatDate, formatTime } from "~/app/lib/format";
import type { AdminStory, RejectedItem } from "~/domain/stories/admin-list";
import { StoryActions } from "./story-actions";
import type { CategoryOption } from "./types";

const HISTORY_LABELS: Record<string, string> = {
  "story.create": "created",
  "story.publish": "published",
  "story.unpublish": "unpublished",
  "story.reject": "rejected",
  "story.edit": "edited",
  "story.category": "category changed",
  "story.delete": "deleted",
};

function StatusBadge({ status }: { status: string }) {
  const colour = status === "published" ? "bg-green-200 text-green-900" : status === "pending" ? "bg-yellow-200 text-yellow-900" : "bg-gray-200 text-gray-800";
  return <span className={`rounded-full px-2 py-0.5 text-xs font-bold ${colour}`}>{status}</span>;
}

function History({ history }: { history: AdminStory["history"] }) {
  if (history.length === 0) return null;
  return (
    <details className="mt-2 text-xs text-ink/70">
      <summary className="cursor-pointer font-semibold">History ({history.length})</summary>
      <ul className="mt-1 space-y-0.5">
        {history.map((h, i) => (
          <li key={i}>
            {formatDate(h.at)} {formatTime(h.at)} · {HISTORY_LABELS[h.action] ?? h.action} by {h.by ?? "a removed user"}
          </li>
        ))}
      </ul>
    </details>
  );
}

/** The review list: each story's card with its selection box, details, actions and history; j / k focus the cards. */
export function StoryList({
  stories,
  categories,
  active,
  onActivate,
  selected,
  onSelect,
}: {
  stories: AdminStory[];
  categories: CategoryOption[];
  active: number;
  onActivate: (index: number) => void;
  selected: ReadonlySet<number>;
  onSelect: (id: number, checked: boolean) => void;
}) {
  return (
    <ul className="mt-4 space-y-3">
      {stories.map((story, index) => (
        <li
          key={story.id}
          id={`story-${story.id}`}
          tabIndex={-1}
          onFocus={() => onActivate(index)}
          className={`grid gap-4 rounded-2xl border-2 bg-white p-4 outline-none sm:grid-cols-[auto_8rem_1fr] ${index === active ? "border-ufo ring-4 ring-ufo/30" : "border-ink"}`}
        >
          <input
            type="checkbox"
            aria-label={`Select ${story.title}`}
            checked={selected.has(story.id)}
            onChange={(e) => onSelect(story.id, e.target.checked)}
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
            <History history={story.history} />
          </div>
        </li>
      ))}
    </ul>
  );
}

/** The Rejected Stories list: when, why and from where each was rejected. */
export function RejectedList({ rejected }: { rejected: RejectedItem[] }) {
  return (
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
  );
}
