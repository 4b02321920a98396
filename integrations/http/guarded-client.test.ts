import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { pipeline, Readable } from "node:stream";
import { brotliCompressSync, constants, createGzip, deflateRawSync, deflateSync, gzipSync } from "node:zlib";
import { afterEach, describe, expect, test } from "vitest";
import { serveFixtures, type FixtureServer } from "~/test/fixture-server";
import { createGuardedClient, FetchError, isFetchError, userAgentFor, type GuardedClientOptions } from "./guarded-client";
import type { HttpClient } from "./types";

type Server = {
  url: string;
  port: number;
  requests: { method: string; path: string; headers: IncomingHttpHeaders }[];
  /** TCP connections accepted, whether or not a request followed. */
  connections: number;
  openSockets: number;
  close(): Promise<void>;
};

const servers: Server[] = [];
const fixtures: FixtureServer[] = [];
const clients: HttpClient[] = [];

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await Promise.all(servers.splice(0).map((server) => server.close()));
  await Promise.all(fixtures.splice(0).map((server) => server.close()));
});

/** A plain HTTP server for behaviours the fixture server cannot fake (drips, resets, streams). */
async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void, host = "127.0.0.1"): Promise<Server> {
  const server = createServer((req, res) => {
    state.requests.push({ method: req.method ?? "GET", path: req.url ?? "/", headers: req.headers });
    handler(req, res);
  });
  const state: Server = {
    url: "",
    port: 0,
    requests: [],
    connections: 0,
    openSockets: 0,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  server.on("connection", (socket) => {
    state.connections += 1;
    state.openSockets += 1;
    socket.on("close", () => (state.openSockets -= 1));
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  state.port = (server.address() as AddressInfo).port;
  state.url = `http://127.0.0.1:${state.port}`;
  servers.push(state);
  return state;
}

async function fixtureServer(routes: Parameters<typeof serveFixtures>[0] = {}) {
  const server = await serveFixtures(routes);
  fixtures.push(server);
  return server;
}

function client(options: Partial<GuardedClientOptions> = {}): HttpClient {
  const created = createGuardedClient({
    userAgent: userAgentFor("https://oddwire.example"),
    allowHosts: ["127.0.0.1"],
    timeoutMs: 3_000,
    // No test may reach a real resolver: names resolve here, localhost as the system would.
    lookup: async (hostname) => {
      if (hostname === "localhost") return [{ address: "127.0.0.1", family: 4 }];
      if (hostname === "evil.test") return [{ address: "127.0.0.1", family: 4 }];
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
    },
    ...options,
  });
  clients.push(created);
  return created;
}

async function failure(promise: Promise<unknown>): Promise<FetchError> {
  try {
    await promise;
  } catch (error) {
    if (isFetchError(error)) return error;
    throw error;
  }
  throw new Error("expected the fetch to fail");
}

/** Listens on every local address (IPv4 and IPv6), so any loopback form that gets through is counted. */
const victimServer = () => serve((_req, res) => res.end("secret"), "::");

describe("refusing addresses that are not public", () => {
  test.each([
    ["127.0.0.1", (port: number) => `http://127.0.0.1:${port}/`],
    ["localhost", (port: number) => `http://localhost:${port}/`],
    ["[::1]", (port: number) => `http://[::1]:${port}/`],
    ["the decimal form of 127.0.0.1", (port: number) => `http://2130706433:${port}/`],
    ["the hex and short form of 127.0.0.1", (port: number) => `http://0x7f.1:${port}/`],
    ["IPv4-mapped loopback", (port: number) => `http://[::ffff:127.0.0.1]:${port}/`],
    ["the unspecified address", (port: number) => `http://0.0.0.0:${port}/`],
    ["a name that resolves to loopback", (port: number) => `http://evil.test:${port}/`],
  ])("%s is refused without reaching the server", async (_name, urlFor) => {
    const victim = await victimServer();
    const error = await failure(client({ allowHosts: [] }).fetch(urlFor(victim.port)));
    expect(error.code).toBe("BLOCKED_ADDRESS");
    expect(error.retryable).toBe(false);
    expect(victim.connections).toBe(0);
  });

  test.each([
    ["10.0.0.1", "http://10.0.0.1/"],
    ["169.254.169.254 (cloud metadata)", "http://169.254.169.254/latest/meta-data/"],
    ["100.100.100.200 (metadata)", "http://100.100.100.200/"],
    ["fd00:ec2::254 (metadata)", "http://[fd00:ec2::254]/"],
    ["192.168.1.1", "http://192.168.1.1/"],
  ])("%s is refused", async (_name, url) => {
    const error = await failure(client({ allowHosts: [], timeoutMs: 500 }).fetch(url));
    expect(error.code).toBe("BLOCKED_ADDRESS");
  });

  test("a name is refused when any one of its addresses is not public", async () => {
    const mixed = client({
      lookup: async () => [
        { address: "93.184.215.14", family: 4 },
        { address: "10.1.2.3", family: 4 },
      ],
    });
    const error = await failure(mixed.fetch("http://mixed.test/"));
    expect(error.code).toBe("BLOCKED_ADDRESS");
    expect(error.url).toBe("http://mixed.test/");
  });

  test("the servers above are reachable once allowed, so the refusals are the guard's doing", async () => {
    const victim = await victimServer();
    const viaIp = await client({ allowHosts: ["127.0.0.1"] }).fetch(`http://127.0.0.1:${victim.port}/`);
    const viaName = await client({ allowHosts: ["localhost"] }).fetch(`http://localhost:${victim.port}/`);
    expect(viaIp.body.toString()).toBe("secret");
    expect(viaName.body.toString()).toBe("secret");
  });

  test("allowing 127.0.0.1 does not allow localhost", async () => {
    const victim = await victimServer();
    const error = await failure(client({ allowHosts: ["127.0.0.1"] }).fetch(`http://localhost:${victim.port}/`));
    expect(error.code).toBe("BLOCKED_ADDRESS");
    expect(victim.connections).toBe(0);
  });

  test("the socket connects to the address that was vetted, resolved once per connection", async () => {
    const target = await serve((_req, res) => res.end("pinned"));
    const asked: string[] = [];
    const pinned = client({
      allowHosts: ["pinned.test"],
      lookup: async (hostname) => {
        asked.push(hostname);
        return [{ address: "127.0.0.1", family: 4 }];
      },
    });
    const response = await pinned.fetch(`http://pinned.test:${target.port}/`);
    expect(response.body.toString()).toBe("pinned");
    expect(asked).toEqual(["pinned.test"]);
    expect(target.requests[0]?.headers.host).toBe(`pinned.test:${target.port}`);
  });
});

describe("redirects", () => {
  test.each([
    ["localhost", (port: number) => `http://localhost:${port}/`],
    ["[::1]", (port: number) => `http://[::1]:${port}/`],
    ["another loopback address", (port: number) => `http://127.0.0.2:${port}/`],
    ["IPv4-mapped loopback", (port: number) => `http://[::ffff:7f00:1]:${port}/`],
    ["a name that resolves to loopback", (port: number) => `http://evil.test:${port}/`],
    ["10.0.0.1", () => "http://10.0.0.1/"],
    ["169.254.169.254", () => "http://169.254.169.254/latest/meta-data/"],
  ])("a redirect from an allowed server to %s is refused", async (_name, urlFor) => {
    const victim = await victimServer();
    const location = urlFor(victim.port);
    const origin = await fixtureServer({ routes: { "/go": { status: 302, headers: { location } } } });
    const error = await failure(client({ allowHosts: ["127.0.0.1"], timeoutMs: 500 }).fetch(`${origin.url}/go`));
    expect(error.code).toBe("BLOCKED_ADDRESS");
    expect(error.url).toBe(new URL(location).href);
    expect(origin.requests).toHaveLength(1);
    expect(victim.connections).toBe(0);
  });

  test.each([["file:///etc/passwd"], ["gopher://127.0.0.1:70/"], ["data:text/plain,hi"]])(
    "a redirect to %s is refused for its scheme",
    async (location) => {
      const origin = await fixtureServer({ routes: { "/go": { status: 301, headers: { location } } } });
      const error = await failure(client().fetch(`${origin.url}/go`));
      expect(error.code).toBe("UNSUPPORTED_SCHEME");
    },
  );

  test("a chain of five redirects is followed and listed", async () => {
    const routes: Record<string, { status: number; headers: Record<string, string> }> = {};
    for (let hop = 1; hop <= 5; hop += 1) routes[`/r${hop}`] = { status: 302, headers: { location: `/r${hop + 1}` } };
    const origin = await fixtureServer({ routes: { ...routes, "/r6": { body: "arrived" } } });
    const response = await client().fetch(`${origin.url}/r1`);
    expect(response.status).toBe(200);
    expect(response.body.toString()).toBe("arrived");
    expect(response.url).toBe(`${origin.url}/r6`);
    expect(response.redirects).toEqual([1, 2, 3, 4, 5].map((hop) => `${origin.url}/r${hop}`));
  });

  test("eachHop is asked before every hop, may refuse one, and hears each hop's answer", async () => {
    const origin = await fixtureServer({
      routes: { "/a": { status: 302, headers: { location: "/b" } }, "/b": { status: 301, headers: { location: "/c" } }, "/c": { body: "arrived" } },
    });
    const log: string[] = [];
    const eachHop = async (url: string) => {
      log.push(`ask ${new URL(url).pathname}`);
      return async (answer: { status: number; body: Buffer } | null) => void log.push(`done ${answer?.status ?? "none"} ${answer?.body.toString() ?? ""}`.trim());
    };
    const response = await client().fetch(`${origin.url}/a`, { eachHop });
    expect(response.body.toString()).toBe("arrived");
    expect(log).toEqual(["ask /a", "done 302", "ask /b", "done 301", "ask /c", "done 200 arrived"]);

    const refusing = async (url: string) => {
      if (url.endsWith("/b")) throw new FetchError("ROBOTS_DISALLOWED", url, `robots.txt disallows ${url}`);
      return async () => undefined;
    };
    const error = await failure(client().fetch(`${origin.url}/a`, { eachHop: refusing }));
    expect([error.code, error.url, error.retryable]).toEqual(["ROBOTS_DISALLOWED", `${origin.url}/b`, false]);
    expect(origin.requests.map((r) => r.path)).toEqual(["/a", "/b", "/c", "/a"]);
  });

  test("a sixth redirect fails with TOO_MANY_REDIRECTS and is not followed", async () => {
    const routes: Record<string, { status: number; headers: Record<string, string> }> = {};
    for (let hop = 1; hop <= 6; hop += 1) routes[`/r${hop}`] = { status: 307, headers: { location: `/r${hop + 1}` } };
    const origin = await fixtureServer({ routes: { ...routes, "/r7": { body: "too far" } } });
    const error = await failure(client().fetch(`${origin.url}/r1`));
    expect(error.code).toBe("TOO_MANY_REDIRECTS");
    expect(error.retryable).toBe(false);
    expect(origin.requests.map((r) => r.path)).not.toContain("/r7");
  });

  test("an endless redirect loop stops after five hops", async () => {
    const origin = await fixtureServer({ routes: { "/loop": { status: 302, headers: { location: "/loop" } } } });
    const error = await failure(client().fetch(`${origin.url}/loop`));
    expect(error.code).toBe("TOO_MANY_REDIRECTS");
    expect(origin.requests).toHaveLength(6);
  });

  test("a relative Location is resolved against the current URL", async () => {
    const origin = await fixtureServer({
      routes: {
        "/feeds/old/index.xml": { status: 301, headers: { location: "../new/index.xml?x=1" } },
        "/feeds/new/index.xml": { body: "<rss/>" },
      },
    });
    const response = await client().fetch(`${origin.url}/feeds/old/index.xml`);
    expect(response.url).toBe(`${origin.url}/feeds/new/index.xml?x=1`);
    expect(response.body.toString()).toBe("<rss/>");
  });

  test("a 303 answer to HEAD is followed with HEAD, a 307 keeps the method", async () => {
    const origin = await fixtureServer({
      routes: {
        "/a": { status: 303, headers: { location: "/b" } },
        "/b": { status: 307, headers: { location: "/c" } },
        "/c": { body: "final" },
      },
    });
    const response = await client().fetch(`${origin.url}/a`, { method: "HEAD" });
    expect(response.status).toBe(200);
    expect(response.body).toHaveLength(0);
    expect(origin.requests.map((r) => r.method)).toEqual(["HEAD", "HEAD", "HEAD"]);
  });
});

describe("limits", () => {
  test("a server that drips a byte every 100 ms hits the total timeout", async () => {
    const drip = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "text/plain" });
      const timer = setInterval(() => res.write("x"), 100);
      res.on("close", () => clearInterval(timer));
    });
    const error = await failure(client({ timeoutMs: 300 }).fetch(`${drip.url}/slow`));
    expect(error.code).toBe("TIMEOUT");
    expect(error.retryable).toBe(true);
  });

  test("a server that never answers hits the timeout", async () => {
    const silent = await serve(() => undefined);
    const error = await failure(client({ timeoutMs: 300 }).fetch(`${silent.url}/`));
    expect(error.code).toBe("TIMEOUT");
  });

  test("an endless body is cut at the cap", async () => {
    const endless = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "application/xml" });
      const zeros = new Readable({ read: () => void zeros.push(Buffer.alloc(16 * 1024, 0x61)) });
      pipeline(zeros, res, () => undefined);
    });
    const error = await failure(client({ maxBodyBytes: 256 * 1024 }).fetch(`${endless.url}/huge`));
    expect(error.code).toBe("BODY_TOO_LARGE");
    expect(error.retryable).toBe(false);
  });

  test("a declared Content-Length over the cap is refused before any body is read", async () => {
    // The server promises 100 MiB but sends a few bytes and waits: only an early refusal avoids the timeout.
    const liar = await serve((_req, res) => {
      res.writeHead(200, { "content-length": String(100 * 1024 * 1024) });
      res.write("abc");
    });
    const error = await failure(client({ maxBodyBytes: 1024 * 1024 }).fetch(`${liar.url}/`));
    expect(error.code).toBe("BODY_TOO_LARGE");
  });

  test("HEAD of a resource larger than the cap returns its headers", async () => {
    const big = await serve((_req, res) => {
      res.writeHead(200, { "content-length": String(50 * 1024 * 1024), "content-type": "video/mp4" });
      res.end();
    });
    const response = await client({ maxBodyBytes: 1024 }).fetch(`${big.url}/film.mp4`, { method: "HEAD" });
    expect(response.status).toBe(200);
    expect(response.contentType).toBe("video/mp4");
    expect(response.body).toHaveLength(0);
  });

  test("a request may raise or lower the body cap for itself", async () => {
    const origin = await fixtureServer({ routes: { "/big": { body: Buffer.alloc(8192, 0x62) } } });
    expect((await client({ maxBodyBytes: 4096 }).fetch(`${origin.url}/big`, { maxBodyBytes: 8192 })).body).toHaveLength(8192);
    const error = await failure(client().fetch(`${origin.url}/big`, { maxBodyBytes: 1024 }));
    expect(error.code).toBe("BODY_TOO_LARGE");
  });

  test("firstBytes reads only an answer's head, even of an endless or oversized body, and says it was cut", async () => {
    const endless = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "image/jpeg", "content-length": String(500 * 1024 * 1024) });
      const bytes = new Readable({ read: () => void bytes.push(Buffer.alloc(16 * 1024, 0xff)) });
      pipeline(bytes, res, () => undefined);
    });
    const response = await client({ maxBodyBytes: 1024 * 1024, timeoutMs: 2_000 }).fetch(`${endless.url}/photo.jpg`, { firstBytes: 65_536 });
    expect(response.body).toHaveLength(65_536);
    expect(response.truncated).toBe(true);
    const small = await fixtureServer({ routes: { "/tiny.png": { body: Buffer.alloc(100, 0x01) } } });
    const whole = await client().fetch(`${small.url}/tiny.png`, { firstBytes: 65_536 });
    expect(whole.body).toHaveLength(100);
    expect(whole.truncated).toBeUndefined();
  });

  test("a body of exactly the cap is accepted", async () => {
    const origin = await fixtureServer({ routes: { "/exact": { body: Buffer.alloc(4096, 0x62) } } });
    const response = await client({ maxBodyBytes: 4096 }).fetch(`${origin.url}/exact`);
    expect(response.body).toHaveLength(4096);
  });

  test("a small gzip body that inflates past the cap fails with BODY_TOO_LARGE", async () => {
    const bomb = gzipSync(Buffer.alloc(16 * 1024 * 1024));
    expect(bomb.length).toBeLessThan(32 * 1024);
    const origin = await fixtureServer({ routes: { "/bomb": { body: bomb, headers: { "content-encoding": "gzip" } } } });
    const error = await failure(client({ maxBodyBytes: 1024 * 1024 }).fetch(`${origin.url}/bomb`));
    expect(error.code).toBe("BODY_TOO_LARGE");
  });

  test("an endless gzip stream is cut at the cap as it inflates, not buffered until the timeout", async () => {
    const bomb = await serve((_req, res) => {
      res.writeHead(200, { "content-encoding": "gzip" });
      const zeros = new Readable({ read: () => void zeros.push(Buffer.alloc(64 * 1024)) });
      pipeline(zeros, createGzip(), res, () => undefined);
    });
    const error = await failure(client({ maxBodyBytes: 1024 * 1024, timeoutMs: 5_000 }).fetch(`${bomb.url}/`));
    expect(error.code).toBe("BODY_TOO_LARGE");
  });

  test("a brotli bomb is cut at the cap too", async () => {
    const bomb = brotliCompressSync(Buffer.alloc(16 * 1024 * 1024), { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } });
    const origin = await fixtureServer({ routes: { "/bomb": { body: bomb, headers: { "content-encoding": "br" } } } });
    const error = await failure(client({ maxBodyBytes: 1024 * 1024 }).fetch(`${origin.url}/bomb`));
    expect(error.code).toBe("BODY_TOO_LARGE");
  });

  test("a third simultaneous request to one host waits for a free slot", async () => {
    let inFlight = 0;
    let peak = 0;
    const slow = await serve((_req, res) => {
      inFlight += 1;
      peak = Math.max(peak, inFlight);
      setTimeout(() => {
        inFlight -= 1;
        res.end("ok");
      }, 120);
    });
    const limited = client();
    const responses = await Promise.all([1, 2, 3, 4, 5].map((n) => limited.fetch(`${slow.url}/${n}`)));
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(peak).toBe(2);
  });

  test("time spent waiting for a slot does not count against the timeout", async () => {
    const steady = await serve((_req, res) => void setTimeout(() => res.end("ok"), 150));
    const limited = client({ perHostConcurrency: 1, timeoutMs: 400 });
    const responses = await Promise.all([1, 2, 3, 4].map((n) => limited.fetch(`${steady.url}/${n}`)));
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 200]);
  });

  test("the limit counts every port of one host together", async () => {
    let inFlight = 0;
    let peak = 0;
    const handler = (_req: IncomingMessage, res: ServerResponse) => {
      inFlight += 1;
      peak = Math.max(peak, inFlight);
      setTimeout(() => {
        inFlight -= 1;
        res.end("ok");
      }, 120);
    };
    const [one, two] = await Promise.all([serve(handler), serve(handler)]);
    const limited = client();
    await Promise.all([one, one, two, two].map((server) => limited.fetch(`${server!.url}/`)));
    expect(peak).toBe(2);
  });

  test("the concurrency limit is per host: another host has its own slots", async () => {
    let inFlight = 0;
    let peak = 0;
    const slow = await serve((_req, res) => {
      inFlight += 1;
      peak = Math.max(peak, inFlight);
      setTimeout(() => {
        inFlight -= 1;
        res.end("ok");
      }, 120);
    });
    const limited = client({ perHostConcurrency: 1, allowHosts: ["127.0.0.1", "localhost"] });
    const urls = [slow.url, slow.url, `http://localhost:${slow.port}`, `http://localhost:${slow.port}`];
    await Promise.all(urls.map((url) => limited.fetch(`${url}/`)));
    expect(peak).toBe(2);
  });
});

describe("content coding", () => {
  const text = "Cats elected mayor of a small town, again. ".repeat(50);

  test.each([
    ["gzip", gzipSync(text)],
    ["x-gzip", gzipSync(text)],
    ["br", brotliCompressSync(text)],
    ["deflate", deflateSync(text)],
    ["deflate", deflateRawSync(text)],
  ])("a %s body is decoded", async (coding, encoded) => {
    const origin = await fixtureServer({
      routes: { "/body": { body: encoded, headers: { "content-encoding": coding, "content-type": "text/plain" } } },
    });
    const response = await client().fetch(`${origin.url}/body`);
    expect(response.body.toString()).toBe(text);
    expect(origin.requests[0]?.headers["accept-encoding"]).toBe("gzip, deflate, br");
  });

  test("a broken gzip stream is a DECODE_ERROR", async () => {
    const broken = Buffer.concat([gzipSync(text).subarray(0, 10), Buffer.from("not gzip at all, just bytes")]);
    const origin = await fixtureServer({ routes: { "/broken": { body: broken, headers: { "content-encoding": "gzip" } } } });
    const error = await failure(client().fetch(`${origin.url}/broken`));
    expect(error.code).toBe("DECODE_ERROR");
    expect(error.retryable).toBe(false);
  });

  test("a truncated gzip stream is a DECODE_ERROR", async () => {
    const truncated = gzipSync(text).subarray(0, 40);
    const origin = await fixtureServer({ routes: { "/cut": { body: truncated, headers: { "content-encoding": "gzip" } } } });
    const error = await failure(client().fetch(`${origin.url}/cut`));
    expect(error.code).toBe("DECODE_ERROR");
  });

  test("a coding we never asked for leaves the bytes as sent", async () => {
    const origin = await fixtureServer({ routes: { "/odd": { body: "plain", headers: { "content-encoding": "utf-8" } } } });
    const response = await client().fetch(`${origin.url}/odd`);
    expect(response.body.toString()).toBe("plain");
  });
});

describe("conditional GET", () => {
  test("validators are sent back and a 304 comes back as notModified with an empty body", async () => {
    const etag = '"v1"';
    const lastModified = "Wed, 21 Oct 2015 07:28:00 GMT";
    const feed = await serve((req, res) => {
      if (req.headers["if-none-match"] === etag) {
        res.writeHead(304, { etag });
        return res.end();
      }
      res.writeHead(200, { etag, "last-modified": lastModified, "content-type": "application/rss+xml" });
      res.end("<rss/>");
    });
    const http = client();
    const first = await http.fetch(`${feed.url}/feed`);
    expect(first).toMatchObject({ status: 200, etag, lastModified, notModified: false, contentType: "application/rss+xml" });

    const second = await http.fetch(`${feed.url}/feed`, { etag: first.etag, lastModified: first.lastModified });
    expect(second.status).toBe(304);
    expect(second.notModified).toBe(true);
    expect(second.body).toHaveLength(0);
    expect(feed.requests[1]?.headers["if-none-match"]).toBe(etag);
    expect(feed.requests[1]?.headers["if-modified-since"]).toBe(lastModified);
  });
});

describe("requests and responses", () => {
  test("every request carries a User-Agent naming Oddwire and the site", async () => {
    const origin = await fixtureServer({ routes: { "/": { body: "hi" } } });
    await client().fetch(`${origin.url}/`);
    const agent = origin.requests[0]?.headers["user-agent"];
    expect(agent).toBe(userAgentFor("https://oddwire.example"));
    expect(agent).toMatch(/^Oddwire\/\d+\.\d+\.\d+ \(\+https:\/\/oddwire\.example\)$/);
  });

  test("a caller cannot replace the User-Agent but may add headers", async () => {
    const origin = await fixtureServer({ routes: { "/": { body: "hi" } } });
    await client().fetch(`${origin.url}/`, { headers: { "User-Agent": "curl/8", Accept: "application/rss+xml" } });
    expect(origin.requests[0]?.headers["user-agent"]).toMatch(/^Oddwire\//);
    expect(origin.requests[0]?.headers.accept).toBe("application/rss+xml");
  });

  test("a crawl source's own User-Agent is sent when the request names one", async () => {
    const origin = await fixtureServer({ routes: { "/": { body: "hi" } } });
    await client().fetch(`${origin.url}/`, { userAgent: "WeirdBot/2.0 (+https://weird.example/bot)" });
    expect(origin.requests[0]?.headers["user-agent"]).toBe("WeirdBot/2.0 (+https://weird.example/bot)");
  });

  test("response headers come back lower-cased, any status is returned", async () => {
    const origin = await fixtureServer({
      routes: { "/gone": { status: 410, body: "gone", headers: { "X-Custom-Thing": "yes", "Content-Type": "text/plain" } } },
    });
    const response = await client().fetch(`${origin.url}/gone`);
    expect(response.status).toBe(410);
    expect(response.headers["x-custom-thing"]).toBe("yes");
    expect(response.contentType).toBe("text/plain");
    expect(response.etag).toBeNull();
    expect(response.redirects).toEqual([]);
  });

  test.each([
    ["ftp://example.com/feed.xml", "UNSUPPORTED_SCHEME"],
    ["javascript:alert(1)", "UNSUPPORTED_SCHEME"],
    ["not a url", "INVALID_URL"],
    ["http://", "INVALID_URL"],
  ])("%s is refused with %s", async (url, code) => {
    const error = await failure(client().fetch(url));
    expect(error.code).toBe(code);
  });

  test("a refused connection is a retryable NETWORK_ERROR", async () => {
    const closed = await serve(() => undefined);
    const url = closed.url;
    await closed.close();
    const error = await failure(client().fetch(`${url}/`));
    expect(error.code).toBe("NETWORK_ERROR");
    expect(error.retryable).toBe(true);
  });

  test("a connection reset mid-answer is a retryable NETWORK_ERROR", async () => {
    const rude = await serve((req) => req.socket.destroy());
    const error = await failure(client().fetch(`${rude.url}/`));
    expect(error.code).toBe("NETWORK_ERROR");
    expect(error.retryable).toBe(true);
  });

  test("a name that does not resolve is a retryable DNS_FAILURE", async () => {
    const error = await failure(client().fetch("http://no-such-host.test/"));
    expect(error.code).toBe("DNS_FAILURE");
    expect(error.retryable).toBe(true);
  });

  test("the caller's abort signal rejects with the caller's reason", async () => {
    const silent = await serve(() => undefined);
    const controller = new AbortController();
    const pending = client().fetch(`${silent.url}/`, { signal: controller.signal });
    controller.abort(new Error("editor cancelled"));
    await expect(pending).rejects.toThrow("editor cancelled");
  });

  test("requests in a row reuse kept-alive connections, and close() ends them", async () => {
    const origin = await serve((_req, res) => res.end("ok"));
    const http = createGuardedClient({ userAgent: "Oddwire/test", allowHosts: ["127.0.0.1"] });
    for (const path of ["/a", "/b", "/c", "/d", "/e"]) await http.fetch(`${origin.url}${path}`);
    expect(origin.requests).toHaveLength(5);
    expect(origin.connections).toBeLessThanOrEqual(2);
    expect(origin.openSockets).toBeGreaterThan(0);
    await http.close();
    // Socket close events arrive a tick after close() resolves.
    await expect.poll(() => origin.openSockets, { timeout: 2_000, interval: 10 }).toBe(0);
  });
});

describe("names that never resolve on the internet", () => {
  test.each(["http://oddplanet.example/feed.xml", "https://news.example.com/", "http://site.invalid/", "http://feed.test./rss"])(
    "%s fails as a DNS failure without asking a resolver",
    async (url) => {
      const guarded = client({ lookup: undefined });
      const error = await failure(guarded.fetch(url));
      expect(error.code).toBe("DNS_FAILURE");
      expect(error.message).toMatch(/reserved name/);
    },
  );

  test("a *.localhost name is loopback, and refused", async () => {
    const victim = await victimServer();
    const error = await failure(client({ lookup: undefined }).fetch(`http://api.localhost:${victim.port}/`));
    expect(error.code).toBe("BLOCKED_ADDRESS");
    expect(victim.connections).toBe(0);
  });
});
