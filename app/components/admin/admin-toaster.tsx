import { useSyncExternalStore } from "react";
import { Toaster } from "sonner";

// The sidebar layout's width (layout.tsx's lg breakpoint).
const WIDE = "(min-width: 1024px)";

function subscribe(onChange: () => void) {
  const query = window.matchMedia(WIDE);
  query.addEventListener("change", onChange);
  return () => query.removeEventListener("change", onChange);
}

/**
 * The back office's toasts, placed where no screen keeps its main button. Beside the sidebar, a
 * screen's main buttons sit at the top right (Add New Story, Trigger RSS Ingestion...), so toasts go
 * bottom right. In one column (phones, tablets) the top of the screen is the admin menu, while a
 * tool's button (Scrape, Validate Feed) is wherever the editor scrolled it, most often low on the
 * screen where the thumb is: toasts go on top. A long message scrolls inside its toast rather than
 * growing over the page.
 */
export function AdminToaster() {
  const wide = useSyncExternalStore(
    subscribe,
    () => window.matchMedia(WIDE).matches,
    () => true,
  );
  return (
    <Toaster
      position={wide ? "bottom-right" : "top-center"}
      richColors
      closeButton
      // A toast's action button goes under its text, which then keeps the toast's whole width (the
      // "!" outranks sonner's own stylesheet, which is outside Tailwind's layers).
      toastOptions={{
        classNames: { toast: "flex-wrap", content: "basis-[calc(100%-1.75rem)]!", actionButton: "ml-auto!", description: "max-h-32 overflow-y-auto overscroll-contain" },
      }}
    />
  );
}
