// The public pages are drawn by the server and read without scripts; React and React Router (about
// 115 KB over the wire) only make them interactive. On a phone's slow line those bytes, fetched
// beside the page's largest picture and fonts, pushed its first paint back by about a second. So a
// public page asks for its scripts once it has loaded and painted: the server writes React Router's
// module script inert and without its modulepreload links (`deferScripts`, deferred-scripts.server.ts), and a small inline
// script (`LOAD_SCRIPTS`, in app/root.tsx) starts it after the window's load event, once the page's
// largest picture is decoded and drawn. It tells the page's web fonts that moment too
// (FIRST_SCREEN_DRAWN, app/lib/web-fonts.ts).

import { FIRST_SCREEN_DRAWN } from "./web-fonts";

/** The type the module script is written with: a browser neither fetches nor runs it. */
export const DEFERRED_SCRIPT_TYPE = "text/x-deferred-module";

/** The route every public page sits under. */
export const PUBLIC_LAYOUT_ROUTE = "routes/public-layout";

/** True when the matched routes are a public page's (their scripts are deferred). */
export function isPublicPage(routeIds: readonly string[]): boolean {
  return routeIds.includes(PUBLIC_LAYOUT_ROUTE);
}

/** The longest a page waits for its load event before it starts its scripts anyway (a picture that never comes). */
export const LOAD_WAIT_MS = 3_000;

/**
 * The inline script that starts the page's module script once the page has loaded (every picture of
 * the first screen is in), its largest picture is decoded and the frame after that is painted, or
 * after LOAD_WAIT_MS if that is later. It runs the held script as a module with the same nonce, so the
 * Content-Security-Policy lets it through.
 */
export const LOAD_SCRIPTS = `(() => {
  let started = false;
  const start = () => {
    const held = document.querySelector('script[type="${DEFERRED_SCRIPT_TYPE}"]');
    if (started) return;
    started = true;
    document.dispatchEvent(new Event("${FIRST_SCREEN_DRAWN}"));
    if (!held) return;
    const script = document.createElement("script");
    script.type = "module";
    script.nonce = held.nonce;
    script.textContent = held.textContent;
    document.body.append(script);
  };
  const afterPaint = () => (document.hidden ? start() : requestAnimationFrame(() => setTimeout(start, 0)));
  // The first screen's largest picture is decoded off the main thread, often after the load event:
  // the scripts wait for it, or its paint would wait for them.
  const afterPicture = () =>
    Promise.all([...document.querySelectorAll('img[fetchpriority="high"]')].map((img) => img.decode().catch(() => {}))).then(afterPaint);
  if (document.readyState === "complete") afterPicture();
  else addEventListener("load", afterPicture, { once: true });
  setTimeout(start, ${LOAD_WAIT_MS});
})();`;
