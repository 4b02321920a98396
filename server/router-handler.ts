import { createReadableStreamFromReadable, writeReadableStreamToWritable } from "@react-router/node";
import type { NextFunction, Request as ExpressRequest, Response as ExpressResponse } from "express";
import { createRequestHandler, type AppLoadContext, type ServerBuild } from "react-router";
import { bufferedBody } from "./body-limit";

/** The URL a request was made to: the Host header (or X-Forwarded-Host from a trusted proxy) and the scheme the connection reports. */
export function requestUrl(req: ExpressRequest): URL {
  // req.hostname is the trusted proxy's X-Forwarded-Host when there is one: the port comes from the same header.
  const forwardedHost = req.app?.enabled("trust proxy") ? req.get("X-Forwarded-Host") : undefined;
  const [, portText] = (forwardedHost ?? req.get("host"))?.split(",")[0]?.trim().split(":") ?? [];
  const parsedPort = Number.parseInt(portText ?? "", 10);
  const port = Number.isSafeInteger(parsedPort) ? parsedPort : undefined;
  const hostname = req.hostname.split(/[\\/?#@]/)[0] || "localhost";
  return new URL(`${req.protocol}://${hostname}${port === undefined ? "" : `:${port}`}${req.originalUrl}`);
}

/**
 * React Router's request handler for Express: the body as `limitRequestBodies` read it (the
 * framework's own Express adapter can only stream the request itself), and the response streamed back.
 */
export function routerHandler(options: {
  build: ServerBuild | (() => Promise<ServerBuild>);
  getLoadContext: (req: ExpressRequest) => AppLoadContext;
  mode?: string;
}) {
  const handle = createRequestHandler(options.build, options.mode ?? process.env.NODE_ENV);
  return async (req: ExpressRequest, res: ExpressResponse, next: NextFunction) => {
    try {
      const response = await handle(toFetchRequest(req, res), options.getLoadContext(req));
      await sendResponse(res, response);
    } catch (error) {
      next(error);
    }
  };
}

function toFetchRequest(req: ExpressRequest, res: ExpressResponse): Request {
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
  return new Request(requestUrl(req).href, init);
}

async function sendResponse(res: ExpressResponse, response: Response): Promise<void> {
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
    await writeReadableStreamToWritable(response.body, res);
  } catch (error) {
    if (res.destroyed || res.writableEnded) return;
    throw error;
  }
}
