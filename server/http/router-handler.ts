import type { IncomingMessage, ServerResponse } from "node:http";
import type { Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { constants as zlib, createBrotliCompress, createGzip } from "node:zlib";
import { createReadableStreamFromReadable } from "@react-router/node";
import { createRequestHandler, type AppLoadContext, type ServerBuild } from "react-router";
import { bodyLeftUnread, bufferedBody } from "./body-limit";
import { requestHost, requestProtocol, type ProxyTrust } from "./client-address";
import { chooseEncoding } from "./page-entry";

const DEFAULT_PORTS: Record<string, string> = { "http:": "80", "https:": "443" };

/**
 * The URL a request was made to. Its host is the Host header (or X-Forwarded-Host from a trusted
 * proxy). Its scheme is SITE_URL's when the host is SITE_URL's: a TLS proxy that forwards the Host
 * but not X-Forwarded-Proto still makes an https request, and the framework compares a form's
 * Origin with this URL. Any other host keeps the scheme the connection (or a trusted proxy) reports.
 */
export function requestUrl(req: IncomingMessage, siteUrl: string, trust: ProxyTrust): URL {
  const host = requestHost(req, trust) ?? "";
  // An IPv6 literal keeps its colons: the port is after its closing bracket.
  const colon = host.indexOf(":", host.startsWith("[") ? host.indexOf("]") + 1 : 0);
  const hostname = (colon === -1 ? host : host.slice(0, colon)).split(/[\\/?#@]/)[0] || "localhost";
  const parsedPort = colon === -1 ? Number.NaN : Number.parseInt(host.slice(colon + 1), 10);
  const port = Number.isSafeInteger(parsedPort) ? parsedPort : undefined;
  const site = new URL(siteUrl);
  const portOf = (value: string, protocol: string) => (value === "" || value === DEFAULT_PORTS[protocol] ? "" : value);
  const sameHost = hostname.toLowerCase() === site.hostname && portOf(port === undefined ? "" : String(port), site.protocol) === site.port;
  const protocol = sameHost ? site.protocol.slice(0, -1) : requestProtocol(req, trust);
  return new URL(`${protocol}://${hostname}${port === undefined ? "" : `:${port}`}${req.url ?? "/"}`);
}

/**
 * React Router's request handler on a node request: the request URL judged against SITE_URL
 * (`requestUrl`), the body as `readRequestBody` read it, and a client that goes away cancelling the
 * work done for it (a body refused before it was read is left out). It resolves with the framework's answer; `sendResponse` sends it.
 */
export function createPageRenderer(options: { build: ServerBuild | (() => Promise<ServerBuild>); siteUrl: string; trust: ProxyTrust; mode?: string }) {
  const handle = createRequestHandler(options.build, options.mode ?? process.env.NODE_ENV);
  return (req: IncomingMessage, res: ServerResponse, context: AppLoadContext): Promise<Response> =>
    handle(toFetchRequest(req, res, options.siteUrl, options.trust), context);
}

function toFetchRequest(req: IncomingMessage, res: ServerResponse, siteUrl: string, trust: ProxyTrust): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  // A client that goes away cancels the work done for it.
  let controller: AbortController | null = new AbortController();
  const signal = controller.signal;
  res.on("finish", () => (controller = null));
  res.on("close", () => controller?.abort());
  const init: RequestInit & { duplex?: "half" } = { method: req.method, headers, signal };
  // A body refused before it was read (server/http/body-gate.ts) never reaches the handlers.
  if (req.method !== "GET" && req.method !== "HEAD" && !bodyLeftUnread(req)) {
    const body = bufferedBody(req);
    if (body) init.body = new Uint8Array(body);
    else if (!req.readableEnded) {
      init.body = createReadableStreamFromReadable(req);
      init.duplex = "half";
    }
  }
  return new Request(requestUrl(req, siteUrl, trust).href, init);
}

/** Types worth compressing: text, and the structured formats written as text. */
const COMPRESSIBLE = /^(?:text\/|application\/(?:json|javascript|xml|manifest\+json)|image\/svg\+xml)|\+(?:json|xml)\b/i;
/** Bodies known to be smaller than this are sent as they are: compressing them saves nothing worth a CPU cycle. */
const COMPRESS_MIN_BYTES = 1_024;
/**
 * How hard an answer the page cache does not keep is compressed, as it streams: brotli quality 4
 * and gzip level 6, the compression middleware's defaults, cheap enough for every such request.
 */
const STREAM_BROTLI_QUALITY = 4;

/**
 * The encoding an answer goes out in: br or gzip when the client takes one and the body is text of
 * unknown or sizeable length, else as it is. Sets Vary: Accept-Encoding whenever the answer could
 * have been compressed, so a shared cache keeps the forms apart.
 */
function encodingFor(req: IncomingMessage, res: ServerResponse, response: Response): "br" | "gzip" | "identity" {
  const type = response.headers.get("content-type");
  if (!response.body || !type || !COMPRESSIBLE.test(type) || response.headers.has("content-encoding")) return "identity";
  if (/\bno-transform\b/i.test(response.headers.get("cache-control") ?? "")) return "identity";
  const vary = res.getHeader("vary");
  if (!/\baccept-encoding\b|\*/i.test(String(vary ?? ""))) res.setHeader("Vary", vary ? `${String(vary)}, Accept-Encoding` : "Accept-Encoding");
  if (req.method === "HEAD" || response.status === 204 || response.status === 304) return "identity";
  const length = response.headers.get("content-length");
  if (length !== null && Number(length) < COMPRESS_MIN_BYTES) return "identity";
  return chooseEncoding(req.headers["accept-encoding"], { br: true, gzip: true });
}

/**
 * Sends a framework answer: its status and headers, and its body as it streams, compressed by
 * `encodingFor` when `compress` is set (the page cache sends what it keeps compressed already).
 */
export async function sendResponse(req: IncomingMessage, res: ServerResponse, response: Response, options: { compress?: boolean } = {}): Promise<void> {
  if (res.destroyed || res.writableEnded) {
    await response.body?.cancel();
    return;
  }
  res.statusMessage = response.statusText;
  res.statusCode = response.status;
  for (const [name, value] of response.headers.entries()) res.appendHeader(name, value);
  const encoding = options.compress ? encodingFor(req, res, response) : "identity";
  if (response.headers.get("Content-Type")?.match(/text\/event-stream/i)) res.flushHeaders();
  if (!response.body || req.method === "HEAD") {
    await response.body?.cancel();
    res.end();
    return;
  }
  try {
    if (encoding === "identity") return await writeBody(response.body, res, res);
    res.removeHeader("Content-Length");
    res.setHeader("Content-Encoding", encoding);
    const zip =
      encoding === "br"
        ? createBrotliCompress({ params: { [zlib.BROTLI_PARAM_QUALITY]: STREAM_BROTLI_QUALITY } })
        : createGzip({ level: zlib.Z_DEFAULT_COMPRESSION });
    // Its failure (the reader hung up) is read once the body is written, and must not go unhandled till then.
    const sent = pipeline(zip, res).then(
      () => null,
      (error: unknown) => error,
    );
    // Streamed parts of a page (React's Suspense boundaries) leave at once, not when zlib's buffer fills.
    await writeBody(response.body, zip, res, () => zip.flush()).catch((error: unknown) => {
      zip.destroy();
      throw error;
    });
    const failure = await sent;
    if (failure) throw failure;
  } catch (error) {
    if (res.destroyed || res.writableEnded) return;
    throw error;
  }
}

/**
 * Streams a body into `sink` (the response, or the zlib stream in front of it), waiting for 'drain'
 * when the sink is full, and stopping, the body cancelled, when the reader hangs up. One 'drain'
 * listener serves the whole body, not one per wait: a long page waits thousands of times.
 */
async function writeBody(body: ReadableStream<Uint8Array>, sink: Writable, res: ServerResponse, flush?: () => void): Promise<void> {
  const reader = body.getReader();
  let resume: (() => void) | null = null;
  const wake = () => {
    const waiting = resume;
    resume = null;
    waiting?.();
  };
  sink.on("drain", wake);
  res.once("close", wake);
  try {
    for (;;) {
      if (res.destroyed) {
        await reader.cancel();
        return;
      }
      const { done, value } = await reader.read();
      if (done) {
        sink.end();
        return;
      }
      const roomLeft = sink.write(value);
      flush?.();
      if (!roomLeft && !res.destroyed) await new Promise<void>((resolve) => (resume = resolve));
    }
  } catch (error) {
    await reader.cancel(error).catch(() => {});
    if (!res.destroyed) res.destroy(error as Error);
    throw error;
  } finally {
    sink.off("drain", wake);
    res.off("close", wake);
  }
}
