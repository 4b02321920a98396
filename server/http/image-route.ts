import { LRUCache } from "lru-cache";
import { readFile, stat } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import { SITE_IMAGE_PREFIX, type ImageStore } from "~/integrations/images/image-store";
import type { VariantFormat } from "~/integrations/images/resize";
import type { ShareCards } from "~/integrations/share-card/share-card";
import { imageHeight, imageOrigin, imageUrlHash, isImageWidth, shareCardHash, SITE_PICTURE_TYPES, siteHost, storyCardPath, storyImagePath } from "~/lib/story-image";
import { pathOf, sendBody } from "./node-handler";
import type { Clock } from "~/lib/clock";

// The public image route (lib/story-image.ts names its addresses):
//
//   GET /img/{storyId}/{hash}/{width}       AVIF, WebP or JPEG by Accept, Vary: Accept
//   GET /img/{storyId}/{hash}/{width}.jpg   JPEG
//   GET /img/{storyId}/card-{hash}.png      the story's share card (PNG, 1200x630)
//
// HEAD is answered as GET, without the body. Which requests are the route's is the server's table of
// its own addresses (own-routes.ts): GET and HEAD of a path IMAGE_PATH matches; the rest go to the pages.
//
// It is no proxy: it takes no URL, only a published story's id, and serves that story's current
// picture. The hash must be the one of the picture's URL, which makes the answer immutable; a story
// whose picture changed since is redirected to its new address. Anything else is not found.
// A share card takes no text either: it draws the story's current title and category, and its hash
// is theirs, so an edited title is a new card and the old address redirects, as for a picture.

/** How long a story's image URL is trusted before it is read again: an edit shows within seconds. */
export const LOOKUP_TTL_MS = 5_000;
const IMMUTABLE = "public, max-age=31536000, immutable";
/** The logo placeholder stands in for a picture that may come back: browsers ask again soon. */
const PLACEHOLDER_CACHE = "public, max-age=300";
const SHORT_CACHE = "public, max-age=60";
const MAX_ID = 2_147_483_647;

/**
 * The format a browser gets: AVIF, else WebP, when its Accept header names them (with a quality above
 * zero); JPEG otherwise. Wildcards do not count: `image/*` is what every browser sends, AVIF or not.
 */
export function chooseFormat(accept: string | undefined): VariantFormat {
  const accepted = new Set<string>();
  for (const part of (accept ?? "").toLowerCase().split(",")) {
    const [type, ...params] = part.split(";").map((p) => p.trim());
    const q = params.find((p) => p.startsWith("q="));
    if (type && (q === undefined || Number(q.slice(2)) > 0)) accepted.add(type);
  }
  if (accepted.has("image/avif")) return "avif";
  if (accepted.has("image/webp")) return "webp";
  return "jpeg";
}

export type ImageRouteOptions = {
  store: ImageStore;
  /** A published story's image URL (null when it has none); null when no such story is published. */
  findImage: (storyId: number) => Promise<{ imageUrl: string | null } | null>;
  /** Renders (and keeps) share cards. */
  cards: ShareCards;
  /** A published story's title and category as its page shows them; null when no such story is published. */
  findCard: (storyId: number) => Promise<{ title: string; category: string } | null>;
  /** The site's address: its host is printed on every card. */
  siteUrl: string;
  lookupTtlMs?: number;
  /** Milliseconds, for the lookup's lifetime (injectable for tests). */
  now?: Clock;
};

/** The file under `base` that a site picture path names: only picture files, only inside `base`; null for anything else. */
function sitePictureFile(base: string, sitePath: string): string | null {
  let pathname: string;
  try {
    pathname = decodeURIComponent(new URL(sitePath, "http://site.invalid/").pathname);
  } catch {
    return null;
  }
  const file = path.resolve(base, `.${pathname}`);
  return file.startsWith(`${base}${path.sep}`) && SITE_PICTURE_TYPES.test(file) ? file : null;
}

/**
 * Reads the site's own pictures (a story image such as /demo/cat.svg) from `root`: only picture files,
 * only inside `root`, null for anything else or missing.
 */
export function siteImageReader(root: string): (sitePath: string) => Promise<Buffer | null> {
  const base = path.resolve(root);
  return async (sitePath) => {
    const file = sitePictureFile(base, sitePath);
    return file ? readFile(file).catch(() => null) : null;
  };
}

/** Whether the site has the picture a path names under `root` (what the editor may give a story as its picture). */
export function sitePictureChecker(root: string): (sitePath: string) => Promise<boolean> {
  const base = path.resolve(root);
  return async (sitePath) => {
    const file = sitePictureFile(base, sitePath);
    return file ? stat(file).then((found) => found.isFile(), () => false) : false;
  };
}

/**
 * The route's two addresses, /img/{id}/{hash}/{file} and /img/{id}/{file}: "img" in any case, segments
 * not empty, one trailing slash allowed, so that addresses already published and cached keep working.
 */
export const IMAGE_PATH = /^\/img\/([^/]+)\/([^/]+)(?:\/([^/]+))?\/?$/i;

/**
 * Answers a request whose path IMAGE_PATH matches (any other is not found). Rejects when a lookup or the
 * store fails: the caller answers 500.
 */
export type ImageRoute = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

/** The handler of the image route's addresses. */
export function createImageRoute(options: ImageRouteOptions): ImageRoute {
  const lookups = new LRUCache<number, { imageUrl: string | null }>({
    max: 10_000,
    ttl: options.lookupTtlMs ?? LOOKUP_TTL_MS,
    ...(options.now ? { perf: { now: options.now } } : {}),
    // Concurrent requests for one story's images share one query.
    fetchMethod: async (id) => (await options.findImage(id)) ?? { imageUrl: null },
  });
  const cardLookups = new LRUCache<number, { title: string; category: string } | { title: null }>({
    max: 10_000,
    ttl: options.lookupTtlMs ?? LOOKUP_TTL_MS,
    ...(options.now ? { perf: { now: options.now } } : {}),
    fetchMethod: async (id) => (await options.findCard(id)) ?? { title: null },
  });
  const site = siteHost(options.siteUrl);

  async function picture(req: IncomingMessage, res: ServerResponse, params: { id: string; hash: string; file: string }) {
    const id = /^[1-9]\d{0,9}$/.test(params.id) ? Number(params.id) : NaN;
    const file = /^([1-9]\d{2,3})(\.jpg)?$/.exec(params.file);
    const width = Number(file?.[1]);
    if (!(id <= MAX_ID) || !file || !isImageWidth(width) || !/^[0-9a-f]{8}$/.test(params.hash)) return notFound(req, res);
    const jpeg = file[2] !== undefined;

    const found = await lookups.fetch(id);
    const imageUrl = found?.imageUrl ?? null;
    const origin = imageOrigin(imageUrl);
    if (imageUrl === null || origin === null) return notFound(req, res);
    if (imageUrlHash(imageUrl) !== params.hash) return moved(req, res, storyImagePath({ id, imageUrl }, width, { jpeg }));

    const format = jpeg ? "jpeg" : chooseFormat(req.headers.accept);
    const url = origin.kind === "site" ? `${SITE_IMAGE_PREFIX}${origin.path}` : origin.url;
    const image = await options.store.variant({ url, width, height: imageHeight(width), format, storyId: id });
    if (!jpeg) varyOnAccept(res);
    sendImage(req, res, image.bytes, {
      "Content-Type": image.contentType,
      "Cache-Control": image.placeholder ? PLACEHOLDER_CACHE : IMMUTABLE,
      ETag: image.etag,
      "X-Content-Type-Options": "nosniff",
    });
  }

  async function card(req: IncomingMessage, res: ServerResponse, params: { id: string; file: string }) {
    const id = /^[1-9]\d{0,9}$/.test(params.id) ? Number(params.id) : NaN;
    const hash = /^card-([0-9a-f]{8})\.png$/.exec(params.file)?.[1];
    if (!(id <= MAX_ID) || !hash) return notFound(req, res);

    const found = await cardLookups.fetch(id);
    if (!found || found.title === null) return notFound(req, res);
    const text = { title: found.title, category: found.category, site };
    const current = shareCardHash(text);
    if (current !== hash) return moved(req, res, storyCardPath({ id, ...found }, options.siteUrl));

    const drawn = await options.cards.card({ storyId: id, hash: current, text });
    sendImage(req, res, drawn.bytes, { "Content-Type": drawn.contentType, "Cache-Control": IMMUTABLE, ETag: drawn.etag, "X-Content-Type-Options": "nosniff" });
  }

  return async (req, res) => {
    const match = IMAGE_PATH.exec(pathOf(req));
    if (!match) return notFound(req, res);
    const id = decodeParam(match[1]!);
    const second = decodeParam(match[2]!);
    const third = match[3] === undefined ? undefined : decodeParam(match[3]);
    // A malformed escape cannot name a story's image: not found, rather than an error.
    if (id === null || second === null || third === null) notFound(req, res);
    else if (third === undefined) await card(req, res, { id, file: second });
    else await picture(req, res, { id, hash: second, file: third });
  };
}

/** A path segment with its %-escapes decoded (an id may be escaped digits); null when they are malformed. */
function decodeParam(segment: string): string | null {
  if (!segment.includes("%")) return segment;
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(",").some((tag) => {
    const value = tag.trim();
    return value === "*" || value.replace(/^W\//, "") === etag;
  });
}

/** The picture with its headers, or 304 with the headers alone when the browser's copy is this one. */
function sendImage(req: IncomingMessage, res: ServerResponse, bytes: Buffer, headers: Record<string, string>) {
  // By the ETag alone, whatever the request's Cache-Control says: the ETag is the bytes' own hash.
  if (matches(req.headers["if-none-match"], headers.ETag!)) {
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    res.statusCode = 304;
    return void res.end();
  }
  sendBody(req, res, 200, bytes, headers);
}

/** Adds Accept to the Vary header, after any field already there (a cache keys on all of them). */
function varyOnAccept(res: ServerResponse) {
  const current = res.getHeader("Vary");
  const value = Array.isArray(current) ? current.join(", ") : current === undefined ? "" : String(current);
  const fields = value.split(",").map((field) => field.trim().toLowerCase());
  if (fields.includes("*") || fields.includes("accept")) return;
  res.setHeader("Vary", value.trim() ? `${value}, Accept` : "Accept");
}

function notFound(req: IncomingMessage, res: ServerResponse) {
  sendBody(req, res, 404, "Not found", { "Cache-Control": SHORT_CACHE, "Content-Type": "text/plain; charset=utf-8" });
}

// The story's picture is elsewhere now; the old address must not be kept as if it were this one.
function moved(req: IncomingMessage, res: ServerResponse, location: string) {
  sendBody(req, res, 302, `Found. Redirecting to ${location}`, { Location: location, "Cache-Control": SHORT_CACHE, "Content-Type": "text/plain; charset=utf-8" });
}
