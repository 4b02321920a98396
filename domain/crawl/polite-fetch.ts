import type { Logger } from "pino";
import type { CrawlRepo } from "~/db/repos/crawl.repo";
import type { FetchResponse, HttpClient } from "~/integrations/http/types";
import { retryAfterMs } from "~/domain/ingestion/schedule";

/** How long to pause an origin that answered 429 without saying for how long. */
export const DEFAULT_RATE_LIMIT_PAUSE_MS = 60_000;
/** The longest pause a Retry-After can ask for. */
export const MAX_PAUSE_MS = 60 * 60_000;
/** Longest single sleep while waiting for an origin, so a released lease is noticed soon. */
const MAX_WAIT_STEP_MS = 1_000;

export type PoliteFetchOptions = {
  userAgent: string;
  /** Least time between the end of one request to this origin and the start of the next. */
  delayMs: number;
  accept?: string;
  maxBodyBytes?: number;
  signal?: AbortSignal;
};

export type PoliteFetcher = {
  /** Fetches one URL once its origin is free, then keeps the origin for `delayMs` more. */
  fetch(url: string, options: PoliteFetchOptions): Promise<FetchResponse>;
  /** Waits for the origin, runs `work`, and keeps the origin `delayMs` after (a rendered page). */
  withOrigin<T>(url: string, options: PoliteFetchOptions, work: () => Promise<T>): Promise<T>;
};

export type PoliteFetchDeps = {
  crawl: CrawlRepo;
  http: HttpClient;
  logger: Logger;
  /** Longest time one request may hold its origin (the client's own time limit plus a margin). */
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
 * One request at a time per origin, at least `delayMs` apart, across every process sharing the
 * database: the origin's lease and next slot live in crawl_hosts. Within a process, callers for one
 * origin also queue behind each other, so only one of them asks the database at a time. A 429, or a
 * 503 with Retry-After, pauses the origin for everyone.
 */
export function createPoliteFetcher(deps: PoliteFetchDeps): PoliteFetcher {
  const sleep = deps.sleep ?? defaultSleep;
  const leaseMs = deps.leaseMs ?? 60_000;
  const local = new Map<string, Promise<unknown>>();

  async function hold(origin: string, signal?: AbortSignal) {
    for (;;) {
      signal?.throwIfAborted();
      const claim = await deps.crawl.claimHost(origin, leaseMs);
      if (claim.held) return;
      await sleep(Math.max(5, Math.min(claim.waitMs, MAX_WAIT_STEP_MS)), signal);
    }
  }

  function withOrigin<T>(url: string, options: PoliteFetchOptions, work: () => Promise<T>): Promise<T> {
    const origin = new URL(url).origin;
    const previous = local.get(origin) ?? Promise.resolve();
    const turn = previous.catch(() => undefined).then(async () => {
      await hold(origin, options.signal);
      try {
        return await work();
      } finally {
        await deps.crawl.releaseHost(origin, options.delayMs).catch((error: unknown) => {
          deps.logger.warn({ err: error, origin }, "could not release a crawl origin; its lease expires by itself");
        });
      }
    });
    local.set(origin, turn);
    void turn.finally(() => {
      if (local.get(origin) === turn) local.delete(origin);
    }).catch(() => undefined);
    return turn;
  }

  return {
    withOrigin,
    fetch(url, options) {
      return withOrigin(url, options, async () => {
        const response = await deps.http.fetch(url, {
          userAgent: options.userAgent,
          headers: options.accept ? { accept: options.accept } : undefined,
          maxBodyBytes: options.maxBodyBytes,
          signal: options.signal,
        });
        const pause = pauseAfter(response);
        if (pause !== null) {
          const origin = new URL(url).origin;
          deps.logger.warn({ url, status: response.status, pauseMs: pause }, "crawl origin asked us to slow down; paused");
          await deps.crawl.pauseHost(origin, pause);
        }
        return response;
      });
    },
  };
}

/** How long an answer asks us to leave its origin alone: 429 always, 503 when it says for how long. */
export function pauseAfter(response: Pick<FetchResponse, "status" | "headers">, now = new Date()): number | null {
  if (response.status !== 429 && response.status !== 503) return null;
  const asked = retryAfterMs(response.headers["retry-after"], now);
  if (asked === null) return response.status === 429 ? DEFAULT_RATE_LIMIT_PAUSE_MS : null;
  return Math.min(MAX_PAUSE_MS, Math.max(asked, 1000));
}
