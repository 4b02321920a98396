import type { Logger } from "pino";
import type { CrawlRepo } from "~/db/repos/crawl.repo";
import { parseRobots, robotsUrlFor } from "~/integrations/crawl/robots";
import { FetchError } from "~/integrations/http/fetch-error";
import { createHostLimiter } from "~/integrations/http/host-limiter";
import type { FetchRequest, FetchResponse, HopAnswer, HttpClient } from "~/integrations/http/types";
import { decodeTextBytes } from "~/lib/decode-bytes";
import { retryAfterMs } from "~/lib/retry-after";
import { systemClock, type Clock } from "~/lib/clock";
import { keepLeases } from "~/lib/lease-keeper";
import { DEFAULT_CRAWL_DELAY_MS, MAX_CRAWL_DELAY_MS } from "./config";
import { ROBOTS_CACHE_MS, robotsFor, type OriginRobots } from "./robots-cache";

/** How long to pause an origin that answered 429 without saying for how long. */
export const DEFAULT_RATE_LIMIT_PAUSE_MS = 60_000;
/** The longest pause a Retry-After can ask for. */
export const MAX_PAUSE_MS = 60 * 60_000;
/** Longest single sleep while waiting for an origin, so a released lease is noticed soon. */
const MAX_WAIT_STEP_MS = 1_000;
/** An origin whose robots.txt could not be read is asked again after this long, not on every request. */
const UNREACHABLE_ROBOTS_MS = 60_000;
/** Origins whose robots.txt this process keeps in memory (beyond it, the oldest is read again from the database). */
const MAX_ORIGINS_REMEMBERED = 2_000;

/** robots.txt was read by another process while this one waited for its turn: it is read from the database instead. */
class RobotsReadMeanwhile extends Error {}

/** The editor's reason for a URL that robots.txt keeps us from fetching. */
export function robotsDisallowedReason(url: string): string {
  return `robots.txt disallows ${url}`;
}

/** The crawl delay a request keeps: the caller's (a source's crawlDelay, else the default), or the origin's Crawl-delay for this agent when larger, held to a minute. */
export function crawlDelayFor(robots: Pick<OriginRobots, "rules">, userAgent: string, crawlDelayMs: number): number {
  const asked = robots.rules.crawlDelaySeconds(userAgent);
  return Math.max(crawlDelayMs, asked === null ? 0 : Math.min(MAX_CRAWL_DELAY_MS, Math.round(asked * 1000)));
}

/** The one way out to a site: the guarded client behind the per-origin gate. */
export type PoliteClient = HttpClient & {
  /** A URL's origin's robots.txt as it applies now: kept a day, fetched through the gate when not known. */
  robotsOf(url: string, options?: { userAgent?: string; crawlDelayMs?: number; signal?: AbortSignal }): Promise<OriginRobots>;
};

export type PoliteClientDeps = {
  /** The guarded client every request is sent with. */
  http: HttpClient;
  crawl: CrawlRepo;
  logger: Logger;
  /** The User-Agent of requests that name none (robots.txt groups are matched by its product token). */
  userAgent: string;
  now?: Clock;
  /**
   * How long a request's hold on its origin lasts without renewal; renewed while the request runs, so
   * a process that dies mid-request frees the origin that long after (20 s by default).
   */
  leaseMs?: number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
};

const defaultSleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    signal?.throwIfAborted();
    const timer = setTimeout(done, ms);
    function done() {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }
    function onAbort() {
      clearTimeout(timer);
      reject(signal?.reason);
    }
    signal?.addEventListener("abort", onAbort, { once: true });
  });

/**
 * Every request the product makes to a site goes through here (decision 021): each hop of it (the first
 * request and every redirect) is checked against its origin's robots.txt (fetched through this same gate,
 * so it counts as a request to the site, and its Crawl-delay spaces the request after it), then waits for
 * the origin: one request at a time across every process sharing the database (crawl_hosts' lease),
 * at least the crawl delay after the previous one ended (the caller's `crawlDelayMs`, a source's crawlDelay,
 * else 1 s; or robots.txt's Crawl-delay when larger). A 429, or a 503 with Retry-After, pauses the origin.
 * A URL robots.txt disallows is not fetched: the fetch fails with ROBOTS_DISALLOWED and the reason.
 */
export function createPoliteClient(deps: PoliteClientDeps): PoliteClient {
  const sleep = deps.sleep ?? defaultSleep;
  const now = deps.now ?? systemClock;
  const leaseMs = deps.leaseMs ?? 20_000;
  // Callers in this process queue per origin first, so only one of them asks the database at a time.
  const inProcess = createHostLimiter(1);
  const remembered = new Map<string, { robots: Promise<OriginRobots>; until: number }>();

  async function takeTurn(origin: string, signal?: AbortSignal): Promise<() => void> {
    const leave = await inProcess.acquire(origin, signal);
    try {
      for (;;) {
        signal?.throwIfAborted();
        const claim = await deps.crawl.claimHost(origin, leaseMs);
        if (claim.held) {
          const held = keepLeases<string>({
            renew: (origins) => deps.crawl.renewHosts(origins, leaseMs),
            everyMs: leaseMs / 4,
            onError: (error) => deps.logger.warn({ err: error, origin }, "could not renew a site's origin; trying again"),
          });
          held.hold([origin]);
          return () => {
            held.stop();
            leave();
          };
        }
        await sleep(Math.max(5, Math.min(claim.waitMs, MAX_WAIT_STEP_MS)), signal);
      }
    } catch (error) {
      leave();
      throw error;
    }
  }

  // `forRobots`: the hops of a robots.txt fetch, which are never checked against robots.txt (a redirect
  // to another path would otherwise wait for the very answer it is fetching).
  function gate(userAgent: string, crawlDelayMs: number, forRobots: boolean, onWait?: (waiting: boolean) => void): NonNullable<FetchRequest["eachHop"]> {
    return async (hopUrl, signal) => {
      onWait?.(true);
      try {
        return await hop(hopUrl, signal);
      } finally {
        onWait?.(false);
      }
    };

    async function hop(hopUrl: string, signal?: AbortSignal) {
      const url = new URL(hopUrl);
      const origin = url.origin;
      // robots.txt itself is always allowed; its own Crawl-delay spaces the request after it.
      const isRobots = forRobots || url.pathname === "/robots.txt";
      let delayMs = crawlDelayMs;
      if (!isRobots) {
        const robots = await robotsOf(hopUrl, { userAgent, crawlDelayMs, signal });
        if (robots.state === "unreachable") {
          // The site itself could not be reached: that is the reason, as it would be without robots.txt.
          if (robots.error) throw new FetchError(robots.error.code, hopUrl, robots.error.message, { cause: robots.error, retryable: robots.error.retryable });
          throw new FetchError("ROBOTS_UNAVAILABLE", hopUrl, `${robots.reason ?? "robots.txt unreachable"}: nothing is fetched from ${origin} until it answers`);
        }
        if (!robots.rules.isAllowed(hopUrl, userAgent)) {
          throw new FetchError("ROBOTS_DISALLOWED", hopUrl, robotsDisallowedReason(hopUrl));
        }
        delayMs = crawlDelayFor(robots, userAgent, crawlDelayMs);
      }
      const leave = await takeTurn(origin, signal);
      if (forRobots && hopUrl === robotsUrlFor(hopUrl)) {
        // Another process may have read this robots.txt while we waited for the turn: then it is not asked again.
        const known = await deps.crawl.readRobots(origin).catch(() => null);
        if (known && now() - known.fetchedAt.getTime() < ROBOTS_CACHE_MS) {
          await deps.crawl.releaseHost(origin, 0).catch(() => undefined);
          leave();
          throw new RobotsReadMeanwhile();
        }
      }
      return async (answer: HopAnswer | null) => {
        try {
          if (answer && isRobots) delayMs = robotsAnswerDelay(url.href, answer, userAgent, delayMs);
          const pause = answer ? pauseAfter(answer) : null;
          if (pause !== null) {
            deps.logger.warn({ url: hopUrl, status: answer?.status, pauseMs: pause }, "site asked us to slow down; its origin is paused");
            await deps.crawl.pauseHost(origin, pause);
          }
          await deps.crawl.releaseHost(origin, delayMs);
        } catch (error) {
          deps.logger.warn({ err: error, origin }, "could not release a site's origin; its lease expires by itself");
        } finally {
          leave();
        }
      };
    }
  }

  function send(url: string, request: FetchRequest, forRobots: boolean): Promise<FetchResponse> {
    const userAgent = request.userAgent ?? deps.userAgent;
    const crawlDelayMs = Math.min(MAX_CRAWL_DELAY_MS, Math.max(0, request.crawlDelayMs ?? DEFAULT_CRAWL_DELAY_MS));
    return deps.http.fetch(url, { ...request, userAgent, eachHop: gate(userAgent, crawlDelayMs, forRobots, request.onWait) });
  }
  const fetch = (url: string, request: FetchRequest = {}) => send(url, request, false);

  function robotsOf(url: string, options: { userAgent?: string; crawlDelayMs?: number; signal?: AbortSignal } = {}): Promise<OriginRobots> {
    const origin = new URL(robotsUrlFor(url)).origin;
    const known = remembered.get(origin);
    if (known && known.until > now()) return known.robots;
    const entry = { robots: Promise.resolve<OriginRobots>(undefined as never), until: Number.POSITIVE_INFINITY };
    // null: another process read it while this one waited for the turn (the client wraps what the gate throws).
    const fetchRobots = (robotsUrl: string, request: FetchRequest) =>
      send(robotsUrl, request, true).catch((error: unknown) => {
        if ((error as { cause?: unknown } | null)?.cause instanceof RobotsReadMeanwhile) return null;
        throw error;
      });
    entry.robots = robotsFor({ crawl: deps.crawl, fetch: fetchRobots, logger: deps.logger, now }, origin, {
      userAgent: options.userAgent ?? deps.userAgent,
      crawlDelayMs: options.crawlDelayMs,
      signal: options.signal,
    }).then(
      (robots) => {
        entry.until = robots.state === "unreachable" ? now() + UNREACHABLE_ROBOTS_MS : robots.fetchedAt.getTime() + ROBOTS_CACHE_MS;
        return robots;
      },
      (error: unknown) => {
        // Cancelled or broken: the next caller asks again.
        if (remembered.get(origin) === entry) remembered.delete(origin);
        throw error;
      },
    );
    remembered.delete(origin);
    remembered.set(origin, entry);
    if (remembered.size > MAX_ORIGINS_REMEMBERED) remembered.delete(remembered.keys().next().value!);
    return entry.robots;
  }

  // The guarded client beneath belongs to whoever built it, and is closed by them.
  return { fetch, robotsOf, close: async () => undefined };
}

/** The delay after a robots.txt request: its own Crawl-delay for this agent, when it asks for more. */
function robotsAnswerDelay(robotsUrl: string, answer: HopAnswer, userAgent: string, delayMs: number): number {
  if (answer.status < 200 || answer.status >= 300) return delayMs;
  const rules = parseRobots(robotsUrl, decodeTextBytes(answer.body, answer.headers["content-type"] ?? null));
  return crawlDelayFor({ rules }, userAgent, delayMs);
}

/** How long an answer asks us to leave its origin alone: 429 always, 503 when it says for how long. */
export function pauseAfter(response: Pick<FetchResponse, "status" | "headers">, now = new Date()): number | null {
  if (response.status !== 429 && response.status !== 503) return null;
  const asked = retryAfterMs(response.headers["retry-after"], now);
  if (asked === null) return response.status === 429 ? DEFAULT_RATE_LIMIT_PAUSE_MS : null;
  return Math.min(MAX_PAUSE_MS, Math.max(asked, 1000));
}
