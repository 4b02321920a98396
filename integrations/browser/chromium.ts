// How this project starts Debian's Chromium, for the page renderer and the browser journeys alike.
// No imports: the Playwright config loads this file as it is.

/** The Chromium binary when CHROMIUM_PATH is not set. */
export const DEFAULT_CHROMIUM_PATH = "/usr/bin/chromium";

/** Flags for a headless Chromium in a container: no sandbox, GPU, QUIC or background traffic. */
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
