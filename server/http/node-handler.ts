import type { IncomingMessage, ServerResponse } from "node:http";

/**
 * A handler in the connect style, as Vite's dev middlewares and the benchmarks' own are: it answers,
 * or calls `next` to let the next one try (with an error, to fail the request).
 */
export type NodeMiddleware = (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void;

/** A handler that answers every request it is given (the caller chose it by the request's address). */
export type NodeHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void> | void;

/** The path of a request URL, without its query. */
export function pathOf(req: IncomingMessage): string {
  const url = req.url ?? "/";
  const query = url.indexOf("?");
  return query === -1 ? url : url.slice(0, query);
}

/** Answers with a body, its length and type set; HEAD gets the headers alone. */
export function sendBody(req: IncomingMessage, res: ServerResponse, status: number, body: Buffer | string, headers: Record<string, string>): void {
  const bytes = typeof body === "string" ? Buffer.from(body) : body;
  res.statusCode = status;
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.setHeader("Content-Length", String(bytes.length));
  res.end(req.method === "HEAD" ? undefined : bytes);
}

/** Answers JSON. */
export function sendJson(req: IncomingMessage, res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  sendBody(req, res, status, JSON.stringify(value), { "Content-Type": "application/json; charset=utf-8", ...headers });
}
