import { execFileSync } from "node:child_process";
import { createSocket, type Socket } from "node:dgram";
import { existsSync } from "node:fs";
import { createServer as createTcpServer, type AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { testHttpClient } from "~/integrations/http/testing";
import type { HttpClient } from "~/integrations/http/types";
import { startTestServer, type TestServer } from "~/test/http-test-server";
import { isRenderError, type RenderError } from "./render-error";
import { chromiumPath, createPageRenderer, type PageRenderer } from "./render-page";

const chromium = chromiumPath();
// Without a browser these tests are skipped loudly, except under CI=true, where they must fail.
const skipBrowser = !existsSync(chromium) && process.env.CI !== "true";
if (skipBrowser) {
  console.warn(
    [
      "",
      "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!",
      `!! PAGE RENDERER TESTS SKIPPED: no Chromium at ${chromium}`,
      "!! Install Debian's chromium (apt-get install chromium) or set CHROMIUM_PATH.",
      "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!",
      "",
    ].join("\n"),
  );
}

/** Generous for a loaded two-core machine, well inside the test's own limit. */
const PAGE_MS = 8_000;

const html = (body: string, head = "") => `<!doctype html><html><head><meta charset="utf-8">${head}</head><body>${body}</body></html>`;

async function renderError(promise: Promise<unknown>): Promise<RenderError> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!isRenderError(error)) throw new Error(`expected a RenderError, got ${String(error)}`);
  return error;
}

type Proc = { pid: number; ppid: number; zombie: boolean };
function processes(): Proc[] {
  return execFileSync("ps", ["-eo", "pid=,ppid=,stat="], { encoding: "utf8" })
    .trim()
    .split("\n")
    .map((line) => {
      const [pid, ppid, stat] = line.trim().split(/\s+/);
      return { pid: Number(pid), ppid: Number(ppid), zombie: (stat ?? "").startsWith("Z") };
    });
}
/** Every live process below `root`. */
function descendants(root: number): number[] {
  const all = processes().filter((p) => !p.zombie);
  const found: number[] = [];
  const queue = [root];
  while (queue.length > 0) {
    const parent = queue.shift()!;
    for (const child of all.filter((p) => p.ppid === parent)) {
      found.push(child.pid);
      queue.push(child.pid);
    }
  }
  return found;
}
const alive = (pids: number[]) => {
  const live = new Set(processes().filter((p) => !p.zombie).map((p) => p.pid));
  return pids.filter((pid) => live.has(pid));
};
/** The browser processes a renderer started: children of this process that were not there before. */
const browserMains = (before: Set<number>) => descendants(process.pid).filter((pid) => !before.has(pid) && processes().some((p) => p.pid === pid && p.ppid === process.pid));

describe("a renderer that cannot start Chromium", () => {
  test("a missing binary is BROWSER_UNAVAILABLE, naming the path and CHROMIUM_PATH, on every render", async () => {
    const http = testHttpClient();
    const renderer = createPageRenderer({ http, executablePath: "/nonexistent/chromium" });
    try {
      for (let i = 0; i < 2; i += 1) {
        const error = await renderError(renderer.render("http://127.0.0.1:9/page"));
        expect(error.code).toBe("BROWSER_UNAVAILABLE");
        expect(error.message).toContain("/nonexistent/chromium");
        expect(error.message).toContain("CHROMIUM_PATH");
      }
    } finally {
      await renderer.close();
      await http.close();
    }
  });

  test("a binary that is not a browser is BROWSER_UNAVAILABLE too", async () => {
    const http = testHttpClient();
    const renderer = createPageRenderer({ http, executablePath: "/bin/false" });
    try {
      const error = await renderError(renderer.render("http://127.0.0.1:9/page"));
      expect(error.code).toBe("BROWSER_UNAVAILABLE");
      expect(error.message).toContain("/bin/false");
    } finally {
      await renderer.close();
      await http.close();
    }
  });
});

describe.skipIf(skipBrowser)("rendering a page in headless Chromium", () => {
  let server: TestServer;
  let http: HttpClient;
  let renderer: PageRenderer;
  const userAgents = new Map<string, string | undefined>();

  beforeAll(async () => {
    server = await startTestServer();
    // More connections per host than pages, so the page limit is the renderer's own.
    http = testHttpClient({ perHostConcurrency: 6 });
    renderer = createPageRenderer({ http, maxPages: 2 });
  });
  afterAll(async () => {
    await renderer?.close();
    await http?.close();
    await server?.close();
  });

  const serve = (pathname: string, body: string, type = "text/html; charset=utf-8", headers: Record<string, string | string[]> = {}) =>
    server.handle(pathname, (req, res) => {
      userAgents.set(pathname, req.headers["user-agent"]);
      res.writeHead(200, { "content-type": type, ...headers }).end(body);
    });

  test("an article a script writes after a delay is found by waitForSelector", async () => {
    serve(
      "/delayed",
      html(`<div id="app">Loading…</div>
<script>setTimeout(() => {
  document.getElementById("app").innerHTML = '<article class="story"><h1>Frog reads the news</h1><p>A frog in Leeds has learned to read.</p></article>';
}, 300);</script>`),
    );
    const page = await renderer.render(`${server.url}/delayed`, { waitForSelector: "article.story", timeoutMs: PAGE_MS });
    expect(page.status).toBe(200);
    expect(page.url).toBe(`${server.url}/delayed`);
    expect(page.contentType).toBe("text/html; charset=utf-8");
    expect(page.html).toContain("A frog in Leeds has learned to read.");
    expect(page.html).not.toContain("Loading…");
  });

  test("without a selector the page is taken after it loads and its scripts settle", async () => {
    serve("/settles", html(`<p id="out">before</p><script>setTimeout(() => { document.getElementById("out").textContent = "after"; }, 100);</script>`));
    const page = await renderer.render(`${server.url}/settles`, { timeoutMs: PAGE_MS });
    expect(page.html).toContain(">after<");
  });

  test("a redirected page is opened at its final URL, where its relative script is found", async () => {
    server.handle("/old-story", (_req, res) => void res.writeHead(301, { location: "/news/story" }).end());
    serve("/news/story", html(`<div id="app"></div><script src="app.js"></script>`));
    serve("/news/app.js", `document.getElementById("app").innerHTML = '<article>Moved and rendered</article>';`, "text/javascript");
    const page = await renderer.render(`${server.url}/old-story`, { waitForSelector: "article", timeoutMs: PAGE_MS });
    expect(page.url).toBe(`${server.url}/news/story`);
    expect(page.html).toContain("Moved and rendered");
    expect(server.hits).toContain("/news/app.js");
  });

  test("a script's fetch of JSON from the same site is answered through the client, with the caller's User-Agent and the site's cookies", async () => {
    let cookies: string | undefined;
    serve(
      "/json-page",
      html(`<img src="/picture.png"><div id="app"></div>
<script>
navigator.sendBeacon("/beacon", "seen");
fetch("/data.json").then((r) => r.json()).then((data) => {
  document.getElementById("app").innerHTML = '<article id="story">' + data.headline + '</article>';
});
</script>`),
      "text/html",
      { "set-cookie": ["visit=1; Path=/; Expires=Wed, 21 Oct 2099 07:28:00 GMT", "region=north; Path=/"] },
    );
    server.handle("/data.json", (req, res) => {
      userAgents.set("/data.json", req.headers["user-agent"]);
      cookies = req.headers.cookie;
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ headline: "Goose elected mayor" }));
    });
    serve("/picture.png", "not really a picture", "image/png");
    serve("/beacon", "");
    const userAgent = "OddwireCrawler/1.0 (+http://127.0.0.1/render-test)";
    const page = await renderer.render(`${server.url}/json-page`, { waitForSelector: "#story", userAgent, timeoutMs: PAGE_MS });
    expect(page.html).toContain("Goose elected mayor");
    expect(server.hits).toContain("/data.json");
    expect(userAgents.get("/json-page")).toBe(userAgent);
    expect(userAgents.get("/data.json")).toBe(userAgent);
    // The site's cookies come back to it, as a browser's would.
    expect(cookies).toBe("visit=1; region=north");
    // Images are not fetched, and only GET and HEAD go out.
    expect(server.hits).not.toContain("/picture.png");
    expect(server.hits).not.toContain("/beacon");
  });

  test("a script's requests to addresses the policy refuses never leave the browser", async () => {
    server.handle("/secret", (_req, res) => {
      res.writeHead(200, { "content-type": "text/plain", "access-control-allow-origin": "*" }).end("TOP-SECRET-VALUE");
    });
    const localhost = server.localhostUrl;
    serve(
      "/leaky",
      html(`<div id="out"></div><iframe src="${localhost}/secret"></iframe>
<script>
const attempt = (url) => fetch(url).then((r) => r.text()).then((t) => "GOT " + t, () => "REFUSED");
const socket = () => new Promise((resolve) => {
  try {
    const ws = new WebSocket("${localhost.replace("http", "ws")}/secret");
    ws.onopen = () => resolve("WS-OPEN");
    ws.onclose = () => resolve("WS-CLOSED");
  } catch { resolve("WS-CLOSED"); }
});
Promise.all([attempt("${localhost}/secret"), attempt("http://169.254.169.254/latest/meta-data/"), socket()]).then((results) => {
  const out = document.getElementById("out");
  out.textContent = results.join(" ");
  out.className = "done";
});
</script>`),
    );
    const page = await renderer.render(`${server.url}/leaky`, { waitForSelector: "#out.done", timeoutMs: PAGE_MS });
    expect(page.html).toContain("REFUSED REFUSED WS-CLOSED");
    expect(page.html).not.toContain("TOP-SECRET-VALUE");
    expect(server.hits).not.toContain("/secret");
  });

  test("a page's WebRTC and WebTransport send nothing, in the page, its frames and its worker, and the page still renders", async () => {
    // A real UDP listener where the page points its STUN and TURN servers and its WebTransport.
    const udp: Socket = createSocket("udp4");
    const packets: string[] = [];
    // Each packet's sender and first bytes: 0001 is a STUN binding request, 0003 a TURN allocation.
    udp.on("message", (message, from) => packets.push(`${from.address}:${from.port} ${message.subarray(0, 8).toString("hex")}`));
    await new Promise<void>((resolve) => udp.bind(0, "127.0.0.1", resolve));
    const { port } = udp.address();
    // And a TCP one for TURN over TCP, which goes to the dead proxy (it already did: kept so it stays so).
    const connections: string[] = [];
    const tcp = createTcpServer((socket) => {
      connections.push(`${socket.remoteAddress}:${socket.remotePort}`);
      socket.destroy();
    });
    await new Promise<void>((resolve) => tcp.listen(0, "127.0.0.1", resolve));
    const tcpPort = (tcp.address() as AddressInfo).port;
    try {
      // Each attempt reports what it could reach; none may throw the page off its text.
      const attempts = `
const servers = { iceServers: [{ urls: "stun:127.0.0.1:${port}" }, { urls: ["turn:127.0.0.1:${port}?transport=udp", "turn:127.0.0.1:${tcpPort}?transport=tcp"], username: "u", credential: "c" }] };
const peer = async (scope) => {
  const Peer = scope.RTCPeerConnection || scope.webkitRTCPeerConnection;
  if (!Peer) return "no-rtc";
  try {
    const pc = new Peer(servers);
    pc.createDataChannel("x");
    await pc.setLocalDescription(await pc.createOffer());
    return "rtc";
  } catch { return "rtc-refused"; }
};
const transport = async (scope) => {
  if (!scope.WebTransport) return "no-wt";
  try { await new scope.WebTransport("https://127.0.0.1:${port}/").ready; return "wt-open"; } catch { return "wt-refused"; }
};
const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));`;
      serve(
        "/webrtc",
        html(`<article>Owl runs for parliament</article><div id="out"></div><iframe src="/webrtc-frame"></iframe>
<script>${attempts}
// A fresh blank frame is used at once, before anything could run in it.
const blank = document.body.appendChild(document.createElement("iframe"));
const worker = new Worker(URL.createObjectURL(new Blob([\`${attempts}
Promise.all([peer(self), transport(self)]).then((results) => postMessage(results.join(",")));\`], { type: "text/javascript" })));
const fromWorker = new Promise((resolve) => { worker.onmessage = (event) => resolve(event.data); setTimeout(() => resolve("worker-silent"), 3000); });
const popup = window.open("about:blank");
Promise.all([peer(window), peer(blank.contentWindow), peer(popup || {}), transport(window), fromWorker, pause(1500)]).then((results) => {
  const out = document.getElementById("out");
  out.textContent = results.slice(0, -1).join(" ");
  out.className = "done";
});
</script>`),
      );
      serve("/webrtc-frame", html(`<script>${attempts} peer(window); transport(window);</script>`));
      const page = await renderer.render(`${server.url}/webrtc`, { waitForSelector: "#out.done", timeoutMs: PAGE_MS });
      // Late retransmissions would arrive here.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(packets).toEqual([]);
      expect(connections).toEqual([]);
      expect(page.html).toContain("Owl runs for parliament");
      // The page, a blank frame used at once and a popup find no WebRTC and no WebTransport; the
      // worker never had WebRTC, and its WebTransport is refused.
      expect(page.html).toContain(">no-rtc no-rtc no-rtc no-wt no-rtc,wt-refused<");
    } finally {
      udp.close();
      await new Promise((resolve) => tcp.close(resolve));
    }
  });

  test.each([
    ["a loopback name", () => `${server.localhostUrl}/secret`],
    ["the metadata address", () => "http://169.254.169.254/latest/meta-data/"],
    ["a file URL", () => "file:///etc/passwd"],
  ])("a page at %s is BLOCKED, with the reason", async (_name, target) => {
    const error = await renderError(renderer.render(target(), { timeoutMs: PAGE_MS }));
    expect(error.code).toBe("BLOCKED");
    expect(error.message).toMatch(/non-public|not a public|only http/);
    expect(server.hits).not.toContain("/secret");
  });

  test("a selector that never appears is SELECTOR_NOT_FOUND, naming it", async () => {
    serve("/no-article", html(`<p>Nothing to see</p>`));
    const started = performance.now();
    const error = await renderError(renderer.render(`${server.url}/no-article`, { waitForSelector: "article.missing", timeoutMs: 1_500 }));
    expect(error.code).toBe("SELECTOR_NOT_FOUND");
    expect(error.message).toContain("article.missing");
    expect(performance.now() - started).toBeLessThan(6_000);
  });

  test("a page that never arrives is a TIMEOUT within the limit", async () => {
    server.handle("/never", () => undefined);
    const started = performance.now();
    const error = await renderError(renderer.render(`${server.url}/never`, { timeoutMs: 1_500 }));
    expect(error.code).toBe("TIMEOUT");
    expect(performance.now() - started).toBeLessThan(4_500);
  });

  test("a page whose script never arrives is a TIMEOUT within the limit", async () => {
    serve("/stuck", html(`<script src="/never-script.js"></script><p>never shown</p>`));
    server.handle("/never-script.js", () => undefined);
    const started = performance.now();
    const error = await renderError(renderer.render(`${server.url}/stuck`, { timeoutMs: 1_500 }));
    expect(error.code).toBe("TIMEOUT");
    expect(performance.now() - started).toBeLessThan(4_500);
  });

  test("a render the caller abandons ends with the caller's reason", async () => {
    server.handle("/abandoned", () => undefined);
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error("crawl cancelled")), 300);
    const outcome = await renderer.render(`${server.url}/abandoned`, { signal: controller.signal, timeoutMs: PAGE_MS }).catch((error: unknown) => error);
    expect(outcome).toEqual(new Error("crawl cancelled"));
  });

  test("a document that is not HTML is not rendered", async () => {
    serve("/report.pdf", "%PDF-1.7", "application/pdf");
    const error = await renderError(renderer.render(`${server.url}/report.pdf`, { timeoutMs: PAGE_MS }));
    expect(error.code).toBe("NAVIGATION_FAILED");
    expect(error.message).toContain("application/pdf");
  });

  test("no more than maxPages pages are open at once; the others wait their turn", async () => {
    let open = 0;
    let most = 0;
    server.handle("/slow", (req, res) => {
      open += 1;
      most = Math.max(most, open);
      setTimeout(() => {
        open -= 1;
        res.writeHead(200, { "content-type": "text/html" }).end(html(`<article>${req.url}</article>`));
      }, 500);
    });
    const pages = await Promise.all([1, 2, 3, 4].map((n) => renderer.render(`${server.url}/slow?n=${n}`, { waitForSelector: "article", timeoutMs: PAGE_MS })));
    expect(pages.map((p) => p.html.includes(`/slow?n=`))).toEqual([true, true, true, true]);
    expect(server.hits.filter((hit) => hit === "/slow")).toHaveLength(4);
    expect(most).toBe(2);
  });
});

describe.skipIf(skipBrowser)("the renderer's browser", () => {
  let server: TestServer;
  let http: HttpClient;

  beforeAll(async () => {
    server = await startTestServer();
    server.handle("/page", (_req, res) => void res.writeHead(200, { "content-type": "text/html" }).end(html("<article>Alive</article>")));
    http = testHttpClient();
  });
  afterAll(async () => {
    await http?.close();
    await server?.close();
  });

  test("is launched again after it dies, and close() ends every process it started, however often it is called", async () => {
    const before = new Set(descendants(process.pid));
    const renderer = createPageRenderer({ http });
    try {
      expect((await renderer.render(`${server.url}/page`, { timeoutMs: PAGE_MS })).html).toContain("Alive");
      const [first] = browserMains(before);
      expect(first).toBeDefined();
      const firstTree = [first!, ...descendants(first!)];
      process.kill(first!, "SIGKILL");
      await expect.poll(() => alive([first!]), { timeout: 5_000 }).toEqual([]);

      expect((await renderer.render(`${server.url}/page`, { timeoutMs: PAGE_MS })).html).toContain("Alive");
      const [second] = browserMains(before);
      expect(second).toBeDefined();
      expect(second).not.toBe(first);
      const secondTree = [second!, ...descendants(second!)];

      await renderer.close();
      await renderer.close();
      await expect.poll(() => alive([...firstTree, ...secondTree]), { timeout: 5_000 }).toEqual([]);
      expect(browserMains(before)).toEqual([]);
      const error = await renderError(renderer.render(`${server.url}/page`));
      expect(error.code).toBe("BROWSER_UNAVAILABLE");
    } finally {
      await renderer.close();
    }
  });
});
