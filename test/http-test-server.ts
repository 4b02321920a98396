import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { escapeXml } from "~/lib/xml";

export type TestServer = {
  /** http://127.0.0.1:PORT */
  url: string;
  /** The same server under a name the guard does not allow: http://localhost:PORT */
  localhostUrl: string;
  /** Every request path seen, in order. */
  hits: string[];
  handle(pathname: string, handler: (req: IncomingMessage, res: ServerResponse) => void): void;
  close(): Promise<void>;
};

/** A programmable HTTP server on 127.0.0.1 for behaviours a fixture file cannot express (ETags, drips, redirects). */
export async function startTestServer(): Promise<TestServer> {
  const handlers = new Map<string, (req: IncomingMessage, res: ServerResponse) => void>();
  const hits: string[] = [];
  const server = createServer((req, res) => {
    const pathname = new URL(req.url ?? "/", "http://test").pathname;
    hits.push(pathname);
    const handler = handlers.get(pathname);
    if (handler) return handler(req, res);
    res.writeHead(404, { "content-type": "text/plain" }).end("not found");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    localhostUrl: `http://localhost:${port}`,
    hits,
    handle: (pathname, handler) => void handlers.set(pathname, handler),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** An RSS 2.0 document with the given items. */
export function rssFeed(items: { title: string; link?: string; description?: string; content?: string; image?: string; pubDate?: string }[], title = "Test feed"): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:media="http://search.yahoo.com/mrss/">
<channel><title>${escapeXml(title)}</title><link>https://feed.example/</link><description>Tests</description>
${items
  .map(
    (item) => `<item><title>${escapeXml(item.title)}</title>${item.link ? `<link>${escapeXml(item.link)}</link>` : ""}
<description>${escapeXml(item.description ?? `About ${item.title}.`)}</description>
${item.content ? `<content:encoded><![CDATA[${item.content}]]></content:encoded>` : ""}
${item.image ? `<media:content url="${escapeXml(item.image)}" medium="image"/>` : ""}
<pubDate>${item.pubDate ?? "Sun, 01 Mar 2026 10:00:00 GMT"}</pubDate></item>`,
  )
  .join("\n")}
</channel></rss>`;
}

/** A port on 127.0.0.1 that nothing listens on (yet). */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/**
 * POSTs `bytes` of body with its length declared, written in 64 KB pieces as the server drains them,
 * so the client never holds it; resolves with the answer. A server that answers early and closes
 * (413) cuts the upload: that is not an error here.
 */
export function postDeclaredBytes(
  url: string,
  bytes: number,
  headers: Record<string, string> = { "content-type": "application/json" },
): Promise<{ status: number; headers: IncomingMessage["headers"]; body: string }> {
  const chunk = Buffer.alloc(64 * 1024, "a");
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { method: "POST", headers: { ...headers, "content-length": bytes } }, (response) => {
      let body = "";
      response.on("data", (c: Buffer) => (body += c.toString()));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
    });
    request.on("error", (error: NodeJS.ErrnoException) => (error.code === "EPIPE" || error.code === "ECONNRESET" ? undefined : reject(error)));
    let sent = 0;
    const write = () => {
      while (sent < bytes) {
        const part = chunk.subarray(0, Math.min(chunk.length, bytes - sent));
        sent += part.length;
        if (!request.write(part)) return void request.once("drain", write);
      }
      request.end();
    };
    write();
  });
}
