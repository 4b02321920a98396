import { useState, type ReactNode } from "react";
import { Dialog } from "~/app/components/admin/dialog";

const button = "rounded-full border-2 px-4 py-2 font-bold";
const CONFIRM_CLASS = {
  // Deleting cannot be undone: the button is red.
  danger: `${button} border-alarm-ink bg-alarm-ink text-white hover:border-ink hover:bg-ink`,
  primary: `${button} border-ink bg-ink text-acid hover:bg-ufo-deep hover:text-white`,
} as const;

/**
 * The back office's one confirmation, on the one Dialog: a question, Cancel and the action. Cancel
 * comes first, so it has the focus and Enter or Escape never does the action by accident. Open while
 * mounted, as Dialog: the caller renders it to ask and drops it on either answer.
 */
export function ConfirmDialog({
  title,
  children,
  confirmLabel,
  tone = "danger",
  onCancel,
  onConfirm,
}: {
  title: string;
  /** The question, and anything the editor should know before answering it. */
  children: ReactNode;
  confirmLabel: string;
  tone?: keyof typeof CONFIRM_CLASS;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  return (
    <Dialog title={title} width="sm" onClose={onCancel}>
      {children}
      <div className="mt-6 flex justify-end gap-2">
        <button type="button" onClick={onCancel} className={`${button} border-ink bg-white hover:bg-acid`}>
          Cancel
        </button>
        <button type="button" onClick={onConfirm} className={CONFIRM_CLASS[tone]}>
          {confirmLabel}
        </button>
      </div>
    </Dialog>
  );
}

/** A question for useConfirm: what ConfirmDialog shows, and what a yes does. */
export type Question = { title: string; message: ReactNode; confirmLabel: string; tone?: keyof typeof CONFIRM_CLASS; onConfirm: () => void };

/**
 * Asking first, for a control that acts at once otherwise: `ask(question)` opens the confirmation,
 * and `dialog` is rendered where the control is. A yes closes it and acts; Cancel or Escape only closes it.
 */
export function useConfirm(): { ask: (question: Question) => void; dialog: ReactNode } {
  const [asking, setAsking] = useState<Question | null>(null);
  const dialog = asking ? (
    <ConfirmDialog
      title={asking.title}
      confirmLabel={asking.confirmLabel}
      tone={asking.tone}
      onCancel={() => setAsking(null)}
      onConfirm={() => {
        setAsking(null);
        asking.onConfirm();
      }}
    >
      {asking.message}
    </ConfirmDialog>
  ) : null;
  return { ask: setAsking, dialog };
}
