import { useEffect, useId, useRef, type ReactNode } from "react";
import { CloseIcon } from "~/app/components/icons";

const FOCUSABLE = 'input:not([type="hidden"]):not([disabled]), select:not([disabled]), textarea:not([disabled]), button:not([disabled]), a[href], [tabindex]:not([tabindex="-1"])';

const WIDTHS = { sm: "w-[min(95vw,28rem)]", md: "w-[min(95vw,40rem)]", lg: "w-[min(95vw,48rem)]" } as const;

/**
 * The back office's one modal dialog, on the native <dialog>: it traps focus (the browser's doing)
 * and closes on Escape, is named by its title, has a close button, and gives focus back to
 * what opened it. It is open while mounted: the caller renders it to open it and drops it on close.
 */
export function Dialog({
  title,
  onClose,
  width = "md",
  children,
}: {
  title: ReactNode;
  onClose: () => void;
  width?: keyof typeof WIDTHS;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const body = useRef<HTMLDivElement>(null);
  const titleId = useId();
  // Read at close time, so a caller's new onClose on every render never reopens the dialog.
  const close = useRef(onClose);
  useEffect(() => {
    close.current = onClose;
  });

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!dialog.open) dialog.showModal();
    // The first field, not the close button, takes focus: the editor opened the dialog to fill it in.
    body.current?.querySelector<HTMLElement>(FOCUSABLE)?.focus();
    // Unmounting removes the dialog from the top layer without a 'close' event, so onClose is not called twice.
    return () => {
      if (opener?.isConnected) opener.focus();
    };
  }, []);

  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      // Escape is answered in its own keydown: the caller drops the dialog before the next key is read.
      // Left to the browser, Escape closes the element at once but its 'close' event comes in a later
      // task, and a busy page can take the next key first: an Enter on the opener then finds the dialog
      // still mounted (closed) and does not open it again. Other closings still go through 'close'.
      onKeyDown={(event) => {
        if (event.key !== "Escape" || event.defaultPrevented) return;
        event.preventDefault();
        close.current();
      }}
      onClose={() => close.current()}
      className={`m-auto max-h-[92vh] ${WIDTHS[width]} overflow-y-auto rounded-2xl border-4 border-ink bg-paper p-0 text-ink backdrop:bg-ink/60`}
    >
      <div className="sticky top-0 z-10 flex items-center justify-between gap-4 border-b-2 border-ink bg-paper px-6 py-4">
        <h2 id={titleId} className="font-display text-2xl font-extrabold">
          {title}
        </h2>
        <button type="button" onClick={() => close.current()} aria-label="Close" className="rounded-full p-1.5 hover:bg-ink hover:text-paper">
          <CloseIcon className="h-5 w-5" />
        </button>
      </div>
      <div ref={body} className="px-6 py-5">
        {children}
      </div>
    </dialog>
  );
}
