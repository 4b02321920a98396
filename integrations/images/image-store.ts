import { createHash } from "node:crypto";
import { mkdir, readdir, readFile, rename, stat, unlink, utimes, writeFile } from "node:fs/promises";
import path from "node:path";
import { LRUCache } from "lru-cache";
import { errorMessage } from "~/lib/error-message";
import { isFetchError } from "~/integrations/http/fetch-error";
import type { HttpClient } from "~/integrations/http/types";
import { CONTENT_TYPES, DEFAULT_MAX_INPUT_PIXELS, EXTENSIONS, inspectImage, renderPlaceholder, renderVariant, type VariantFormat } from "./resize";
import { systemClock, type Clock } from "~/lib/clock";

// The store behind the public image route. A picture on another site is fetched once through the
// guarded client, checked, kept as it came, and rendered into variants on demand; originals and
// variants live in one directory under a size cap, least recently used first out. A picture that
// cannot be had is answered with the logo placeholder, and the failure is remembered for a while so
// a broken image is not fetched again on every request.
//
//   {dir}/originals/ab/abcdef...          the bytes as fetched
//   {dir}/variants/ab/abcdef...-800x450.webp

export const DEFAULT_MAX_ORIGINAL_BYTES = 15 * 1024 * 1024;
export const DEFAULT_FAILURE_TTL_MS = 10 * 60_000;
export const DEFAULT_MEMORY_BYTES = 32 * 1024 * 1024;
export const DEFAULT_FETCH_TIMEOUT_MS = 10_000;
/** Past the cap, files go until the store is this fraction of it, so eviction does not run on every write. */
const EVICT_TO = 0.9;
/** A file's time on disk is brought up to date at most this often: it orders eviction after a restart. */
const DISK_TOUCH_INTERVAL_MS = 3_600_000;
/** Types a server may label a picture with besides image/*: what it really is, sharp decides. */
const GENERIC_TYPES = new Set(["application/octet-stream", "binary/octet-stream"]);

export type ImageFailureCode =
  | "HTTP_STATUS"
  | "NOT_AN_IMAGE"
  | "TIMEOUT"
  | "BODY_TOO_LARGE"
  | "BLOCKED_ADDRESS"
  | "FETCH_FAILED"
  | "RENDER_FAILED"
  | "STORE_FAILED";

/** Why an original could not be had, stored or rendered. */
export class ImageUnavailableError extends Error {
  override name = "ImageUnavailableError";
  constructor(
    readonly code: ImageFailureCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export type ServedImage = {
  bytes: Buffer;
  contentType: string;
  /** A strong validator of these bytes. */
  etag: string;
  /** True for the logo placeholder, which must not be cached for long: the picture may come back. */
  placeholder: boolean;
};

export type VariantRequest = {
  url: string;
  width: number;
  height: number;
  format: VariantFormat;
  /** The story asking, named in failure reports. */
  storyId?: number;
};

export type ImageFailure = { url: string; storyId?: number; code: ImageFailureCode; message: string };

export type ImageStoreOptions = {
  /** Where originals and variants are kept (created when missing). */
  dir: string;
  /** The most bytes kept on disk. */
  maxBytes: number;
  http: HttpClient;
  /** The logo (SVG) the placeholder shows. */
  logoSvg: Buffer;
  maxOriginalBytes?: number;
  maxInputPixels?: number;
  fetchTimeoutMs?: number;
  failureTtlMs?: number;
  /** The most bytes of variants kept in memory for the hottest images. */
  memoryBytes?: number;
  /** Milliseconds, for the failure memory and the LRU order (injectable for tests). */
  now?: Clock;
  /**
   * Told the size of a picture from another site each time a variant of it is rendered (the first
   * time it is shown, mostly), so the story can keep it.
   */
  onOriginalSize?: (measured: { url: string; storyId?: number; width: number; height: number }) => void;
  /** Told once per failure (not again while it is remembered), to be logged. */
  onFailure?: (failure: ImageFailure) => void;
  /** Reads one of the site's own pictures (a request whose url is `site:/path`), or null when there is none. */
  readSiteImage?: (sitePath: string) => Promise<Buffer | null>;
};

/** The url of a VariantRequest for a picture among the site's own files. */
export const SITE_IMAGE_PREFIX = "site:";

export type ImageStore = {
  /** A variant of the picture at `url`, or the placeholder of that size when the picture cannot be had. */
  variant(request: VariantRequest): Promise<ServedImage>;
  /** The logo placeholder at a size and format. */
  placeholder(target: Pick<VariantRequest, "width" | "height" | "format">): Promise<ServedImage>;
  /** Bytes and files on disk, as the index counts them. */
  usage(): { bytes: number; files: number };
  /** Resolves once the files already on disk are indexed. */
  ready: Promise<void>;
};

type Entry = { size: number; diskTouchedAt: number };

/** A store of fetched pictures and their variants in `dir`; see the top of this file. */
export function createImageStore(options: ImageStoreOptions): ImageStore {
  const now = options.now ?? systemClock;
  const maxOriginalBytes = options.maxOriginalBytes ?? DEFAULT_MAX_ORIGINAL_BYTES;
  const maxInputPixels = options.maxInputPixels ?? DEFAULT_MAX_INPUT_PIXELS;
  const fetchTimeoutMs = options.fetchTimeoutMs ?? DEFAULT_FETCH_TIMEOUT_MS;
  const report = options.onFailure ?? (() => {});

  // The disk index in least-recently-used order: a Map keeps insertion order, and an access moves
  // its entry to the end, so eviction takes from the front.
  const index = new Map<string, Entry>();
  let totalBytes = 0;
  const memory = new LRUCache<string, ServedImage>({
    maxSize: options.memoryBytes ?? DEFAULT_MEMORY_BYTES,
    sizeCalculation: (image) => Math.max(1, image.bytes.length),
  });
  const failures = new LRUCache<string, ImageUnavailableError>({
    max: 10_000,
    ttl: options.failureTtlMs ?? DEFAULT_FAILURE_TTL_MS,
    perf: { now },
  });
  const rendering = new Map<string, Promise<ServedImage>>();
  const fetching = new Map<string, Promise<Buffer>>();
  const placeholders = new Map<string, Promise<ServedImage>>();

  const absolute = (rel: string) => path.join(options.dir, rel);

  function indexFile(rel: string, size: number, touchedAt: number) {
    const previous = index.get(rel);
    if (previous) {
      totalBytes -= previous.size;
      index.delete(rel);
    }
    index.set(rel, { size, diskTouchedAt: touchedAt });
    totalBytes += size;
  }

  function touch(rel: string) {
    const entry = index.get(rel);
    if (!entry) return;
    index.delete(rel);
    index.set(rel, entry);
    const at = now();
    if (at - entry.diskTouchedAt > DISK_TOUCH_INTERVAL_MS) {
      entry.diskTouchedAt = at;
      const time = new Date(at);
      // Best effort: a failed touch only makes this file look older after a restart.
      utimes(absolute(rel), time, time).catch(() => {});
    }
  }

  async function evictIfNeeded(keep: string) {
    if (totalBytes <= options.maxBytes) return;
    const doomed: string[] = [];
    for (const [rel, entry] of index) {
      if (totalBytes <= options.maxBytes * EVICT_TO) break;
      if (rel === keep) continue;
      index.delete(rel);
      memory.delete(rel);
      totalBytes -= entry.size;
      doomed.push(rel);
    }
    await Promise.all(doomed.map((rel) => unlink(absolute(rel)).catch(ignoreMissing)));
  }

  async function store(rel: string, bytes: Buffer) {
    const file = absolute(rel);
    await mkdir(path.dirname(file), { recursive: true });
    // Written aside, then renamed: a reader (or another process) never sees half a file.
    const temporary = `${file}.tmp-${process.pid}-${Math.random().toString(36).slice(2)}`;
    await writeFile(temporary, bytes);
    await rename(temporary, file);
    indexFile(rel, bytes.length, now());
    await evictIfNeeded(rel);
  }

  async function readStored(rel: string): Promise<Buffer | null> {
    try {
      const bytes = await readFile(absolute(rel));
      if (index.has(rel)) touch(rel);
      else indexFile(rel, bytes.length, now());
      return bytes;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
      throw error;
    }
  }

  function remember(key: string, request: VariantRequest, error: unknown): void {
    if (failures.has(key)) return;
    const failure = asUnavailable(error);
    failures.set(key, failure);
    report({ url: request.url, storyId: request.storyId, code: failure.code, message: failure.message });
  }

  async function fetchOriginal(url: string): Promise<Buffer> {
    let response;
    try {
      response = await options.http.fetch(url, {
        headers: { accept: "image/avif,image/webp,image/png,image/jpeg,image/*;q=0.8" },
        maxBodyBytes: maxOriginalBytes,
        signal: AbortSignal.timeout(fetchTimeoutMs),
      });
    } catch (error) {
      if ((error as { name?: unknown } | null)?.name === "TimeoutError") {
        throw new ImageUnavailableError("TIMEOUT", `no picture within ${fetchTimeoutMs} ms`, { cause: error });
      }
      throw error;
    }
    if (response.status !== 200) throw new ImageUnavailableError("HTTP_STATUS", `answered ${response.status}`);
    const type = (response.contentType ?? "").split(";")[0]!.trim().toLowerCase();
    if (type !== "" && !type.startsWith("image/") && !GENERIC_TYPES.has(type)) {
      throw new ImageUnavailableError("NOT_AN_IMAGE", `served as ${type}, not an image`);
    }
    await inspectImage(response.body, { maxInputPixels });
    return response.body;
  }

  async function original(request: VariantRequest, key: string): Promise<Buffer> {
    // The site's own pictures are read where they are, never fetched or copied.
    if (request.url.startsWith(SITE_IMAGE_PREFIX)) {
      const bytes = await options.readSiteImage?.(request.url.slice(SITE_IMAGE_PREFIX.length));
      if (!bytes) throw new ImageUnavailableError("HTTP_STATUS", "not among the site's files");
      return bytes;
    }
    const rel = originalPath(key);
    const stored = await readStored(rel);
    if (stored) return stored;
    const bytes = await fetchOriginal(request.url);
    await store(rel, bytes).catch((error) => storeFailed(request, error));
    return bytes;
  }

  // The picture is still served from memory; only keeping it failed (a full or read-only disk).
  function storeFailed(request: VariantRequest, error: unknown) {
    report({ url: request.url, storyId: request.storyId, code: "STORE_FAILED", message: errorMessage(error) });
  }

  function served(bytes: Buffer, format: VariantFormat, placeholder: boolean): ServedImage {
    const etag = `"${createHash("sha1").update(bytes).digest("base64url").slice(0, 22)}"`;
    return { bytes, contentType: CONTENT_TYPES[format], etag, placeholder };
  }

  function placeholder(target: Pick<VariantRequest, "width" | "height" | "format">): Promise<ServedImage> {
    const name = `${target.width}x${target.height}.${target.format}`;
    let pending = placeholders.get(name);
    if (!pending) {
      pending = renderPlaceholder(options.logoSvg, target).then((bytes) => served(bytes, target.format, true));
      // A placeholder that failed to render is tried again next time rather than kept failed.
      pending.catch(() => placeholders.delete(name));
      placeholders.set(name, pending);
    }
    return pending;
  }

  async function render(request: VariantRequest, key: string, rel: string): Promise<ServedImage> {
    const stored = await readStored(rel);
    if (stored) return served(stored, request.format, false);
    if (failures.has(key)) return placeholder(request);
    let source: Buffer;
    try {
      source = await coalesce(fetching, key, () => original(request, key));
    } catch (error) {
      remember(key, request, error);
      return placeholder(request);
    }
    let bytes: Buffer;
    try {
      bytes = await renderVariant(source, request, { maxInputPixels });
    } catch (error) {
      // The stored original is damaged or undecodable: drop it so a later try fetches it afresh.
      const originalRel = originalPath(key);
      const entry = index.get(originalRel);
      if (entry) {
        index.delete(originalRel);
        totalBytes -= entry.size;
      }
      await unlink(absolute(originalRel)).catch(ignoreMissing);
      remember(key, request, new ImageUnavailableError("RENDER_FAILED", errorMessage(error), { cause: error }));
      return placeholder(request);
    }
    await store(rel, bytes).catch((error) => storeFailed(request, error));
    if (options.onOriginalSize && !request.url.startsWith(SITE_IMAGE_PREFIX)) {
      const tell = options.onOriginalSize;
      await inspectImage(source, { maxInputPixels })
        .then((info) => tell({ url: request.url, storyId: request.storyId, width: info.width, height: info.height }))
        .catch(() => undefined);
    }
    return served(bytes, request.format, false);
  }

  async function scan() {
    const found: { rel: string; size: number; mtime: number }[] = [];
    for (const top of ["originals", "variants"]) {
      let shards: string[];
      try {
        shards = await readdir(absolute(top));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") continue;
        throw error;
      }
      for (const shard of shards) {
        const names = await readdir(absolute(path.join(top, shard))).catch(() => [] as string[]);
        for (const name of names) {
          const rel = path.join(top, shard, name);
          if (name.includes(".tmp-")) {
            // Left behind by a process that stopped mid-write.
            await unlink(absolute(rel)).catch(ignoreMissing);
            continue;
          }
          const info = await stat(absolute(rel)).catch(() => null);
          if (info?.isFile()) found.push({ rel, size: info.size, mtime: info.mtimeMs });
        }
      }
    }
    found.sort((a, b) => a.mtime - b.mtime);
    // Files this process used while the scan ran are the most recent: keep them last.
    const during = [...index.entries()];
    index.clear();
    totalBytes = 0;
    const seen = new Set(during.map(([rel]) => rel));
    for (const file of found) if (!seen.has(file.rel)) indexFile(file.rel, file.size, file.mtime);
    for (const [rel, entry] of during) indexFile(rel, entry.size, entry.diskTouchedAt);
    await evictIfNeeded("");
  }

  const ready = mkdir(options.dir, { recursive: true })
    .then(scan)
    .catch((error) => report({ url: options.dir, code: "STORE_FAILED", message: `cannot index the image directory: ${errorMessage(error)}` }));

  return {
    ready,
    usage: () => ({ bytes: totalBytes, files: index.size }),
    placeholder,
    async variant(request) {
      const key = createHash("sha256").update(request.url).digest("hex").slice(0, 32);
      const rel = `variants/${key.slice(0, 2)}/${key}-${request.width}x${request.height}.${EXTENSIONS[request.format]}`;
      const hot = memory.get(rel);
      if (hot) {
        touch(rel);
        return hot;
      }
      const image = await coalesce(rendering, rel, () => render(request, key, rel));
      if (!image.placeholder) memory.set(rel, image);
      return image;
    },
  };
}

/** Runs `work` once for a key while it is under way: callers arriving meanwhile share its result. */
function coalesce<T>(running: Map<string, Promise<T>>, key: string, work: () => Promise<T>): Promise<T> {
  const current = running.get(key);
  if (current) return current;
  const started = work().finally(() => running.delete(key));
  running.set(key, started);
  return started;
}

const originalPath = (key: string) => `originals/${key.slice(0, 2)}/${key}`;

function ignoreMissing(error: unknown) {
  if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
}

const FETCH_CODES: Partial<Record<string, ImageFailureCode>> = {
  TIMEOUT: "TIMEOUT",
  BODY_TOO_LARGE: "BODY_TOO_LARGE",
  BLOCKED_ADDRESS: "BLOCKED_ADDRESS",
};

function asUnavailable(error: unknown): ImageUnavailableError {
  if (error instanceof ImageUnavailableError) return error;
  if ((error as { code?: unknown } | null)?.code === "NOT_AN_IMAGE") {
    return new ImageUnavailableError("NOT_AN_IMAGE", errorMessage(error), { cause: error });
  }
  if (isFetchError(error)) return new ImageUnavailableError(FETCH_CODES[error.code] ?? "FETCH_FAILED", error.message, { cause: error });
  return new ImageUnavailableError("FETCH_FAILED", errorMessage(error), { cause: error });
}
