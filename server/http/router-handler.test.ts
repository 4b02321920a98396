import http from "node:http";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { compileTrust } from "./client-address";
import { requestUrl, sendResponse } from "./router-handler";

// A real server answering the URL it judges each request was made to, for two SITE_URLs.
const servers: Server[] = [];
const bases: Record<string, number> = {};
beforeAll(async () => {
  for (const site of ["https://news.oddwire.test", "http://localhost:3000", "https://untrusting.oddwire.test"]) {
    // The third trusts one proxy elsewhere (TRUST_PROXY=10.0.0.1), not the loopback peer the tests
    // connect from; the others trust the loopback proxy in front of them.
    const trust = compileTrust(site.startsWith("https://untrusting") ? ["10.0.0.1"] : ["loopback"]);
    const server = createServer((req, res) => void res.end(requestUrl(req, site, trust).href)).listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    servers.push(server);
    bases[site] = (server.address() as AddressInfo).port;
  }
});
afterAll(async () => {
  for (const server of servers) await new Promise((resolve) => server.close(resolve));
});

// node:http, since fetch does not let a caller set Host: a proxy does.
function urlSeen(site: string, headers: Record<string, string>, path = "/admin/categories.data?index"): Promise<string> {
  return new Promise((resolve, reject) => {
    const request = http.request({ host: "127.0.0.1", port: bases[site], path, method: "POST", headers }, (response) => {
      let body = "";
      response.on("data", (chunk: Buffer) => (body += chunk.toString()));
      response.on("end", () => resolve(body));
    });
    request.on("error", reject);
    request.end();
  });
}

describe("the URL a request was made to", () => {
  test("behind a TLS proxy that forwards the Host but not X-Forwarded-Proto, it is SITE_URL's https URL", async () => {
    expect(await urlSeen("https://news.oddwire.test", { host: "news.oddwire.test" })).toBe("https://news.oddwire.test/admin/categories.data?index");
    expect(await urlSeen("https://news.oddwire.test", { host: "News.Oddwire.test:443" })).toBe("https://news.oddwire.test/admin/categories.data?index");
    expect(await urlSeen("https://news.oddwire.test", { host: "127.0.0.1:8080", "x-forwarded-host": "news.oddwire.test" })).toBe(
      "https://news.oddwire.test/admin/categories.data?index",
    );
  });

  test("another host keeps the scheme of the connection", async () => {
    expect(await urlSeen("https://news.oddwire.test", { host: "elsewhere.test" })).toBe("http://elsewhere.test/admin/categories.data?index");
    expect(await urlSeen("https://news.oddwire.test", { host: "news.oddwire.test:8443" })).toBe("http://news.oddwire.test:8443/admin/categories.data?index");
    expect(await urlSeen("http://localhost:3000", { host: "127.0.0.1:3000" })).toBe("http://127.0.0.1:3000/admin/categories.data?index");
    expect(await urlSeen("http://localhost:3000", { host: "localhost:3000", "x-forwarded-proto": "https" })).toBe("http://localhost:3000/admin/categories.data?index");
  });
});

describe("forwarded headers from a peer that is not a trusted proxy", () => {
  test("are ignored: the Host header names the site, and the scheme is the connection's", async () => {
    const site = "https://untrusting.oddwire.test";
    expect(await urlSeen(site, { host: "127.0.0.1:8080", "x-forwarded-host": "untrusting.oddwire.test" })).toBe("http://127.0.0.1:8080/admin/categories.data?index");
    expect(await urlSeen(site, { host: "elsewhere.test", "x-forwarded-proto": "https" })).toBe("http://elsewhere.test/admin/categories.data?index");
    expect(await urlSeen(site, { host: "untrusting.oddwire.test" })).toBe("https://untrusting.oddwire.test/admin/categories.data?index");
  });
});

/** A real server whose every answer is `respond`'s Response, sent as the pages are (compressed as it streams). */
async function serving(respond: (req: IncomingMessage) => Response, options: { compress?: boolean } = { compress: true }) {
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    sendResponse(req, res, respond(req), options).catch(() => res.destroy());
  }).listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** A body of `count` chunks, made as they are read. */
function chunks(chunk: Uint8Array, count: number): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent++ < count) controller.enqueue(chunk);
      else controller.close();
    },
  });
}

describe("a long page sent compressed as it streams", () => {
  test("arrives whole under back-pressure, br or gzip, without piling 'drain' listeners on the zlib stream", async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => void warnings.push(warning);
    process.on("warning", onWarning);
    // 40 chunks of 64 KiB, each over zlib's 16 KiB buffer: every write has to wait for 'drain'.
    const chunk = new Uint8Array(64 * 1024).map((_, i) => (i * 7919) % 251);
    const server = await serving(() => new Response(chunks(chunk, 40), { headers: { "content-type": "text/html" } }));
    try {
      for (const encoding of ["gzip", "br"]) {
        const response = await fetch(`${server.base}/long`, { headers: { "accept-encoding": encoding } });
        expect(response.headers.get("content-encoding")).toBe(encoding);
        expect(response.headers.get("vary")).toBe("Accept-Encoding");
        expect((await response.arrayBuffer()).byteLength).toBe(40 * chunk.length);
      }
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.filter((w) => w.name === "MaxListenersExceededWarning").map((w) => w.message)).toEqual([]);
    } finally {
      process.off("warning", onWarning);
      await server.close();
    }
  });

  test("a reader who hangs up mid-page stops the page being rendered, compressed or not", async () => {
    for (const encoding of ["gzip", "identity"]) {
      let cancelled: (() => void) | undefined;
      const wasCancelled = new Promise<void>((resolve) => (cancelled = resolve));
      const server = await serving(
        () =>
          new Response(
            new ReadableStream<Uint8Array>({
              pull: (controller) => controller.enqueue(new Uint8Array(64 * 1024).fill(97)),
              cancel: () => cancelled?.(),
            }),
            { headers: { "content-type": "text/html" } },
          ),
      );
      try {
        const controller = new AbortController();
        const response = await fetch(`${server.base}/endless`, { headers: { "accept-encoding": encoding }, signal: controller.signal });
        expect(response.headers.get("content-encoding")).toBe(encoding === "identity" ? null : encoding);
        await response.body!.getReader().read();
        controller.abort();
        await wasCancelled;
      } finally {
        await server.close();
      }
    }
  });

  test("each part of a streamed page leaves as it is rendered, not when zlib's buffer fills", async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const encoder = new TextEncoder();
    const server = await serving(
      () =>
        new Response(
          new ReadableStream<Uint8Array>({
            async start(controller) {
              controller.enqueue(encoder.encode("<main>the shell</main>"));
              // The rest (a Suspense boundary) comes only once the reader has the first part.
              await held;
              controller.enqueue(encoder.encode("<p>the rest</p>"));
              controller.close();
            },
          }),
          { headers: { "content-type": "text/html; charset=utf-8" } },
        ),
    );
    try {
      const response = await fetch(`${server.base}/streamed`, { headers: { "accept-encoding": "gzip" } });
      expect(response.headers.get("content-encoding")).toBe("gzip");
      const reader = response.body!.getReader();
      const first = await reader.read();
      expect(new TextDecoder().decode(first.value)).toBe("<main>the shell</main>");
      release();
      let rest = "";
      for (let part = await reader.read(); !part.done; part = await reader.read()) rest += new TextDecoder().decode(part.value);
      expect(rest).toBe("<p>the rest</p>");
    } finally {
      release();
      await server.close();
    }
  });

  test("only text worth it is compressed: not small bodies, pictures, HEAD, no-transform, or when the client takes neither", async () => {
    const big = "<p>A goat was elected mayor.</p>".repeat(100);
    const answers: Record<string, () => Response> = {
      "/big": () => new Response(big, { headers: { "content-type": "text/html" } }),
      "/small": () => new Response("<p>short</p>", { headers: { "content-type": "text/html", "content-length": "12" } }),
      "/picture": () => new Response(new Uint8Array(4096), { headers: { "content-type": "image/png" } }),
      "/no-transform": () => new Response(big, { headers: { "content-type": "text/html", "cache-control": "no-transform" } }),
      "/json": () => new Response(JSON.stringify({ text: big }), { headers: { "content-type": "application/json" } }),
    };
    const server = await serving((req) => answers[req.url ?? ""]!());
    const raw = (path: string, headers: Record<string, string>, method = "GET") =>
      new Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
        const request = http.request(`${server.base}${path}`, { method, headers }, (response) => {
          const parts: Buffer[] = [];
          response.on("data", (part: Buffer) => parts.push(part));
          response.on("end", () => resolve({ headers: response.headers, body: Buffer.concat(parts) }));
        });
        request.on("error", reject);
        request.end();
      });
    try {
      const gzipped = await raw("/big", { "accept-encoding": "gzip" });
      expect(gzipped.headers["content-encoding"]).toBe("gzip");
      expect(gunzipSync(gzipped.body).toString()).toBe(big);
      expect((await raw("/json", { "accept-encoding": "gzip, br" })).headers["content-encoding"]).toBe("br");
      for (const [path, headers, method] of [
        ["/big", {}, "GET"],
        ["/big", { "accept-encoding": "gzip;q=0, br;q=0" }, "GET"],
        ["/small", { "accept-encoding": "gzip" }, "GET"],
        ["/picture", { "accept-encoding": "gzip" }, "GET"],
        ["/no-transform", { "accept-encoding": "gzip" }, "GET"],
        ["/big", { "accept-encoding": "gzip" }, "HEAD"],
      ] as const) {
        const answer = await raw(path, headers, method);
        expect([path, method, answer.headers["content-encoding"]]).toEqual([path, method, undefined]);
        expect(answer.body.toString()).toBe(method === "HEAD" ? "" : path === "/picture" ? "\0".repeat(4096) : path === "/small" ? "<p>short</p>" : big);
      }
      // A shared cache must keep the forms apart wherever one could have been compressed.
      expect((await raw("/big", {})).headers.vary).toBe("Accept-Encoding");
      expect((await raw("/picture", {})).headers.vary).toBeUndefined();
    } finally {
      await server.close();
    }
  });
});
