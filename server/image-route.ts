import { Router, type Response } from "express";
import { LRUCache } from "lru-cache";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { SITE_IMAGE_PREFIX, type ImageStore } from "~/integrations/images/image-store";
import type { VariantFormat } from "~/integrations/images/resize";
import type { ShareCards } from "~/integrations/share-card/share-card";
import { imageHeight, imageOrigin, imageUrlHash, isImageWidth, shareCardHash, siteHost, storyCardPath, storyImagePath } from "~/lib/story-image";

// The public image route (lib/story-image.ts names its addresses):
//
//   GET /img/{storyId}/{hash}/{width}       AVIF, WebP or JPEG by Accept, Vary: Accept
//   GET /img/{storyId}/{hash}/{width}.jpg   JPEG
//   GET /img/{storyId}/card-{hash}.png      the story's share card (PNG, 1200x630)
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
  now?: () => number;
};

const SITE_IMAGE_TYPES = /\.(svg|png|jpe?g|webp|gif|avif)$/i;

/**
 * Reads the site's own pictures (a story image such as /demo/cat.svg) from `root`: only picture files,
 * only inside `root`, null for anything else or missing.
 */
export function siteImageReader(root: string): (sitePath: string) => Promise<Buffer | null> {
  const base = path.resolve(root);
  return async (sitePath) => {
    let pathname: string;
    try {
      pathname = decodeURIComponent(new URL(sitePath, "http://site.invalid/").pathname);
    } catch {
      return null;
    }
    const file = path.resolve(base, `.${pathname}`);
    if (!file.startsWith(`${base}${path.sep}`) || !SITE_IMAGE_TYPES.test(file)) return null;
    return readFile(file).catch(() => null);
  };
}

/** The handler of /img/...; mount it before the pages. */
export function createImageRoute(options: ImageRouteOptions): Router {
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

  const router = Router();
  router.get("/img/:id/:hash/:file", async (req, res) => {
    const id = /^[1-9]\d{0,9}$/.test(req.params.id) ? Number(req.params.id) : NaN;
    const file = /^([1-9]\d{2,3})(\.jpg)?$/.exec(req.params.file);
    const width = Number(file?.[1]);
    if (!(id <= MAX_ID) || !file || !isImageWidth(width) || !/^[0-9a-f]{8}$/.test(req.params.hash)) return notFound(res);
    const jpeg = file[2] !== undefined;

    const found = await lookups.fetch(id);
    const imageUrl = found?.imageUrl ?? null;
    const origin = imageOrigin(imageUrl);
    if (imageUrl === null || origin === null) return notFound(res);
    if (imageUrlHash(imageUrl) !== req.params.hash) return moved(res, storyImagePath({ id, imageUrl }, width, { jpeg }));

    const format = jpeg ? "jpeg" : chooseFormat(req.get("accept"));
    const url = origin.kind === "site" ? `${SITE_IMAGE_PREFIX}${origin.path}` : origin.url;
    const image = await options.store.variant({ url, width, height: imageHeight(width), format, storyId: id });
    res.set({
      "Content-Type": image.contentType,
      "Cache-Control": image.placeholder ? PLACEHOLDER_CACHE : IMMUTABLE,
      ETag: image.etag,
      "X-Content-Type-Options": "nosniff",
    });
    if (!jpeg) res.vary("Accept");
    // Compared here rather than by Express, which ignores If-None-Match beside Cache-Control: no-cache.
    if (matches(req.get("if-none-match"), image.etag)) return void res.status(304).end();
    // send() answers HEAD without the body.
    res.send(image.bytes);
  });
  router.get("/img/:id/:file", async (req, res) => {
    const id = /^[1-9]\d{0,9}$/.test(req.params.id) ? Number(req.params.id) : NaN;
    const hash = /^card-([0-9a-f]{8})\.png$/.exec(req.params.file)?.[1];
    if (!(id <= MAX_ID) || !hash) return notFound(res);

    const found = await cardLookups.fetch(id);
    if (!found || found.title === null) return notFound(res);
    const text = { title: found.title, category: found.category, site };
    const current = shareCardHash(text);
    if (current !== hash) return moved(res, storyCardPath({ id, ...found }, options.siteUrl));

    const card = await options.cards.card({ storyId: id, hash: current, text });
    res.set({ "Content-Type": card.contentType, "Cache-Control": IMMUTABLE, ETag: card.etag, "X-Content-Type-Options": "nosniff" });
    if (matches(req.get("if-none-match"), card.etag)) return void res.status(304).end();
    res.send(card.bytes);
  });
  return router;
}

function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(",").some((tag) => {
    const value = tag.trim();
    return value === "*" || value.replace(/^W\//, "") === etag;
  });
}

function notFound(res: Response) {
  res.status(404).set({ "Cache-Control": SHORT_CACHE, "Content-Type": "text/plain; charset=utf-8" }).send("Not found");
}

// The story's picture is elsewhere now; the old address must not be kept as if it were this one.
function moved(res: Response, location: string) {
  res.set("Cache-Control", SHORT_CACHE).redirect(302, location);
}
