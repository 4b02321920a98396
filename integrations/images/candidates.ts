import { parsePage } from "~/integrations/extract/html-document";
import { readJsonLd } from "~/integrations/extract/json-ld";
import { linkHrefs, metaEntries, readBaseUrl, resolveMarkupUrl } from "~/integrations/extract/read-metadata";

/** Where on the page an image URL was found (or, for the originals, what it was derived from). */
export type ImageSource = "og" | "twitter" | "json-ld" | "image_src" | "img" | "srcset" | "wp-original" | "cdn-original";

/** An image a page offers for its story, with the size its markup declares (a hint: only a probe measures). */
export type ImageCandidate = {
  url: string;
  from: ImageSource;
  declaredWidth: number | null;
  declaredHeight: number | null;
};

/** Body images read per page: enough for any article, and a bound on probing work for gallery pages. */
const MAX_BODY_IMAGES = 100;
const MAX_SRCSET_CHARS = 20_000;
const MAX_DECLARED_SIDE = 100_000;

/** Attributes lazy loaders keep the real picture in, while `src` holds a placeholder. */
const LAZY_SRC = [
  "data-src", "data-lazy-src", "data-original", "data-lazy", "data-hi-res-src", "data-full-src",
  // Jetpack's carousel: the uploaded original and its large version.
  "data-orig-file", "data-large-file",
];
const SRCSET = ["srcset", "data-srcset", "data-lazy-srcset"];

/**
 * Every image the page offers, best-declared first: og:image, twitter:image, JSON-LD, <link rel=image_src>,
 * then the article's own pictures; each resized copy is followed by its full-size original when its URL
 * says how to get it. Absolute http(s) URLs only, each once.
 */
export function collectImageCandidates(html: string, pageUrl: string): ImageCandidate[] {
  const document = parsePage(html);
  const baseUrl = readBaseUrl(document, pageUrl);
  const list = new CandidateList();
  const add = (value: unknown, from: ImageSource, width: number | null = null, height: number | null = null) =>
    list.add(resolveMarkupUrl(value, baseUrl), from, width, height);

  const metas = metaEntries(document);
  for (const from of ["og", "twitter"] as const) {
    for (const image of declaredImages(metas, from)) add(image.url, from, image.width, image.height);
  }
  for (const url of readJsonLd(document)?.images ?? []) add(url, "json-ld");
  for (const href of linkHrefs(document, "image_src")) add(href, "image_src");

  const root = document.querySelector("article") ?? document.querySelector("main") ?? document.body;
  for (const img of Array.from(root?.querySelectorAll("img") ?? []).slice(0, MAX_BODY_IMAGES)) {
    const width = declaredSide(img.getAttribute("width"));
    const height = declaredSide(img.getAttribute("height"));
    // When a lazy loader is at work, `src` is its placeholder: the real picture comes first.
    for (const attribute of [...LAZY_SRC, "src"]) add(img.getAttribute(attribute), "img", width, height);
    const sources = img.parentElement?.tagName.toLowerCase() === "picture" ? Array.from(img.parentElement.querySelectorAll("source")) : [];
    for (const element of [...sources, img]) {
      for (const attribute of SRCSET) {
        const largest = largestOfSrcset(element.getAttribute(attribute));
        if (!largest) continue;
        const scaled = scaledSize(largest, width, height);
        add(largest.url, "srcset", scaled.width, scaled.height);
      }
    }
  }
  return list.candidates;
}

type DeclaredImage = { url: string; width: number | null; height: number | null };

/**
 * The og:image (or twitter:image) structured properties, one group per image in document order:
 * og:image (or og:image:url) opens an image; the :secure_url, :width and :height that follow belong to it.
 */
function declaredImages(entries: [string, string][], prefix: "og" | "twitter"): DeclaredImage[] {
  const groups: { urls: string[]; hasMain: boolean; width: number | null; height: number | null }[] = [];
  const pattern = new RegExp(`^${prefix}:image(?::(url|src|secure_url|width|height))?$`);
  let group: (typeof groups)[number] | undefined;
  for (const [key, content] of entries) {
    const match = pattern.exec(key);
    if (!match) continue;
    const property = match[1];
    const isMain = property === undefined || property === "url" || property === "src";
    if (!group || (isMain && group.hasMain)) {
      group = { urls: [], hasMain: false, width: null, height: null };
      groups.push(group);
    }
    if (property === "width") group.width ??= declaredSide(content);
    else if (property === "height") group.height ??= declaredSide(content);
    else {
      group.urls.push(content);
      if (isMain) group.hasMain = true;
    }
  }
  return groups.flatMap((group) => group.urls.map((url) => ({ url, width: group.width, height: group.height })));
}

/** The candidates in order, each URL once; a resized copy's originals follow it. */
class CandidateList {
  readonly candidates: ImageCandidate[] = [];
  private readonly byUrl = new Map<string, ImageCandidate>();

  add(url: string | null, from: ImageSource, width: number | null, height: number | null): void {
    if (url === null) return;
    const known = this.byUrl.get(url);
    if (known) {
      known.declaredWidth = larger(known.declaredWidth, width);
      known.declaredHeight = larger(known.declaredHeight, height);
      return;
    }
    this.push({ url, from, declaredWidth: width, declaredHeight: height });
    for (const original of originalsOf(url)) {
      if (!this.byUrl.has(original.url)) this.push({ ...original, declaredWidth: null, declaredHeight: null });
    }
  }

  private push(candidate: ImageCandidate): void {
    this.candidates.push(candidate);
    this.byUrl.set(candidate.url, candidate);
  }
}

function larger(a: number | null, b: number | null): number | null {
  if (a === null) return b;
  if (b === null) return a;
  return Math.max(a, b);
}

/** A width or height as markup writes it ("1200", "1200px"); null for anything else (percentages, "auto"). */
function declaredSide(value: string | null | undefined): number | null {
  const match = /^\s*(\d{1,9})(?:\.\d*)?\s*(?:px)?\s*$/i.exec(value ?? "");
  if (!match) return null;
  const side = Number(match[1]);
  return side > 0 && side <= MAX_DECLARED_SIDE ? side : null;
}

type SrcsetEntry = { url: string; width: number | null; density: number | null };

/** The srcset entry with the largest width descriptor, else the largest density (a bare URL is 1x). */
function largestOfSrcset(value: string | null): SrcsetEntry | null {
  if (!value || value.length > MAX_SRCSET_CHARS) return null;
  let best: SrcsetEntry | null = null;
  for (const entry of parseSrcset(value)) {
    if (!best) best = entry;
    else if (entry.width !== null) {
      if (best.width === null || entry.width > best.width) best = entry;
    } else if (best.width === null && (entry.density ?? 1) > (best.density ?? 1)) best = entry;
  }
  return best;
}

/**
 * A srcset's entries, split as the HTML standard does: a URL runs to the next whitespace (so Cloudinary's
 * "w_300,h_200" stays whole), its descriptors to the next comma.
 */
function parseSrcset(value: string): SrcsetEntry[] {
  const entries: SrcsetEntry[] = [];
  let pos = 0;
  while (pos < value.length) {
    while (pos < value.length && /[\s,]/.test(value[pos]!)) pos++;
    if (pos >= value.length) break;
    const start = pos;
    while (pos < value.length && !/\s/.test(value[pos]!)) pos++;
    let url = value.slice(start, pos);
    let descriptors = "";
    if (url.endsWith(",")) {
      url = url.replace(/,+$/, "");
    } else {
      const end = value.indexOf(",", pos);
      descriptors = value.slice(pos, end < 0 ? value.length : end);
      pos = end < 0 ? value.length : end + 1;
    }
    let width: number | null = null;
    let density: number | null = null;
    for (const descriptor of descriptors.trim().split(/\s+/)) {
      const w = /^(\d+)w$/.exec(descriptor);
      const x = /^(\d*\.?\d+)x$/.exec(descriptor);
      if (w) width = Number(w[1]);
      else if (x) density = Number(x[1]);
    }
    if (url !== "") entries.push({ url, width: width || null, density: density || null });
  }
  return entries;
}

/** A srcset entry's size: its width descriptor, or the <img>'s declared size times its density; the height keeps the <img>'s proportions. */
function scaledSize(entry: SrcsetEntry, width: number | null, height: number | null): { width: number | null; height: number | null } {
  if (entry.width !== null) {
    return { width: entry.width, height: width && height ? Math.round((entry.width * height) / width) : null };
  }
  const density = entry.density ?? 1;
  return { width: width && Math.round(width * density), height: height && Math.round(height * density) };
}

/** WordPress names its resized copies name-300x200.jpg beside the uploaded name.jpg. */
const WP_RESIZED = /^(.+)-\d{1,5}x\d{1,5}(\.(?:jpe?g|png|gif|webp|avif))$/i;
/** Query parameters that ask an image server for a smaller copy, wherever they appear. */
const SIZE_PARAMS = new Set(["w", "width", "h", "height", "resize", "fit"]);
/** On image CDNs, the other parameters only transform the picture (quality, format, crop, zoom). */
const CDN_PARAMS = new Set([...SIZE_PARAMS, "q", "quality", "auto", "fm", "format", "crop", "dpr", "zoom", "strip", "lb", "ulb"]);
const IMAGE_CDN_HOST = /(?:^|\.)(?:i[0-3]\.wp\.com|files\.wordpress\.com|imgix\.net|images\.unsplash\.com|images\.ctfassets\.net|cdn\.sanity\.io|cdn\.shopify\.com)$/i;
/** A Cloudinary transformation segment: comma-separated parameter_value pairs ("w_300,h_200,c_fill"), of its own parameter names. */
const CLOUDINARY_PARAM = "(?:a|ac|af|ar|b|bo|br|c|co|cs|d|dl|dn|dpr|du|e|eo|f|fl|fps|g|h|if|l|o|pg|q|r|so|sp|t|u|vc|vs|w|x|y|z)_[^/,]+";
const CLOUDINARY_TRANSFORMATION = new RegExp(`^${CLOUDINARY_PARAM}(?:,${CLOUDINARY_PARAM})*$`);

/** The full-size forms a URL's resize naming points to, most direct first. */
function originalsOf(url: string): { url: string; from: "wp-original" | "cdn-original" }[] {
  const cdn = cdnOriginal(url);
  const forms = [
    { url: wpOriginal(url), from: "wp-original" as const },
    { url: cdn, from: "cdn-original" as const },
    { url: cdn && wpOriginal(cdn), from: "wp-original" as const },
  ];
  return forms.filter((form): form is { url: string; from: "wp-original" | "cdn-original" } => form.url !== null && form.url !== url);
}

function wpOriginal(url: string): string | null {
  const parsed = new URL(url);
  const slash = parsed.pathname.lastIndexOf("/");
  const match = WP_RESIZED.exec(parsed.pathname.slice(slash + 1));
  if (!match) return null;
  parsed.pathname = parsed.pathname.slice(0, slash + 1) + match[1] + match[2];
  return parsed.href;
}

function cdnOriginal(url: string): string | null {
  const parsed = new URL(url);
  // Next.js serves /_next/image?url=<the original>&w=640&q=75.
  if (parsed.pathname.endsWith("/_next/image")) {
    const target = parsed.searchParams.get("url");
    return target ? resolveMarkupUrl(target, parsed.href) : null;
  }
  let changed = false;
  const segments = parsed.pathname.split("/");
  const upload = segments.findIndex((segment, i) => segment === "upload" && ["image", "video"].includes(segments[i - 1] ?? ""));
  if (upload > 0) {
    let end = upload + 1;
    // Chained transformations are separate segments; the version (v1234) and the public id follow them.
    while (end < segments.length - 1 && CLOUDINARY_TRANSFORMATION.test(segments[end]!)) end++;
    if (end > upload + 1) {
      segments.splice(upload + 1, end - upload - 1);
      parsed.pathname = segments.join("/");
      changed = true;
    }
  }
  const pairs = parsed.search.slice(1).split("&").filter((pair) => pair !== "");
  const names = pairs.map((pair) => safeDecode(pair.split("=")[0]!).toLowerCase());
  if (names.some((name) => SIZE_PARAMS.has(name) || (name === "auto" && /format|compress/i.test(parsed.search)))) {
    const dropped = IMAGE_CDN_HOST.test(parsed.hostname) || names.includes("ixlib") || names.includes("auto") ? CDN_PARAMS : SIZE_PARAMS;
    // The kept parameters stay as written: re-encoding them could break a signed or picky URL.
    const kept = pairs.filter((_, i) => !dropped.has(names[i]!));
    parsed.search = kept.length > 0 ? `?${kept.join("&")}` : "";
    changed = true;
  }
  return changed ? parsed.href : null;
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value.replace(/\+/g, " "));
  } catch {
    return value;
  }
}
