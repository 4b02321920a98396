import { Dialog } from "~/app/components/admin/dialog";

/** Asks before a batch starts: how many stories, and the one estimate. Cancel comes first, so it has the focus. */
export function ImageBatchDialog({
  text,
  onCancel,
  onConfirm,
}: {
  text: { title: string; lines: string[]; estimate: string };
  onCancel: () => void;
  onConfirm: () => void;
}) {
  return (
    <Dialog title={text.title} width="sm" onClose={onCancel}>
      {text.lines.map((line) => (
        <p key={line} className="mt-2 first:mt-0">
          {line}
        </p>
      ))}
      <p className="mt-3 rounded-lg border-2 border-ink bg-acid/40 px-3 py-2 font-bold">{text.estimate}</p>
      <p className="mt-3 text-sm text-ink/70">It runs in the background: you can leave the page, and cancel it from here.</p>
      <div className="mt-6 flex justify-end gap-2">
        <button type="button" onClick={onCancel} className="rounded-full border-2 border-ink bg-white px-4 py-2 font-bold hover:bg-acid">
          Cancel
        </button>
        <button type="button" onClick={onConfirm} className="rounded-full border-2 border-ink bg-ink px-4 py-2 font-bold text-acid hover:bg-ufo-deep hover:text-white">
          Start
        </button>
      </div>
    </Dialog>
  );
}
