import { imageSize } from "image-size";
import type { HttpClient } from "~/integrations/http/types";

/** An image's measured size, read from the head of its bytes. */
export type ProbedImage = {
  /** The final URL, after redirects. */
  url: string;
  width: number;
  height: number;
  /** jpg, png, webp, gif, avif, svg, heic, bmp, ico, tiff... as the bytes say, whatever the Content-Type claims. */
  type: string;
  /** The Content-Length, when the server sent one. */
  bytes: number | null;
};

/** HTTP_STATUS: a non-2xx answer; NOT_AN_IMAGE: the bytes are no image; UNREADABLE: an image whose size cannot be read. */
export type ImageProbeErrorCode = "HTTP_STATUS" | "NOT_AN_IMAGE" | "UNREADABLE";

// Recognised by a registry-wide brand rather than instanceof, as FetchError is: bundles may hold their own copy of the class.
const BRAND = Symbol.for("oddwire.ImageProbeError");

/** Why an image could not be measured: an HTTP error, bytes that are no image, or an image whose size cannot be read. */
export class ImageProbeError extends Error {
  override name = "ImageProbeError";
  readonly code: ImageProbeErrorCode;
  readonly url: string;
  /** The HTTP status for HTTP_STATUS, else the status of the answer that was read. */
  readonly status: number | null;
  readonly [BRAND] = true;

  constructor(code: ImageProbeErrorCode, url: string, message: string, options: { status?: number | null; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.url = url;
    this.status = options.status ?? null;
  }
}

/** Narrows an unknown thrown value to an ImageProbeError. */
export function isImageProbeError(error: unknown): error is ImageProbeError {
  return typeof error === "object" && error !== null && (error as { [BRAND]?: unknown })[BRAND] === true;
}

/** How much of an image is read by default: its header, and the metadata most JPEGs put before their frame header. */
export const DEFAULT_HEADER_BYTES = 128 * 1024;
/** The second, last try when the size was not in the first head (a JPEG with large metadata before its frame header). */
export const MAX_HEADER_BYTES = 1024 * 1024;
const ACCEPT = "image/avif,image/webp,image/apng,image/svg+xml,image/*;q=0.8,*/*;q=0.5";

type Measured = { width: number; height: number; type: string };
type Reading = Measured | "not-an-image" | "incomplete";

/**
 * Measures an image by reading only the head of its bytes (the rest is never downloaded). Throws
 * ImageProbeError for a non-2xx answer, bytes that are no image, or an unreadable one; fetch errors
 * (FetchError) pass through.
 */
export async function probeImage(
  http: HttpClient,
  url: string,
  options: { signal?: AbortSignal; maxHeaderBytes?: number } = {},
): Promise<ProbedImage> {
  const headerBytes = options.maxHeaderBytes ?? DEFAULT_HEADER_BYTES;
  let head = await fetchHead(http, url, headerBytes, options.signal);
  let reading = readSize(head.body);
  if (reading === "incomplete" && head.truncated && headerBytes < MAX_HEADER_BYTES) {
    head = await fetchHead(http, url, MAX_HEADER_BYTES, options.signal);
    reading = readSize(head.body);
  }
  if (reading === "not-an-image") {
    const described = head.contentType ? `${head.contentType} bytes` : "bytes";
    throw new ImageProbeError("NOT_AN_IMAGE", head.url, `${described} that are not an image`, { status: head.status });
  }
  if (reading === "incomplete") {
    const why = head.truncated ? `no size in its first ${head.body.length} bytes` : "its size cannot be read";
    throw new ImageProbeError("UNREADABLE", head.url, `an image, but ${why}`, { status: head.status });
  }
  return { url: head.url, ...reading, bytes: contentLength(head.headers) };
}

async function fetchHead(http: HttpClient, url: string, bytes: number, signal: AbortSignal | undefined) {
  // The body cap follows the head's size, so a client with a smaller cap still reads the whole head.
  const response = await http.fetch(url, { headers: { accept: ACCEPT }, firstBytes: bytes, maxBodyBytes: bytes, signal });
  if (response.status < 200 || response.status >= 300) {
    throw new ImageProbeError("HTTP_STATUS", response.url, `HTTP ${response.status}`, { status: response.status });
  }
  return response;
}

/** The image's displayed size from its first bytes, "incomplete" when they are an image whose size lies further on. */
function readSize(head: Buffer): Reading {
  if (head.length === 0) return "not-an-image";
  const svgAt = svgRootOffset(head);
  if (svgAt !== null) return svgSize(head.subarray(svgAt));
  // Markup that is not an SVG: an error page, or a page that claims to be an image.
  if (/^(?:\xef\xbb\xbf)?\s*</.test(head.subarray(0, 256).toString("latin1"))) return "not-an-image";
  let size: ReturnType<typeof imageSize>;
  try {
    size = imageSize(head);
  } catch (error) {
    return /unsupported file type/.test(String((error as Error)?.message)) ? "not-an-image" : "incomplete";
  }
  const type = normaliseType(size.type ?? "");
  if (!(size.width > 0 && size.height > 0)) return "incomplete";
  // EXIF orientations 5 to 8 turn the picture a quarter: it is shown with its sides swapped.
  const turned = (size.orientation ?? 1) >= 5;
  return { width: turned ? size.height : size.width, height: turned ? size.width : size.height, type };
}

const HEIF_BRANDS: Record<string, string> = { avif: "avif", avis: "avif", heic: "heic", heix: "heic", hevc: "heic", hevx: "heic", mif1: "heif", msf1: "heif" };

function normaliseType(type: string): string {
  if (type in HEIF_BRANDS) return HEIF_BRANDS[type]!;
  return type === "jxl-stream" ? "jxl" : type;
}

/** Where the <svg> root starts when the text is an SVG document (prolog, comments and doctype skipped), else null. */
function svgRootOffset(head: Buffer): number | null {
  const text = head.subarray(0, 16 * 1024).toString("latin1");
  const prolog = /^(?:\xef\xbb\xbf)?(?:\s+|<\?[\s\S]*?\?>|<!--[\s\S]*?-->|<!doctype[^[>]*(?:\[[\s\S]*?\])?\s*>)*/i.exec(text);
  const at = prolog ? prolog[0].length : 0;
  return /^<svg[\s>]/i.test(text.slice(at)) ? at : null;
}

/** An SVG's declared size (width and height, else its viewBox); 0 x 0 when it declares none. */
function svgSize(svg: Buffer): Reading {
  if (!/^<svg(?:[^>"']|"[^"]*"|'[^']*')*>/.test(svg.subarray(0, 16 * 1024).toString("latin1"))) return "incomplete";
  try {
    const size = imageSize(svg);
    return { width: size.width, height: size.height, type: "svg" };
  } catch {
    return { width: 0, height: 0, type: "svg" };
  }
}

function contentLength(headers: Record<string, string>): number | null {
  const value = headers["content-length"];
  if (value === undefined || !/^\d+$/.test(value.trim())) return null;
  const bytes = Number(value);
  return Number.isSafeInteger(bytes) ? bytes : null;
}
