// Where a story's picture is served from. The public site never hotlinks: an image on another site is
// fetched once by the server and served as resized variants under
//
//   /img/{storyId}/{hash of the image URL}/{width}       AVIF, WebP or JPEG, chosen by the Accept header
//   /img/{storyId}/{hash of the image URL}/{width}.jpg   always JPEG (Open Graph, RSS enclosures)
//   /img/{storyId}/card-{hash of the card's text}.png     the share card of a story without a picture
//
// The hash names the image URL the story had when the page was made, so the address can be cached
// for ever: a changed image URL is a new address. Images on the site itself (a path such as
// /demo/cat.svg) are read from the site's own files and served as the same variants. Pure and free
// of Node modules: the browser bundle renders the same addresses as the server.

/**
 * The widths the image route renders; any other width is not found. 672 is a phone's full-width
 * picture: 335 to 372 CSS px at 1.75 to 2 device pixels (Lighthouse's phone, 412 px at 1.75, shows
 * the featured picture 651 pixels wide), a third fewer bytes than 800.
 */
export const IMAGE_WIDTHS = [320, 480, 672, 800, 1200] as const;
export type ImageWidth = (typeof IMAGE_WIDTHS)[number];

/** Every variant is cropped to this aspect ratio, so its size is known before it loads. */
export const IMAGE_ASPECT = { width: 16, height: 9 } as const;

/** The width of the variant shared to social networks and feed readers. */
export const SHARE_IMAGE_WIDTH: ImageWidth = 1200;

/** The width `src` names for browsers that ignore `srcset`. */
const DEFAULT_WIDTH: ImageWidth = 800;

/** The height of a variant of `width` at the fixed aspect ratio. */
export function imageHeight(width: number): number {
  return Math.round((width * IMAGE_ASPECT.height) / IMAGE_ASPECT.width);
}

/** True when `width` is one the image route renders. */
export function isImageWidth(width: number): width is ImageWidth {
  return (IMAGE_WIDTHS as readonly number[]).includes(width);
}

/**
 * A short fingerprint of an image URL (32-bit FNV-1a, 8 hex digits): it ties an image address to
 * the URL it was made for. Not a secret and not a security boundary: the route serves only the
 * image a published story has now, whatever the hash.
 */
export function imageUrlHash(imageUrl: string): string {
  return fingerprint(imageUrl);
}

function fingerprint(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, "0");
}

export type ImageOrigin =
  /** On another site: fetched by the server and served as variants. */
  | { kind: "remote"; url: string }
  /** A path on this site: read from the site's own files. */
  | { kind: "site"; path: string };

/**
 * Where a stored image URL points: another site (absolute http(s), or scheme-relative taken as
 * https), a path on this site, or nowhere usable (blank, javascript:, data: and the like: null).
 */
export function imageOrigin(imageUrl: string | null | undefined): ImageOrigin | null {
  const value = imageUrl?.trim() ?? "";
  if (value === "") return null;
  if (value.startsWith("//")) return remote(`https:${value}`);
  if (/^[a-z][a-z0-9+.-]*:/i.test(value)) return /^https?:/i.test(value) ? remote(value) : null;
  try {
    const { pathname, search } = new URL(value, "http://site.invalid/");
    return { kind: "site", path: `${pathname}${search}` };
  } catch {
    return null;
  }
}

/** The picture files the site serves from its own files (a story image such as /demo/cat.svg). */
export const SITE_PICTURE_TYPES = /\.(svg|png|jpe?g|webp|gif|avif)$/i;

/**
 * The path of a picture on this site that `value` names ("/demo/cat.svg"), or null when it names
 * something else: another site, a page, a folder, or a path that climbs out of the site ("..").
 */
export function sitePicturePath(value: string | null | undefined): string | null {
  const origin = imageOrigin(value);
  if (origin?.kind !== "site" || !value?.trim().startsWith("/")) return null;
  const pathname = origin.path.split("?")[0]!;
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return null;
  }
  if (decoded.split("/").includes("..") || !SITE_PICTURE_TYPES.test(decoded)) return null;
  return pathname;
}

function remote(value: string): ImageOrigin | null {
  try {
    const url = new URL(value);
    return url.hostname ? { kind: "remote", url: url.href } : null;
  } catch {
    return null;
  }
}

type StoryWithImage = { id: number; imageUrl: string | null };

/** The path of one variant of a story's image (`jpeg`: the fixed-format address). */
export function storyImagePath(story: { id: number; imageUrl: string }, width: ImageWidth, options: { jpeg?: boolean } = {}): string {
  return `/img/${story.id}/${imageUrlHash(story.imageUrl)}/${width}${options.jpeg ? ".jpg" : ""}`;
}

export type StoryImageSources = {
  src: string;
  srcSet?: string;
  sizes?: string;
  /** The intrinsic size `src` is drawn at (the aspect box the page reserves for it). */
  width: number;
  height: number;
};

/**
 * What an <img> needs to show a story's picture: its variants as a srcset with the layout's `sizes`.
 * Null when the story has no usable image (the page shows the logo).
 */
export function storyImageSources(story: StoryWithImage, sizes: string): StoryImageSources | null {
  const origin = imageOrigin(story.imageUrl);
  if (origin === null || story.imageUrl === null) return null;
  const width = DEFAULT_WIDTH;
  const imageStory = { id: story.id, imageUrl: story.imageUrl };
  return {
    src: storyImagePath(imageStory, width),
    srcSet: IMAGE_WIDTHS.map((w) => `${storyImagePath(imageStory, w)} ${w}w`).join(", "),
    sizes,
    width,
    height: imageHeight(width),
  };
}

/** The absolute address of the picture shared for a story (Open Graph, JSON-LD, RSS): its 1200 px JPEG variant, null without one. */
export function storyShareImage(story: StoryWithImage, siteUrl: string): { url: string; width?: number; height?: number } | null {
  const origin = imageOrigin(story.imageUrl);
  if (origin === null || story.imageUrl === null) return null;
  const site = siteUrl.replace(/\/+$/, "");
  return {
    url: `${site}${storyImagePath({ id: story.id, imageUrl: story.imageUrl }, SHARE_IMAGE_WIDTH, { jpeg: true })}`,
    width: SHARE_IMAGE_WIDTH,
    height: imageHeight(SHARE_IMAGE_WIDTH),
  };
}

/** The size of a share card: what Facebook, X and LinkedIn show large (1.91:1). */
export const SHARE_CARD_SIZE = { width: 1200, height: 630 } as const;

/**
 * Bumped when the card's design changes, so that every card gets a new address rather than an old
 * picture being kept for ever under an immutable one.
 */
const SHARE_CARD_DESIGN = "1";

/** Every text a share card draws: an edit to any of them is a new card at a new address. */
export type ShareCardText = { title: string; category: string; site: string };

/** The site's name as a card shows it: the host of its URL, without "www.". */
export function siteHost(siteUrl: string): string {
  try {
    return new URL(siteUrl).host.replace(/^www\./, "");
  } catch {
    return "";
  }
}

/** The fingerprint of a card's text (and design) in its address: 8 hex digits, as for image URLs. */
export function shareCardHash(text: ShareCardText): string {
  return fingerprint([SHARE_CARD_DESIGN, text.title, text.category, text.site].join("\n"));
}

/** The path of a story's share card; `siteUrl` names the site the card shows. */
export function storyCardPath(story: { id: number; title: string; category: string }, siteUrl: string): string {
  return `/img/${story.id}/card-${shareCardHash({ title: story.title, category: story.category, site: siteHost(siteUrl) })}.png`;
}

/** A picture narrower than this is too small to share: Facebook shows it as a thumbnail, if at all. */
export const MIN_SHARE_IMAGE_WIDTH = 600;

/**
 * What a story page shares (og:image, twitter:image, JSON-LD): its picture's 1200 px JPEG, or, for a
 * story without a usable picture, its share card. A picture is usable when the site can serve it and
 * it is not known to be under 600 px wide (`imageWidth`, measured by image enhancement or when the
 * site first fetched it; a picture not measured yet is taken as usable).
 */
export function storySocialImage(
  story: StoryWithImage & { title: string; category: string; imageWidth?: number | null },
  siteUrl: string,
): { url: string; width: number; height: number; card: boolean } {
  const tooSmall = story.imageWidth != null && story.imageWidth < MIN_SHARE_IMAGE_WIDTH;
  const picture = tooSmall ? null : storyShareImage(story, siteUrl);
  if (picture) return { url: picture.url, width: SHARE_IMAGE_WIDTH, height: imageHeight(SHARE_IMAGE_WIDTH), card: false };
  const site = siteUrl.replace(/\/+$/, "");
  return { url: `${site}${storyCardPath(story, siteUrl)}`, ...SHARE_CARD_SIZE, card: true };
}
