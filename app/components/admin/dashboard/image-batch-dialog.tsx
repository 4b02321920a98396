import { Dialog } from "~/app/components/admin/dialog";
import { batchConfirmation } from "./image-messages";

/** Asks before a batch starts (spec section 9): how many stories, the estimate, and the warning. Cancel comes first, so it has the focus. */
export function ImageBatchDialog({
  batchSize,
  needingWork,
  onCancel,
  onConfirm,
}: {
  batchSize: number;
  needingWork: number;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  const text = batchConfirmation(batchSize, needingWork);
  return (
    <Dialog title={text.title} width="sm" onClose={onCancel}>
      {text.lines.map((line) => (
        <p key={line} className="mt-2 first:mt-0">
          {line}
        </p>
      ))}
      <p className="mt-3 rounded-lg border-2 border-ink bg-acid/40 px-3 py-2 font-bold">{text.warning}</p>
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
