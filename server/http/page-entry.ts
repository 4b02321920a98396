import { createHash } from "node:crypto";
import { promisify } from "node:util";
import { brotliCompress, constants as zlib, gzip } from "node:zlib";

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** The encodings a page is kept in: each made once (when rendered, or when first asked for), never per request. */
export type Encoding = "br" | "gzip" | "identity";
export type Variant = {
  body: Buffer;
  etag: string;
  /** Every header line of a fresh hit on this variant, flat (name, value, ...), made on the first such hit. */
  hit?: string[];
  /** The same for a 304 answered with this variant's ETag. */
  notModified?: string[];
};

/** A page as the page cache keeps it (in memory, and as a shared copy on disk: server/http/page-copies.ts). */
export type Entry = {
  status: number;
  /** Header lines as written, the variant's own (ETag, Content-Encoding, Content-Length) added when sent. */
  headers: [string, string | string[]][];
  variants: Partial<Record<Encoding, Variant>> & { identity: Variant };
  storedAt: number;
};

/**
 * How hard a page is compressed when it is rendered: the first reader waits for it. Measured on the
 * 40 KB home page (2 cores, Node 20): brotli quality 5 takes 0.5 ms for 6,260 bytes, quality 9 11 ms
 * for 6,220; gzip level 6 and 9 both about 0.35 ms.
 */
const BROTLI_QUALITY = 5;
/**
 * Bodies of this size or more (a story sitemap of 2,000 URLs is 290 KB) are compressed with brotli
 * quality 4: measured on that sitemap (2 cores, Intel Xeon, Node 20), quality 5 takes 3.4 ms for
 * 30,503 bytes, quality 4 2.1 ms for 33,210, beside gzip's 2.2 ms run at the same time.
 */
const LARGE_BODY_BYTES = 128 * 1024;
const LARGE_BODY_BROTLI_QUALITY = 4;
const GZIP_LEVEL = 6;
/** Bodies smaller than this are kept and sent as they are: compressing them saves nothing worth a CPU cycle. */
const COMPRESS_MIN_BYTES = 1_024;
// The policy goes with the page: its nonce is the one its scripts carry.
const KEPT_HEADERS = ["content-type", "cache-control", "link", "vary", "x-robots-tag", "content-security-policy"];

/** Every encoding a page can be kept in: `chooseEncoding(header, ALL_ENCODINGS)` is the one a reader prefers. */
export const ALL_ENCODINGS: Record<Encoding, true> = { br: true, gzip: true, identity: true };

/** Accept-Encoding values seen, read once each: browsers send a handful of distinct ones. */
const acceptedByHeader = new Map<string, { br: boolean; gzip: boolean }>();

/** The best encoding the request accepts among those kept: br, then gzip, else identity (q=0 refuses). */
export function chooseEncoding(acceptEncoding: string | string[] | undefined, available: Partial<Record<Encoding, unknown>>): Encoding {
  const header = Array.isArray(acceptEncoding) ? acceptEncoding.join(",") : (acceptEncoding ?? "");
  if (header === "") return "identity";
  let accepts = acceptedByHeader.get(header);
  if (!accepts) {
    accepts = readAcceptEncoding(header);
    if (acceptedByHeader.size >= 256) acceptedByHeader.clear();
    acceptedByHeader.set(header, accepts);
  }
  if (available.br && accepts.br) return "br";
  if (available.gzip && accepts.gzip) return "gzip";
  return "identity";
}

function readAcceptEncoding(header: string): { br: boolean; gzip: boolean } {
  const accepted = new Map<string, number>();
  for (const part of header.toLowerCase().split(",")) {
    const [name, ...params] = part.split(";").map((p) => p.trim());
    if (!name) continue;
    const q = params.find((p) => p.startsWith("q="));
    accepted.set(name, q === undefined ? 1 : Number(q.slice(2)) || 0);
  }
  const ok = (name: string) => (accepted.get(name) ?? accepted.get("*") ?? 0) > 0;
  return { br: ok("br"), gzip: ok("gzip") };
}

/** The encodings a page can be compressed in, each with what its ETag adds to the page's. */
export type Compressed = Exclude<Encoding, "identity">;
const COMPRESSED: readonly Compressed[] = ["br", "gzip"];
const ETAG_SUFFIX: Record<Compressed, string> = { br: "-br", gzip: "-gz" };

/**
 * A rendered page as it is kept: its headers that matter, its body as identity with its ETag, and the
 * given encodings of it (by default br and gzip), each with its own. Compressing takes as long as
 * rendering a small page (a 100 KB page: brotli 2.2 ms, gzip 2.0 ms; 2 cores, Node 20), so the page
 * cache makes at first only the one the reader who rendered the page takes (`addEncoding` makes the
 * others when first asked for).
 */
export async function makeEntry(status: number, headers: Headers, body: Buffer, storedAt: number, encodings: readonly Compressed[] = COMPRESSED): Promise<Entry> {
  const kept = keptHeaders(headers);
  const entry: Entry = { status, headers: kept, variants: { identity: { body, etag: `W/"${etagHash(body, kept)}"` } }, storedAt };
  await Promise.all(encodings.map((encoding) => addEncoding(entry, encoding)));
  return entry;
}

/**
 * Adds the page compressed as `encoding`, unless it is there already, or too small to gain from it,
 * or would not be smaller: true when the entry now holds it.
 */
export async function addEncoding(entry: Entry, encoding: Compressed): Promise<boolean> {
  if (entry.variants[encoding]) return true;
  const { body, etag } = entry.variants.identity;
  if (body.length < COMPRESS_MIN_BYTES) return false;
  const compressed =
    encoding === "br"
      ? await brotli(body, {
          params: {
            [zlib.BROTLI_PARAM_QUALITY]: body.length >= LARGE_BODY_BYTES ? LARGE_BODY_BROTLI_QUALITY : BROTLI_QUALITY,
            [zlib.BROTLI_PARAM_SIZE_HINT]: body.length,
          },
        })
      : await gzipAsync(body, { level: GZIP_LEVEL });
  if (compressed.length >= body.length) return false;
  entry.variants[encoding] = { body: compressed, etag: `${etag.slice(0, -1)}${ETAG_SUFFIX[encoding]}"` };
  return true;
}

/**
 * The hash in a page's ETags, of its body without the script nonce of its Content-Security-Policy,
 * which changes on every render. A page rendered again with the same content (every few seconds, or by
 * another web process) keeps its ETag, so a reader revalidating gets 304; a 304 carries no policy,
 * so the reader keeps the one that goes with the nonce its copy holds. The body is hashed piece by
 * piece around each nonce, never copied.
 */
function etagHash(body: Buffer, headers: Entry["headers"]): string {
  const policy = headers.find(([name]) => name === "content-security-policy")?.[1];
  const nonce = typeof policy === "string" ? /'nonce-([^']+)'/.exec(policy)?.[1] : undefined;
  const hash = createHash("sha1");
  let from = 0;
  if (nonce) {
    const needle = Buffer.from(nonce);
    for (let at = body.indexOf(needle); at !== -1; at = body.indexOf(needle, from)) {
      hash.update(body.subarray(from, at));
      from = at + needle.length;
    }
  }
  return hash.update(body.subarray(from)).digest("base64url");
}

/** The header lines a page is kept with. */
function keptHeaders(headers: Headers): Entry["headers"] {
  const kept: Entry["headers"] = [];
  for (const name of KEPT_HEADERS) {
    const value = headers.get(name);
    if (value !== null) kept.push([name, value]);
  }
  return kept;
}
