import { ConfirmDialog } from "~/app/components/admin/confirm-dialog";

/** Asks before a batch starts: how many stories, and the one estimate. */
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
    <ConfirmDialog title={text.title} confirmLabel="Start" tone="primary" onCancel={onCancel} onConfirm={onConfirm}>
      {text.lines.map((line) => (
        <p key={line} className="mt-2 first:mt-0">
          {line}
        </p>
      ))}
      <p className="mt-3 rounded-lg border-2 border-ink bg-acid/40 px-3 py-2 font-bold">{text.estimate}</p>
      <p className="mt-3 text-sm text-ink/70">It runs in the background: you can leave the page, and cancel it from here.</p>
    </ConfirmDialog>
  );
}
