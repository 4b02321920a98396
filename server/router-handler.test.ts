import http from "node:http";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import compression from "compression";
import express from "express";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { requestUrl, sendResponse } from "./router-handler";

// A real server answering the URL it judges each request was made to, for two SITE_URLs.
const servers: Server[] = [];
const bases: Record<string, number> = {};
beforeAll(async () => {
  for (const site of ["https://news.oddwire.test", "http://localhost:3000", "https://untrusting.oddwire.test"]) {
    const app = express();
    // The third trusts one proxy elsewhere (TRUST_PROXY=10.0.0.1), not the loopback peer the tests
    // connect from; the others trust the loopback proxy in front of them.
    app.set("trust proxy", site.startsWith("https://untrusting") ? ["10.0.0.1"] : "loopback");
    app.all("/{*rest}", (req, res) => void res.send(requestUrl(req, site).href));
    const server = app.listen(0, "127.0.0.1");
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

describe("a long page sent through the compression middleware", () => {
  test("arrives whole under back-pressure, without piling 'drain' listeners on the zlib stream", async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => void warnings.push(warning);
    process.on("warning", onWarning);
    // 40 chunks of 64 KiB, each over zlib's 16 KiB buffer: every write has to wait for 'drain'.
    const chunk = new Uint8Array(64 * 1024).map((_, i) => (i * 7919) % 251);
    const app = express();
    app.use(compression());
    app.get("/long", (_req, res, next) => {
      let sent = 0;
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent++ < 40) controller.enqueue(chunk);
          else controller.close();
        },
      });
      sendResponse(res, new Response(body, { headers: { "content-type": "text/html" } })).catch(next);
    });
    const server = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const response = await fetch(`http://127.0.0.1:${port}/long`, { headers: { "accept-encoding": "gzip" } });
      expect(response.headers.get("content-encoding")).toBe("gzip");
      expect((await response.arrayBuffer()).byteLength).toBe(40 * chunk.length);
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.filter((w) => w.name === "MaxListenersExceededWarning").map((w) => w.message)).toEqual([]);
    } finally {
      process.off("warning", onWarning);
      await new Promise((resolve) => server.close(resolve));
    }
  });

  test("a reader who hangs up mid-page stops the page being rendered", async () => {
    let cancelled: (() => void) | undefined;
    const wasCancelled = new Promise<void>((resolve) => (cancelled = resolve));
    const app = express();
    app.use(compression());
    app.get("/endless", (_req, res, next) => {
      const body = new ReadableStream<Uint8Array>({
        pull: (controller) => controller.enqueue(new Uint8Array(64 * 1024).fill(97)),
        cancel: () => cancelled?.(),
      });
      sendResponse(res, new Response(body, { headers: { "content-type": "text/html" } })).catch(next);
    });
    const server = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const controller = new AbortController();
      const response = await fetch(`http://127.0.0.1:${port}/endless`, { headers: { "accept-encoding": "gzip" }, signal: controller.signal });
      await response.body!.getReader().read();
      controller.abort();
      await wasCancelled;
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
