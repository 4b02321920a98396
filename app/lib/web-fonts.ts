// The public pages' web fonts (decision 026). Fetched beside the page, the two latin files (67 KB)
// shared a phone's slow line with the page's largest picture and held its paint back by about 0.3 s.
// So a public page draws its text first in system fonts scaled to the web fonts' metrics
// (app/fonts/fallbacks.css) and asks for the web fonts once its largest picture is drawn, when it
// starts its scripts (app/lib/deferred-scripts.ts): they swap in as they come. Once a browser has had
// them, the next pages declare them at once, as `optional`: from its cache they are there by the first
// paint, so those pages never swap. The back office's stylesheet declares them itself
// (app/font-faces.css).

/** One face of a web font, as the page's inline script declares it. */
export type WebFontFace = {
  family: string;
  url: string;
  /** The weight range the variable file covers, as CSS's font-weight descriptor. */
  weight: string;
  unicodeRange: string;
  /** Fetched at once when the page asks for the fonts; the others when the page draws one of their characters. */
  eager: boolean;
};

/** The unicode ranges of @fontsource's latin and latin-ext files (scripts/subset-fonts.mjs cuts the files to them; app/font-faces.css repeats them). */
export const LATIN =
  "U+0000-00FF, U+0131, U+0152-0153, U+02BB-02BC, U+02C6, U+02DA, U+02DC, U+0304, U+0308, U+0329, U+2000-206F, U+20AC, U+2122, U+2191, U+2193, U+2212, U+2215, U+FEFF, U+FFFD";
export const LATIN_EXT =
  "U+0100-02BA, U+02BD-02C5, U+02C7-02CC, U+02CE-02D7, U+02DD-02FF, U+0304, U+0308, U+0329, U+1D00-1DBF, U+1E00-1E9F, U+1EF2-1EFF, U+2020, U+20A0-20AB, U+20AD-20C0, U+2113, U+2C60-2C7F, U+A720-A7FF";

/** The event the page's deferred-scripts loader sends once the first screen is drawn: the fonts are asked for then. */
export const FIRST_SCREEN_DRAWN = "oddwire:first-screen-drawn";

/** Where a browser remembers that it has the current fonts (their addresses, which change with their content). */
export const FONTS_KEY = "oddwire-fonts";

/**
 * The inline script in a public page's <head>: it declares the faces at once as `optional` when
 * this browser has had these very files; otherwise, once the first screen is drawn, it fetches the
 * eager ones, declares them when those have come, one family a frame, and remembers them. Without FontFace (or
 * without scripts) the page keeps the fallback fonts.
 */
export function webFontsScript(faces: readonly WebFontFace[]): string {
  const data = JSON.stringify(faces).replace(/</g, "\\u003c");
  return `(() => {
  if (typeof FontFace !== "function" || !document.fonts) return;
  const faces = ${data};
  const version = faces.map((face) => face.url).join(" ");
  const make = (display) =>
    faces.map((face) => new FontFace(face.family, 'url("' + face.url + '") format("woff2")', { weight: face.weight, unicodeRange: face.unicodeRange, display }));
  const declare = (fonts) => fonts.forEach((font) => document.fonts.add(font));
  let known = false;
  try {
    known = localStorage.getItem("${FONTS_KEY}") === version;
  } catch {}
  if (known) {
    declare(make("optional"));
    return;
  }
  document.addEventListener(
    "${FIRST_SCREEN_DRAWN}",
    () => {
      // Loaded first, then declared one family a frame: each swap lays the page out again, and two
      // short layouts keep the main thread free where one long one would hold it.
      const fonts = make("swap");
      const eager = fonts.filter((_, i) => faces[i].eager);
      const families = [...new Set(faces.map((face) => face.family))];
      const declareFrom = (n) => {
        if (n >= families.length) return;
        declare(fonts.filter((_, i) => faces[i].family === families[n]));
        requestAnimationFrame(() => setTimeout(() => declareFrom(n + 1), 0));
      };
      Promise.allSettled(eager.map((font) => font.load())).then((results) => {
        declareFrom(0);
        if (results.every((result) => result.status === "fulfilled")) {
          try {
            localStorage.setItem("${FONTS_KEY}", version);
          } catch {}
        }
      });
    },
    { once: true },
  );
})();`;
}
