// Makes the web fonts the public pages load (app/fonts/*.woff2) from the @fontsource variable files:
// `node scripts/subset-fonts.mjs`, again whenever the weights the pages use change.
//
// Each file keeps its script's characters (the same unicode-range as @fontsource's latin and
// latin-ext files, which app/theme.css declares) but only the weights the site draws (Inter from 400
// to 900, Bricolage Grotesque from 700 to 800) and the font's default typographic features (kerning,
// ligatures, contextual forms; not its stylistic sets). Inter's latin file goes from 48 KB to 30 KB,
// Bricolage Grotesque's from 41 KB to 32 KB (docs/benchmarks.md, "Phone pages in Lighthouse").
//
// It also writes app/font-faces.css, the back office's @font-face rules for these files, and
// app/fonts/fallbacks.css: the faces text is drawn in until the web fonts are there
// (decision 026), system fonts scaled with Capsize's metrics so that a line of them takes about the
// room the web font's does (size-adjust on the average character width, ascent and descent overridden).
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createFontStack } from "@capsizecss/core";
import arial from "@capsizecss/metrics/arial";
import arialBold from "@capsizecss/metrics/arial/700";
import bricolage800 from "@capsizecss/metrics/bricolageGrotesque/800";
import inter from "@capsizecss/metrics/inter";
import inter700 from "@capsizecss/metrics/inter/700";
import roboto from "@capsizecss/metrics/roboto";
import roboto700 from "@capsizecss/metrics/roboto/700";
import subsetFont from "subset-font";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const out = path.join(root, "app", "fonts");

/** @fontsource's unicode ranges for its latin and latin-ext files (app/theme.css repeats them). */
const RANGES = {
  latin:
    "U+0000-00FF, U+0131, U+0152-0153, U+02BB-02BC, U+02C6, U+02DA, U+02DC, U+0304, U+0308, U+0329, U+2000-206F, U+20AC, U+2122, U+2191, U+2193, U+2212, U+2215, U+FEFF, U+FFFD",
  "latin-ext":
    "U+0100-02BA, U+02BD-02C5, U+02C7-02CC, U+02CE-02D7, U+02DD-02FF, U+0304, U+0308, U+0329, U+1D00-1DBF, U+1E00-1E9F, U+1EF2-1EFF, U+2020, U+20A0-20AB, U+20AD-20C0, U+2113, U+2C60-2C7F, U+A720-A7FF",
};

const FONTS = [
  { name: "inter", family: "Inter Variable", source: "@fontsource-variable/inter/files/inter", weight: { min: 400, max: 900 } },
  { name: "bricolage-grotesque", family: "Bricolage Grotesque Variable", source: "@fontsource-variable/bricolage-grotesque/files/bricolage-grotesque", weight: { min: 700, max: 800 } },
];

/** Every character of a CSS unicode-range. */
function characters(range) {
  let text = "";
  for (const part of range.split(",")) {
    const [from, to = from] = part.trim().replace(/^U\+/i, "").split("-");
    for (let code = parseInt(from, 16); code <= parseInt(to, 16); code++) text += String.fromCodePoint(code);
  }
  return text;
}

mkdirSync(out, { recursive: true });
const faces = [
  `/*
 * Made by scripts/subset-fonts.mjs. The back office's web fonts: app.css imports this file (the public
 * pages declare the same faces from their inline script, app/lib/web-fonts.ts, decision 026), cut to
 * the weights the site draws. \`optional\`: a font that is not there by the first paint is not swapped
 * in later (decision 014); root.tsx preloads the latin files on these pages, so they are there in time,
 * and once cached every page has them from its first paint.
 */`,
];
for (const font of FONTS) {
  for (const [script, range] of Object.entries(RANGES)) {
    const source = readFileSync(path.join(root, "node_modules", `${font.source}-${script}-wght-normal.woff2`));
    const subset = await subsetFont(source, characters(range), { targetFormat: "woff2", variationAxes: { wght: font.weight } });
    const file = path.join(out, `${font.name}-${script}.woff2`);
    writeFileSync(file, subset);
    faces.push(
      `@font-face {\n  font-family: "${font.family}";\n  font-style: normal;\n  font-display: optional;\n  font-weight: ${font.weight.min} ${font.weight.max};\n` +
        `  src: url("./fonts/${font.name}-${script}.woff2") format("woff2-variations");\n  unicode-range: ${range};\n}`,
    );
    console.log(`${path.relative(root, file)}: ${source.length} -> ${subset.length} bytes`);
  }
}

/**
 * The system fonts a fallback face draws with: Arial and the fonts made to its metrics (Liberation
 * Sans on Linux), and Roboto (Android). Each is its own family, so a face whose fonts are missing
 * gives way to the next family in the stack (app/theme.css).
 */
const SYSTEM = {
  arial: { regular: ["Arial", "Liberation Sans"], bold: ["Arial Bold", "Liberation Sans Bold"], metrics: { regular: arial, bold: arialBold } },
  roboto: { regular: ["Roboto"], bold: ["Roboto Bold"], metrics: { regular: roboto, bold: roboto700 } },
};

/** The fallback faces: for each web font and system font, one face per weight range drawn. */
const FALLBACKS = [
  { family: "Inter", faces: [{ weight: "400 500", metrics: inter, system: "regular" }, { weight: "600 900", metrics: inter700, system: "bold" }] },
  { family: "Bricolage Grotesque", faces: [{ weight: "700 800", metrics: bricolage800, system: "bold" }] },
];

writeFileSync(path.join(root, "app", "font-faces.css"), `${faces.join("\n")}\n`);
console.log("app/font-faces.css: the back office's faces");

const css = [
  "/* Made by scripts/subset-fonts.mjs: system fonts scaled to the web fonts' metrics (decision 026). */",
];
for (const { family, faces } of FALLBACKS) {
  for (const [name, system] of Object.entries(SYSTEM)) {
    for (const face of faces) {
      const { fontFaces } = createFontStack([face.metrics, system.metrics[face.system]], { fontFaceFormat: "styleObject" });
      // Two decimals of a percent are finer than a pixel at any size the pages draw.
      const overrides = Object.fromEntries(Object.entries(fontFaces[0]["@font-face"]).map(([key, value]) => [key, typeof value === "string" && value.endsWith("%") ? `${Number.parseFloat(value).toFixed(2)}%` : value]));
      const src = system[face.system].map((font) => `local("${font}")`).join(", ");
      css.push(
        `@font-face {\n  font-family: "${family} Fallback ${name === "arial" ? "Arial" : "Roboto"}";\n  font-weight: ${face.weight};\n  src: ${src};\n` +
          `  ascent-override: ${overrides.ascentOverride};\n  descent-override: ${overrides.descentOverride};\n  line-gap-override: ${overrides.lineGapOverride ?? "0.00%"};\n  size-adjust: ${overrides.sizeAdjust};\n}`,
      );
    }
  }
}
writeFileSync(path.join(out, "fallbacks.css"), `${css.join("\n")}\n`);
console.log("app/fonts/fallbacks.css: the fallback faces");
