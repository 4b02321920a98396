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

/** The unicode ranges of @fontsource's latin and latin-ext files, written short (scripts/subset-fonts.mjs cuts the files to them and writes them, long, into app/font-faces.css). */
export const LATIN = "U+0-FF,U+131,U+152-153,U+2BB-2BC,U+2C6,U+2DA,U+2DC,U+304,U+308,U+329,U+2000-206F,U+20AC,U+2122,U+2191,U+2193,U+2212,U+2215,U+FEFF,U+FFFD";
export const LATIN_EXT =
  "U+100-2BA,U+2BD-2C5,U+2C7-2CC,U+2CE-2D7,U+2DD-2FF,U+304,U+308,U+329,U+1D00-1DBF,U+1E00-1E9F,U+1EF2-1EFF,U+2020,U+20A0-20AB,U+20AD-20C0,U+2113,U+2C60-2C7F,U+A720-A7FF";

/** The event the page's deferred-scripts loader sends once the first screen is drawn: the fonts are asked for then. */
export const FIRST_SCREEN_DRAWN = "oddwire:first-screen-drawn";

/** Where a browser remembers that it has the current fonts (their addresses, which change with their content). */
export const FONTS_KEY = "oddwire-fonts";

/**
 * The inline script in a public page's <head>: it declares the faces at once as `optional` when
 * this browser has had these very files; otherwise, once the first screen is drawn, it fetches the
 * eager ones, declares them when those have come, one family a frame, and remembers them. Without
 * FontFace (or without scripts) the page keeps the fallback fonts.
 */
export function webFontsScript(faces: readonly WebFontFace[]): string {
  // Written small: it is in every public page, within the first round trip's bytes on a slow line.
  // Each face as [family, url, weight, range index, eager]; the ranges once.
  const ranges = [...new Set(faces.map((face) => face.unicodeRange))];
  const data = JSON.stringify({ r: ranges, f: faces.map((face) => [face.family, face.url, face.weight, ranges.indexOf(face.unicodeRange), face.eager ? 1 : 0]) }).replace(/</g, "\\u003c");
  return `(()=>{if(typeof FontFace!="function"||!document.fonts)return;` +
    `const{r,f}=${data},v=f.map(x=>x[1]).join(" "),k="${FONTS_KEY}",` +
    `make=d=>f.map(x=>new FontFace(x[0],'url("'+x[1]+'") format("woff2")',{weight:x[2],unicodeRange:r[x[3]],display:d})),` +
    `add=a=>a.forEach(x=>document.fonts.add(x));` +
    `let known=false;try{known=localStorage.getItem(k)==v}catch{}` +
    `if(known)return add(make("optional"));` +
    // Loaded first, then declared one family a frame: each swap lays the page out again, and two
    // short layouts keep the main thread free where one long one would hold it.
    `document.addEventListener("${FIRST_SCREEN_DRAWN}",()=>{const a=make("swap"),fams=[...new Set(f.map(x=>x[0]))],` +
    `step=n=>{if(n<fams.length){add(a.filter((_,i)=>f[i][0]==fams[n]));requestAnimationFrame(()=>setTimeout(()=>step(n+1),0))}};` +
    `Promise.allSettled(a.filter((_,i)=>f[i][4]).map(x=>x.load())).then(s=>{step(0);` +
    `if(s.every(x=>x.status=="fulfilled"))try{localStorage.setItem(k,v)}catch{}})},{once:true})})();`;
}
