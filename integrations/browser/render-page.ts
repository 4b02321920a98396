import { existsSync } from "node:fs";
import type * as Playwright from "playwright-core";
import type { Browser, BrowserContext, Route } from "playwright-core";
import { errorMessage } from "~/lib/error-message";
import { isHttpProtocol } from "~/lib/http-url";
import { isFetchError } from "~/integrations/http/fetch-error";
import { createHostLimiter } from "~/integrations/http/host-limiter";
import type { FetchRequest, FetchResponse, HttpClient } from "~/integrations/http/types";
import { CHROMIUM_ARGS, DEFAULT_CHROMIUM_PATH } from "./chromium";
import { abortReason, documentError, forwardedHeaders, fulfilment } from "./page-requests";
import { isRenderError, RenderError } from "./render-error";

export type RenderedPage = {
  /** Where the HTML came from: the final URL after redirects. */
  url: string;
  status: number;
  /** The DOM serialised after the page's scripts ran. */
  html: string;
  contentType: string | null;
};

export type RenderOptions = {
  /** A CSS selector the page must show before its HTML is taken (the article's container, say). */
  waitForSelector?: string;
  /** User-Agent for every request of this page, instead of the client's own. */
  userAgent?: string;
  /** Passed with every request of this page: the source's crawl delay, for the politeness gate. */
  crawlDelayMs?: number;
  /** Time for the page: fetching it, loading it and waiting for the selector. */
  timeoutMs?: number;
  signal?: AbortSignal;
};

export type PageRenderer = {
  render(url: string, options?: RenderOptions): Promise<RenderedPage>;
  /** Closes the browser; safe to call more than once. */
  close(): Promise<void>;
};

export type PageRendererOptions = {
  /** The only way out: every request of every page is fetched by this client (the server's politeness gate). */
  http: HttpClient;
  /** Chromium's binary; CHROMIUM_PATH, else /usr/bin/chromium. */
  executablePath?: string;
  /** Pages rendered at once; further renders wait for a free one. */
  maxPages?: number;
  defaultTimeoutMs?: number;
};

export const DEFAULT_MAX_PAGES = 2;
export const DEFAULT_RENDER_TIMEOUT_MS = 20_000;

export { DEFAULT_CHROMIUM_PATH };

/** The Chromium binary used when none is given. */
export function chromiumPath(): string {
  return process.env.CHROMIUM_PATH || DEFAULT_CHROMIUM_PATH;
}

// Every request is fulfilled by the guarded client before it reaches Chromium's network stack. As a
// second line, all traffic (loopback included: Playwright adds <-loopback>) goes to a proxy on the
// discard port where nothing listens, so whatever escapes interception fails instead of going out.
const DEAD_PROXY = "http://127.0.0.1:9";
// WebRTC and WebTransport are not HTTP: page.route never sees them. Two layers keep them in. The
// flag holds whatever a page's scripts do, in every frame, popup and worker: WebRTC sends no UDP (no
// STUN, no TURN, no peer packets) and its TCP goes to the dead proxy (Chromium 156 reads this name;
// --force-webrtc-ip-handling-policy is ignored). QUIC, WebTransport's transport, is off in
// CHROMIUM_ARGS. The init script takes the constructors away before any script of a page, frame or
// popup runs, so nothing is even attempted and a page that looks for them carries on without; it
// does not run in workers, which is why the flag is the layer that must hold.
const RENDERER_ARGS = [...CHROMIUM_ARGS, "--webrtc-ip-handling-policy=disable_non_proxied_udp"];
const WITHOUT_NON_HTTP_CHANNELS = `(() => {
  for (const name of ["RTCPeerConnection", "webkitRTCPeerConnection", "RTCDataChannel", "WebTransport"]) delete globalThis[name];
  if (typeof Navigator === "function") delete Navigator.prototype.mediaDevices;
})();`;
const LAUNCH_TIMEOUT_MS = 30_000;
/** After "load" with no selector to wait for: a short, bounded wait for late scripts and fetches. */
const SETTLE_MS = 2_000;
/** Requests one page may make through the client: a page cannot turn the crawler into a flood. */
const MAX_REQUESTS_PER_PAGE = 200;
/** Not needed for the text, and the bulk of a page's bytes. */
const SKIPPED_RESOURCE_TYPES = new Set(["image", "media", "font"]);
/** What Chromium itself asks for when it navigates. */
const NAVIGATION_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";
const HTML_TYPE = /^\s*(text\/html|application\/xhtml\+xml)\s*(;|$)/i;
/** The pages slot key in the shared limiter. */
const PAGES = "pages";

const withoutHash = (url: string) => url.split("#", 1)[0]!;
const firstLine = (text: string) => text.split("\n", 1)[0]!.trim();

// Playwright weighs about 85 MB of a process's memory: it is loaded when a page is first rendered,
// so web processes and workers that never render one do not carry it.
let playwright: Promise<typeof Playwright> | undefined;
const loadPlaywright = () => (playwright ??= import("playwright-core"));

/** Playwright's timeout (it can only have come from Playwright, so it is loaded by then). */
const isTimeout = (error: unknown) => error instanceof Error && error.name === "TimeoutError";

async function launch(executablePath: string): Promise<Browser> {
  if (!existsSync(executablePath)) {
    throw new RenderError(
      "BROWSER_UNAVAILABLE",
      "",
      `no Chromium at ${executablePath}: install Chromium (apt-get install chromium) or set CHROMIUM_PATH to its binary`,
    );
  }
  try {
    const { chromium } = await loadPlaywright();
    return await chromium.launch({
      executablePath,
      args: RENDERER_ARGS,
      proxy: { server: DEAD_PROXY },
      timeout: LAUNCH_TIMEOUT_MS,
      // The server's own shutdown closes the browser (Playwright still kills it if the process exits first).
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
    });
  } catch (error) {
    throw new RenderError(
      "BROWSER_UNAVAILABLE",
      "",
      `Chromium at ${executablePath} could not be started (CHROMIUM_PATH names the binary): ${firstLine(errorMessage(error))}`,
      { cause: error },
    );
  }
}

/**
 * Renders JavaScript-built pages in one shared headless Chromium, launched on first use and again
 * if it dies. The page never reaches the network: every request is fetched by the guarded client
 * and handed to the page, or aborted when the client refuses it. Each render has a fresh context
 * (no cookies cross sites), closed afterwards whatever happened.
 */
export function createPageRenderer(options: PageRendererOptions): PageRenderer {
  const { http } = options;
  const executablePath = options.executablePath ?? chromiumPath();
  const defaultTimeoutMs = options.defaultTimeoutMs ?? DEFAULT_RENDER_TIMEOUT_MS;
  const slots = createHostLimiter(Math.max(1, options.maxPages ?? DEFAULT_MAX_PAGES));
  let launching: Promise<Browser> | undefined;
  let launched: Browser | undefined;
  let closing: Promise<void> | undefined;

  /** A browser found dead is dropped, so the next render launches another. */
  const discard = (dead: Browser) => {
    if (launched !== dead) return;
    launched = undefined;
    launching = undefined;
  };

  function browser(url: string): Promise<Browser> {
    if (closing) return Promise.reject(new RenderError("BROWSER_UNAVAILABLE", url, "the page renderer is closed"));
    if (!launching) {
      const attempt: Promise<Browser> = launch(executablePath).then((started) => {
        launched = started;
        started.on("disconnected", () => discard(started));
        return started;
      });
      // A failed launch is reported to the renders waiting on it; the next render tries again.
      attempt.catch(() => {
        if (launching === attempt) launching = undefined;
      });
      launching = attempt;
    }
    return launching.catch((error: unknown) => {
      throw isRenderError(error) ? new RenderError(error.code, url, error.message, { cause: error.cause }) : error;
    });
  }

  /** A fresh context; a browser found dead on the way is replaced once. */
  async function openContext(url: string, userAgent: string | undefined): Promise<BrowserContext> {
    for (let attempt = 0; ; attempt += 1) {
      const started = await browser(url);
      try {
        const context = await started.newContext({ serviceWorkers: "block", acceptDownloads: false, ...(userAgent ? { userAgent } : {}) });
        await context.addInitScript({ content: WITHOUT_NON_HTTP_CHANNELS }).catch(async (error: unknown) => {
          await context.close().catch(() => undefined);
          throw error;
        });
        return context;
      } catch (error) {
        if (attempt > 0 || closing || started.isConnected()) throw error;
        discard(started);
      }
    }
  }

  /** Sends each request of the page through the client, or aborts it. */
  async function routeThroughClient(
    context: BrowserContext,
    landing: { response: FetchResponse | undefined; key: string },
    polite: Pick<FetchRequest, "userAgent" | "crawlDelayMs" | "onWait">,
    signal: AbortSignal,
  ) {
    let requests = 0;
    await context.routeWebSocket(
      () => true,
      (socket) => void socket.close().catch(() => undefined),
    );
    await context.route("**/*", async (route: Route) => {
      try {
        const request = route.request();
        // The document already fetched is handed over once, to the navigation that asks for it.
        if (landing.response && request.isNavigationRequest() && withoutHash(request.url()) === landing.key) {
          const response = landing.response;
          landing.response = undefined;
          return await route.fulfill(fulfilment(response));
        }
        const method = request.method();
        if (SKIPPED_RESOURCE_TYPES.has(request.resourceType()) || (method !== "GET" && method !== "HEAD")) {
          return await route.abort("blockedbyclient");
        }
        if (++requests > MAX_REQUESTS_PER_PAGE) return await route.abort("blockedbyclient");
        let response: FetchResponse;
        try {
          const headers = await forwardedHeaders(request);
          response = await http.fetch(request.url(), { method, headers, ...polite, signal });
        } catch (error) {
          return await route.abort(abortReason(error));
        }
        await route.fulfill(fulfilment(response));
      } catch {
        // The context closed while this request was in flight: nothing is left to answer.
      }
    });
  }

  async function render(input: string, renderOptions: RenderOptions = {}): Promise<RenderedPage> {
    const { waitForSelector, userAgent, crawlDelayMs, signal: callerSignal } = renderOptions;
    let target: URL;
    try {
      target = new URL(input);
    } catch (error) {
      throw new RenderError("BLOCKED", input, `not a valid URL: ${input}`, { cause: error });
    }
    if (!isHttpProtocol(target)) throw new RenderError("BLOCKED", input, `only http and https pages are rendered, not ${target.protocol}`);
    const url = target.href;
    const timeoutMs = renderOptions.timeoutMs ?? defaultTimeoutMs;

    const release = await slots.acquire(PAGES, callerSignal);
    const budget = new AbortController();
    const signal = callerSignal ? AbortSignal.any([callerSignal, budget.signal]) : budget.signal;
    let context: BrowserContext | undefined;
    // Closing the context ends whatever Playwright is waiting for; the client's fetches end with the signal.
    const onAbort = () => void context?.close().catch(() => undefined);
    let timer: NodeJS.Timeout | undefined;
    let stage: "fetch" | "load" | "selector" = "fetch";
    // The page's clock. It stops while one of the page's requests waits for its turn at a site (a
    // crawl delay is not the page being slow), and when it runs out the context is closed, which ends
    // whatever Playwright is waiting for (Playwright's own waits are given no limit of their own).
    let budgetLeft = timeoutMs;
    let since = 0;
    let waiting = 0;
    let started = false;
    const runClock = () => {
      if (!started || timer !== undefined || waiting > 0 || budget.signal.aborted) return;
      since = performance.now();
      timer = setTimeout(() => budget.abort(new RenderError("TIMEOUT", url, `the page was not ready within ${timeoutMs} ms`)), Math.max(1, budgetLeft));
    };
    const stopClock = () => {
      if (timer === undefined) return;
      clearTimeout(timer);
      timer = undefined;
      budgetLeft -= performance.now() - since;
    };
    const left = () => Math.max(1, Math.round(budgetLeft - (timer === undefined ? 0 : performance.now() - since)));
    const onWait = (isWaiting: boolean) => {
      waiting += isWaiting ? 1 : -1;
      if (waiting > 0) stopClock();
      else runClock();
    };
    try {
      // Launching is not the page's time: the clock starts once a browser is up.
      await browser(url);
      started = true;
      runClock();
      signal.addEventListener("abort", onAbort, { once: true });

      // The page's own document is fetched first, outside the browser: the client follows the
      // redirects, and the browser then opens the final URL, so relative links resolve as they should.
      let fetched: FetchResponse;
      try {
        fetched = await http.fetch(url, { headers: { accept: NAVIGATION_ACCEPT }, userAgent, crawlDelayMs, onWait, signal });
      } catch (error) {
        throw isFetchError(error) ? documentError(error, url) : error;
      }
      if (fetched.contentType && !HTML_TYPE.test(fetched.contentType)) {
        throw new RenderError("NAVIGATION_FAILED", url, `not an HTML page (${fetched.contentType})`, { retryable: false });
      }

      context = await openContext(url, userAgent);
      signal.throwIfAborted();
      await routeThroughClient(context, { response: fetched, key: withoutHash(fetched.url) }, { userAgent, crawlDelayMs, onWait }, signal);
      const page = await context.newPage();
      stage = "load";
      await page.goto(fetched.url, { waitUntil: "domcontentloaded", timeout: 0 });
      if (waitForSelector) {
        stage = "selector";
        await page.waitForSelector(waitForSelector, { state: "attached", timeout: 0 });
      } else {
        await page.waitForLoadState("load", { timeout: 0 });
        await page.waitForLoadState("networkidle", { timeout: Math.min(SETTLE_MS, left()) }).catch((error: unknown) => {
          // A page still busy after the settling time is taken as it stands.
          if (!isTimeout(error)) throw error;
        });
      }
      const html = await page.content();
      const shown = page.url();
      return { url: shown.startsWith("http") ? shown : fetched.url, status: fetched.status, html, contentType: fetched.contentType };
    } catch (error) {
      if (callerSignal?.aborted) throw callerSignal.reason;
      const timedOut =
        budget.signal.aborted || isTimeout(error) || (isRenderError(error) && error.code === "TIMEOUT");
      if (timedOut && stage === "selector") {
        throw new RenderError("SELECTOR_NOT_FOUND", url, `nothing matched the selector ${waitForSelector} within ${timeoutMs} ms`, {
          cause: error,
          retryable: false,
        });
      }
      if (isRenderError(error)) throw error;
      if (timedOut) throw new RenderError("TIMEOUT", url, `the page was not ready within ${timeoutMs} ms`, { cause: error });
      throw new RenderError("NAVIGATION_FAILED", url, `the page could not be rendered: ${firstLine(errorMessage(error))}`, { cause: error });
    } finally {
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
      await context?.close().catch(() => undefined);
      release();
    }
  }

  return {
    render,
    close() {
      closing ??= (async () => {
        const attempt = launching;
        launching = undefined;
        launched = undefined;
        const started = await attempt?.catch(() => undefined);
        await started?.close().catch(() => undefined);
      })();
      return closing;
    },
  };
}
