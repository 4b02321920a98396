import { createHash } from "node:crypto";
import { promisify } from "node:util";
import { brotliCompress, constants as zlib, gzip } from "node:zlib";

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** The encodings a page is kept in: compressed once when it is rendered, never per request. */
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

/** A rendered page as it is kept: its headers that matter, its body as identity, br and gzip, each with its ETag. */
export async function makeEntry(status: number, headers: Headers, body: Buffer, storedAt: number): Promise<Entry> {
  const kept = keptHeaders(headers);
  const hash = createHash("sha1").update(withoutNonce(body, kept)).digest("base64url");
  const variants: Entry["variants"] = { identity: { body, etag: `W/"${hash}"` } };
  if (body.length >= COMPRESS_MIN_BYTES) {
    const [br, gz] = await Promise.all([
      brotli(body, {
        params: {
          [zlib.BROTLI_PARAM_QUALITY]: body.length >= LARGE_BODY_BYTES ? LARGE_BODY_BROTLI_QUALITY : BROTLI_QUALITY,
          [zlib.BROTLI_PARAM_SIZE_HINT]: body.length,
        },
      }),
      gzipAsync(body, { level: GZIP_LEVEL }),
    ]);
    if (br.length < body.length) variants.br = { body: br, etag: `W/"${hash}-br"` };
    if (gz.length < body.length) variants.gzip = { body: gz, etag: `W/"${hash}-gz"` };
  }
  return { status, headers: kept, variants, storedAt };
}

/**
 * The body as its ETag is computed: without the script nonce of its Content-Security-Policy, which
 * changes on every render. A page rendered again with the same content (every few seconds, or by
 * another web process) keeps its ETag, so a reader revalidating gets 304; a 304 carries no policy,
 * so the reader keeps the one that goes with the nonce its copy holds.
 */
function withoutNonce(body: Buffer, headers: Entry["headers"]): Buffer {
  const policy = headers.find(([name]) => name === "content-security-policy")?.[1];
  const nonce = typeof policy === "string" ? /'nonce-([^']+)'/.exec(policy)?.[1] : undefined;
  return nonce ? Buffer.from(body.toString("utf8").replaceAll(nonce, "")) : body;
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
