import { createReadableStreamFromReadable } from "@react-router/node";
import type { NextFunction, Request as ExpressRequest, Response as ExpressResponse } from "express";
import { createRequestHandler, type AppLoadContext, type ServerBuild } from "react-router";
import { bufferedBody } from "./body-limit";

const DEFAULT_PORTS: Record<string, string> = { "http:": "80", "https:": "443" };

/**
 * The URL a request was made to. Its host is the Host header (or X-Forwarded-Host from a trusted
 * proxy). Its scheme is SITE_URL's when the host is SITE_URL's: a TLS proxy that forwards the Host
 * but not X-Forwarded-Proto still makes an https request, and the framework compares a form's
 * Origin with this URL. Any other host keeps the scheme the connection (or a trusted proxy) reports.
 */
export function requestUrl(req: ExpressRequest, siteUrl: string): URL {
  // req.hostname is the trusted proxy's X-Forwarded-Host when there is one: the port comes from the same header.
  const trusted = req.app?.get("trust proxy fn") as ((address: string | undefined, hop: number) => boolean) | undefined;
  const forwardedHost = trusted?.(req.socket.remoteAddress, 0) ? req.get("X-Forwarded-Host") : undefined;
  const [, portText] = (forwardedHost ?? req.get("host"))?.split(",")[0]?.trim().split(":") ?? [];
  const parsedPort = Number.parseInt(portText ?? "", 10);
  const port = Number.isSafeInteger(parsedPort) ? parsedPort : undefined;
  const hostname = req.hostname.split(/[\\/?#@]/)[0] || "localhost";
  const site = new URL(siteUrl);
  const portOf = (value: string, protocol: string) => (value === "" || value === DEFAULT_PORTS[protocol] ? "" : value);
  const sameHost = hostname.toLowerCase() === site.hostname && portOf(port === undefined ? "" : String(port), site.protocol) === site.port;
  const protocol = sameHost ? site.protocol.slice(0, -1) : req.protocol;
  return new URL(`${protocol}://${hostname}${port === undefined ? "" : `:${port}`}${req.originalUrl}`);
}

/**
 * React Router's request handler for Express: the request URL judged against SITE_URL
 * (`requestUrl`), the body as `limitRequestBodies` read it, and the response streamed back.
 */
export function routerHandler(options: {
  build: ServerBuild | (() => Promise<ServerBuild>);
  siteUrl: string;
  getLoadContext: (req: ExpressRequest) => AppLoadContext;
  mode?: string;
}) {
  const handle = createRequestHandler(options.build, options.mode ?? process.env.NODE_ENV);
  return async (req: ExpressRequest, res: ExpressResponse, next: NextFunction) => {
    try {
      const response = await handle(toFetchRequest(req, res, options.siteUrl), options.getLoadContext(req));
      await sendResponse(res, response);
    } catch (error) {
      next(error);
    }
  };
}

function toFetchRequest(req: ExpressRequest, res: ExpressResponse, siteUrl: string): Request {
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
  if (req.method !== "GET" && req.method !== "HEAD") {
    const body = bufferedBody(req);
    if (body) init.body = new Uint8Array(body);
    else if (!req.readableEnded) {
      init.body = createReadableStreamFromReadable(req);
      init.duplex = "half";
    }
  }
  return new Request(requestUrl(req, siteUrl).href, init);
}

export async function sendResponse(res: ExpressResponse, response: Response): Promise<void> {
  if (res.destroyed || res.writableEnded) {
    await response.body?.cancel();
    return;
  }
  res.statusMessage = response.statusText;
  res.status(response.status);
  for (const [name, value] of response.headers.entries()) res.append(name, value);
  if (response.headers.get("Content-Type")?.match(/text\/event-stream/i)) res.flushHeaders();
  if (!response.body) {
    res.end();
    return;
  }
  try {
    await writeBody(response.body, res);
  } catch (error) {
    if (res.destroyed || res.writableEnded) return;
    throw error;
  }
}

/**
 * Streams a body into the response, waiting for 'drain' when the response is full. One 'drain'
 * listener serves the whole response: the compression middleware hands 'drain' listeners to its
 * zlib stream and cannot take them off again (expressjs/compression#135), so a listener per wait, as
 * @react-router/node's writer adds, piles up on a long page and warns of a leak.
 */
async function writeBody(body: ReadableStream<Uint8Array>, res: ExpressResponse): Promise<void> {
  const reader = body.getReader();
  let resume: (() => void) | null = null;
  const wake = () => {
    const waiting = resume;
    resume = null;
    waiting?.();
  };
  res.on("drain", wake);
  res.once("close", wake);
  const flushable = res as ExpressResponse & { flush?: () => void };
  try {
    for (;;) {
      if (res.destroyed) {
        await reader.cancel();
        return;
      }
      const { done, value } = await reader.read();
      if (done) {
        res.end();
        return;
      }
      const roomLeft = res.write(value);
      // Streamed parts of a page (React's Suspense boundaries) leave at once, not when zlib's buffer fills.
      flushable.flush?.();
      if (!roomLeft && !res.destroyed) await new Promise<void>((resolve) => (resume = resolve));
    }
  } catch (error) {
    await reader.cancel(error).catch(() => {});
    if (!res.destroyed) res.destroy(error as Error);
    throw error;
  } finally {
    res.off("close", wake);
  }
}
