import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { LRUCache } from "lru-cache";
import type { Font } from "satori";
import { SHARE_CARD_SIZE, type ShareCardText } from "~/lib/story-image";

// The share card of a story without a picture: its title and category on the site's colours, with
// the logo and the site's name, 1200x630. satori lays the card out (flexbox, text wrapping, line
// clamping) into an SVG whose text is drawn as paths, and resvg rasterises it to PNG, so no system
// font is involved and every machine draws the same card.

// The site's theme (app/app.css).
const INK = "#15131a";
const PAPER = "#f7f2e8";
const ACID = "#c8ff3d";
const UFO = "#6a3df0";

/** The most characters of a title laid out: the clamp cuts far sooner, this bounds the work. */
const MAX_TITLE_CHARS = 300;
const MAX_CATEGORY_CHARS = 60;
const DEFAULT_MEMORY_BYTES = 16 * 1024 * 1024;

// The static cuts of the site's two families: satori draws a variable font at its default instance
// only (regular), and the site's @fontsource-variable files are variable. satori shapes a run of text
// with one font, so each Unicode subset is a family of its own and a style lists them as fallbacks;
// Inter's Cyrillic and Greek stand in for the display face, which has none.
const require = createRequire(import.meta.url);
const FACES = {
  display: { package: "@fontsource/bricolage-grotesque", prefix: "bricolage-grotesque", weights: [800], subsets: ["latin", "latin-ext", "vietnamese"] },
  text: {
    package: "@fontsource/inter",
    prefix: "inter",
    weights: [600, 800],
    subsets: ["latin", "latin-ext", "cyrillic", "cyrillic-ext", "greek", "greek-ext", "vietnamese"],
  },
} as const;
type Face = keyof typeof FACES;

const familyName = (face: Face, subset: string) => `${face}-${subset}`;
const families = (...faces: Face[]) => faces.flatMap((face) => FACES[face].subsets.map((subset) => familyName(face, subset))).join(", ");
const DISPLAY_FONT = families("display", "text");
const TEXT_FONT = families("text");

type Fonts = { fonts: Font[]; covers: (codePoint: number) => boolean };
let loading: Promise<Fonts> | undefined;

/** The card's fonts, read from node_modules once, and the code points they draw. */
function loadFonts(): Promise<Fonts> {
  loading ??= (async () => {
    const ranges: [number, number][] = [];
    const fonts: Font[] = [];
    for (const [face, spec] of Object.entries(FACES) as [Face, (typeof FACES)[Face]][]) {
      // @fontsource lists each subset's unicode-range, as its CSS declares it.
      const unicode = JSON.parse(await readFile(require.resolve(`${spec.package}/unicode.json`), "utf8")) as Record<string, string>;
      for (const subset of spec.subsets) {
        for (const range of (unicode[subset] ?? "").split(",")) {
          const [from, to] = range
            .replace(/^U\+/i, "")
            .split("-")
            .map((hex) => parseInt(hex, 16));
          if (from !== undefined && !Number.isNaN(from)) ranges.push([from, to ?? from]);
        }
        for (const weight of spec.weights) {
          const file = require.resolve(`${spec.package}/files/${spec.prefix}-${subset}-${weight}-normal.woff`);
          fonts.push({ name: familyName(face, subset), weight, style: "normal", data: await readFile(file) });
        }
      }
    }
    return { fonts, covers: (codePoint) => ranges.some(([from, to]) => codePoint >= from && codePoint <= to) };
  })();
  // A failed read is tried again next time rather than kept failed.
  loading.catch(() => (loading = undefined));
  return loading;
}

// satori takes React-shaped elements; integrations do not depend on React, so they are built by hand.
type Style = Record<string, string | number>;
type CardNode = { type: string; key: null; props: { style?: Style; src?: string; width?: number; height?: number; children?: CardChild } };
type CardChild = CardNode | string | (CardNode | string)[];

function el(type: string, style: Style, children?: CardChild, attributes: { src?: string; width?: number; height?: number } = {}): CardNode {
  return { type, key: null, props: { style, ...attributes, ...(children === undefined ? {} : { children }) } };
}

/** Shorter titles are set larger; a long one gets more, smaller lines, and is cut with an ellipsis after the last. */
export function titleLayout(title: string): { fontSize: number; lines: number } {
  const length = title.length;
  if (length <= 40) return { fontSize: 84, lines: 3 };
  if (length <= 75) return { fontSize: 72, lines: 4 };
  if (length <= 120) return { fontSize: 60, lines: 4 };
  return { fontSize: 54, lines: 5 };
}

/** One line of text the fonts can draw: characters none of them has (emoji, CJK) are left out rather than drawn as boxes. */
function clean(text: string, max: number, covers: (codePoint: number) => boolean): string {
  const drawable = Array.from(text.normalize("NFC"), (char) => (covers(char.codePointAt(0)!) ? char : " ")).join("");
  const collapsed = drawable.replace(/[\s\p{Cc}]+/gu, " ").trim();
  return collapsed.length > max ? `${collapsed.slice(0, max - 1).trimEnd()}…` : collapsed;
}

function card(text: ShareCardText, logoSvg: Buffer, covers: (codePoint: number) => boolean): CardNode {
  const title = clean(text.title, MAX_TITLE_CHARS, covers);
  const category = clean(text.category, MAX_CATEGORY_CHARS, covers).toUpperCase();
  const site = clean(text.site, MAX_CATEGORY_CHARS, covers);
  const { fontSize, lines } = titleLayout(title);
  const logo = `data:image/svg+xml;base64,${logoSvg.toString("base64")}`;

  return el("div", { width: "100%", height: "100%", display: "flex", flexDirection: "column", backgroundColor: PAPER, fontFamily: TEXT_FONT, color: INK }, [
    // The site's header: the logo and the wordmark on ink, and the category as a badge.
    el(
      "div",
      { display: "flex", alignItems: "center", justifyContent: "space-between", height: 128, paddingLeft: 56, paddingRight: 56, backgroundColor: INK },
      [
        el("div", { display: "flex", alignItems: "center" }, [
          el("img", { width: 68, height: 68 }, undefined, { src: logo, width: 68, height: 68 }),
          el("div", { display: "flex", marginLeft: 20, fontFamily: DISPLAY_FONT, fontSize: 50, fontWeight: 800, letterSpacing: -1 }, [
            el("div", { color: PAPER }, "Odd"),
            el("div", { color: ACID }, "wire"),
          ]),
        ]),
        el(
          "div",
          {
            display: "flex",
            maxWidth: 640,
            backgroundColor: ACID,
            borderRadius: 999,
            paddingTop: 12,
            paddingBottom: 12,
            paddingLeft: 30,
            paddingRight: 30,
            fontSize: 26,
            fontWeight: 600,
            letterSpacing: 3,
          },
          el("div", { display: "block", lineClamp: 1, textOverflow: "ellipsis", overflow: "hidden" }, category),
        ),
      ],
    ),
    el("div", { display: "flex", flexDirection: "column", flexGrow: 1, paddingTop: 40, paddingRight: 56, paddingBottom: 34, paddingLeft: 56 }, [
      // The title, framed like a story's picture on its page, with the purple offset shadow.
      el(
        "div",
        {
          display: "flex",
          flexGrow: 1,
          alignItems: "center",
          marginRight: 14,
          marginBottom: 14,
          paddingLeft: 44,
          paddingRight: 44,
          backgroundColor: "#ffffff",
          border: `5px solid ${INK}`,
          borderRadius: 32,
          boxShadow: `14px 14px 0 0 ${UFO}`,
        },
        el(
          "div",
          {
            display: "block",
            width: "100%",
            fontFamily: DISPLAY_FONT,
            fontWeight: 800,
            fontSize,
            lineHeight: 1.08,
            letterSpacing: -1.5,
            lineClamp: lines,
            wordBreak: "break-word",
            textOverflow: "ellipsis",
            overflow: "hidden",
          },
          title,
        ),
      ),
      // The site's name, small, and its line from the header.
      el("div", { display: "flex", justifyContent: "space-between", alignItems: "center", marginTop: 18, fontSize: 24, fontWeight: 600 }, [
        el("div", { color: "#4a4650" }, site),
        el("div", { color: UFO }, "Weird, strange and odd news. All true."),
      ]),
    ]),
  ]);
}

/**
 * The card as SVG. With `embedFont: false` its text stays text (a `<text>` per word, where it was
 * laid out), which is how tests read what it says; the PNG is drawn from paths.
 */
export async function shareCardSvg(text: ShareCardText, options: { logoSvg: Buffer; embedFont?: boolean }): Promise<string> {
  const { fonts, covers } = await loadFonts();
  // React-shaped, built without React (see el()).
  const element = card(text, options.logoSvg, covers) as unknown as Parameters<typeof satori>[0];
  const { default: satori } = await import("satori");
  return satori(element, { ...SHARE_CARD_SIZE, fonts, embedFont: options.embedFont ?? true });
}

/** The card as a 1200x630 PNG. */
export async function renderShareCard(text: ShareCardText, options: { logoSvg: Buffer }): Promise<Buffer> {
  const svg = await shareCardSvg(text, options);
  // Rasterised on libuv's threads, off the event loop; the text is paths already, so no font is looked up.
  const { renderAsync } = await import("@resvg/resvg-js");
  const image = await renderAsync(svg, { font: { loadSystemFonts: false }, fitTo: { mode: "original" } });
  return image.asPng();
}

export type ServedCard = { bytes: Buffer; contentType: "image/png"; etag: string };

export type ShareCards = {
  /** The card of a story's text, rendered once per (story, hash) and kept among the recent ones. */
  card(request: { storyId: number; hash: string; text: ShareCardText }): Promise<ServedCard>;
};

/**
 * Rendered cards, the most recent kept in memory. A card is rendered again after a restart (about a
 * tenth of a second); it is immutable at its address, so browsers and CDNs rarely ask twice.
 */
export function createShareCards(options: { logoSvg: Buffer; memoryBytes?: number }): ShareCards {
  const cards = new LRUCache<string, ServedCard, ShareCardText>({
    maxSize: options.memoryBytes ?? DEFAULT_MEMORY_BYTES,
    sizeCalculation: (card) => Math.max(1, card.bytes.length),
    // Concurrent requests for one card share one rendering; a failed one is not kept.
    fetchMethod: async (_key, _stale, { context }) => {
      const bytes = await renderShareCard(context, { logoSvg: options.logoSvg });
      const etag = `"${createHash("sha1").update(bytes).digest("base64url").slice(0, 22)}"`;
      return { bytes, contentType: "image/png" as const, etag };
    },
  });
  return {
    async card({ storyId, hash, text }) {
      const served = await cards.fetch(`${storyId}/${hash}`, { context: text });
      if (!served) throw new Error(`share card of story ${storyId} was not rendered`);
      return served;
    },
  };
}
