import { isHttpUrl } from "~/lib/http-url";

// The class names the Sources page's tools share, in the back office's house style.
export const panelClass = "rounded-2xl border-2 border-ink bg-white p-5 shadow-[4px_4px_0_0_var(--color-ink)]";
export const inputClass = "w-full rounded-lg border-2 border-ink bg-white px-3 py-2 placeholder:text-ink/60";
export const primaryButtonClass =
  "inline-flex items-center justify-center gap-2 rounded-full bg-ink px-5 py-2 font-bold text-acid hover:bg-ufo-deep hover:text-white disabled:cursor-not-allowed disabled:opacity-60 disabled:hover:bg-ink disabled:hover:text-acid";
export const secondaryButtonClass = "inline-flex items-center gap-2 rounded-full border-2 border-ink px-3 py-1 text-sm font-bold hover:bg-acid disabled:opacity-50";
export const linkClass = "font-semibold text-ufo-deep underline decoration-2 underline-offset-2 hover:text-ink";

/** Only http(s) links from outside are ever rendered as links. */
export function safeHref(url: string | null | undefined): string | null {
  return isHttpUrl(url) ? url : null;
}
