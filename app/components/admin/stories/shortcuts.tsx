import { useEffect } from "react";
import { Dialog } from "~/app/components/admin/dialog";
import type { AdminStory } from "~/domain/stories/admin-list";

const SHORTCUTS = [
  ["j", "next story"],
  ["k", "previous story"],
  ["p", "publish the story (pending; asks for a category when it has none)"],
  ["r", "reject the story (pending)"],
  ["e", "edit the story"],
  ["x", "select or unselect the story"],
  ["?", "show these shortcuts"],
] as const;

/** The list of the Stories page's keyboard shortcuts. */
export function ShortcutsDialog({ onClose }: { onClose: () => void }) {
  return (
    <Dialog title="Keyboard shortcuts" onClose={onClose} width="sm">
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
        {SHORTCUTS.map(([key, what]) => (
          <div key={key} className="contents">
            <dt>
              <kbd className="rounded border-2 border-ink bg-white px-2 font-mono font-bold">{key}</kbd>
            </dt>
            <dd>{what}</dd>
          </div>
        ))}
      </dl>
    </Dialog>
  );
}

// Keys typed into a field or a dialog are the editor's text, not commands.
function isTyping(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  return !!el && (el.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(el.tagName) || !!el.closest("dialog[open]"));
}

/** What the shortcuts do; the page owns the state they change. */
export type ShortcutHandlers = {
  stories: AdminStory[];
  active: number;
  setActive: (index: number) => void;
  toggleHelp: () => void;
  review: (intent: "bulk-publish" | "bulk-reject", ids: number[]) => void;
  /** p on a story without a category: publishing asks for one. */
  publishUncategorized: (story: AdminStory) => void;
  edit: (id: number) => void;
  toggleSelected: (id: number) => void;
};

/** j / k move between stories, p / r publish or reject the active pending one, e edits it, x selects it, ? shows the list. */
export function useReviewShortcuts(handlers: ShortcutHandlers) {
  useEffect(() => {
    const { stories, active, setActive, toggleHelp, review, publishUncategorized, edit, toggleSelected } = handlers;
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
      else if (event.key === "?") toggleHelp();
      else if (!current) return;
      else if (event.key === "p" && current.status === "pending") {
        if (current.categoryId === null) publishUncategorized(current);
        else review("bulk-publish", [current.id]);
      }
      else if (event.key === "r" && current.status === "pending") review("bulk-reject", [current.id]);
      else if (event.key === "e") edit(current.id);
      else if (event.key === "x") toggleSelected(current.id);
      else return;
      event.preventDefault();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  });
}
