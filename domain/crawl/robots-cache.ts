import type { Logger } from "pino";
import type { CrawlRepo } from "~/db/repos/crawl.repo";
import { ALLOW_ALL, DISALLOW_ALL, parseRobots, robotsUrlFor, type RobotsRules } from "~/integrations/crawl/robots";
import { isFetchError } from "~/integrations/http/fetch-error";
import type { FetchError } from "~/integrations/http/fetch-error";
import type { FetchRequest, FetchResponse } from "~/integrations/http/types";
import { describeError } from "~/domain/ingestion/describe-error";
import { decodeTextBytes } from "~/lib/decode-bytes";
import { dateOf, type Clock } from "~/lib/clock";

/** robots.txt answers are kept a day per origin (RFC 9309 asks for no more than 24 hours). */
export const ROBOTS_CACHE_MS = 24 * 60 * 60_000;
const ROBOTS_MAX_FETCH_BYTES = 2 * 1024 * 1024;

/** An origin's robots.txt as it applies now: rules, and whether anything may be fetched at all. */
export type OriginRobots = {
  rules: RobotsRules;
  /** "unreachable": a 5xx, a 429 or no answer; nothing is fetched from the origin for now. */
  state: "rules" | "allow-all" | "unreachable";
  reason: string | null;
  /** When the answer was fetched (now, for one that could not be). */
  fetchedAt: Date;
  /** Why robots.txt could not be fetched at all (the site is unreachable), when that is why. */
  error?: FetchError;
};

function fromAnswer(robotsUrl: string, status: number, body: string, fetchedAt: Date): OriginRobots {
  if (status >= 200 && status < 300) return { rules: parseRobots(robotsUrl, body), state: "rules", reason: null, fetchedAt };
  // RFC 9309 2.3.1.3: an unavailable robots.txt (4xx) means no rules; Google reads a 429 as the
  // server error it reports (2.3.1.4: unreachable, so nothing is fetched).
  if (status >= 400 && status < 500 && status !== 429) return { rules: ALLOW_ALL, state: "allow-all", reason: null, fetchedAt };
  return { rules: DISALLOW_ALL, state: "unreachable", reason: `robots.txt answered HTTP ${status}`, fetchedAt };
}

/**
 * Reads an origin's robots.txt: from the database when fetched in the last day, else with `fetch`
 * (the politeness gate, so the request counts; redirects followed by the client). 2xx and 4xx
 * answers are kept; a 5xx, a 429 or a failure is not, so the next reader asks again.
 */
export async function robotsFor(
  deps: {
    crawl: CrawlRepo;
    /** null: another process fetched it meanwhile, and the database has it. */
    fetch: (url: string, request: FetchRequest) => Promise<FetchResponse | null>;
    logger: Logger;
    now: Clock;
  },
  origin: string,
  options: { userAgent: string; crawlDelayMs?: number; signal?: AbortSignal },
): Promise<OriginRobots> {
  const robotsUrl = robotsUrlFor(origin);
  const cached = await deps.crawl.readRobots(origin);
  if (cached && deps.now() - cached.fetchedAt.getTime() < ROBOTS_CACHE_MS) {
    return fromAnswer(robotsUrl, cached.status, cached.body, cached.fetchedAt);
  }
  try {
    const response = await deps.fetch(robotsUrl, {
      userAgent: options.userAgent,
      crawlDelayMs: options.crawlDelayMs,
      signal: options.signal,
      headers: { accept: "text/plain, */*;q=0.5" },
      maxBodyBytes: ROBOTS_MAX_FETCH_BYTES,
    });
    if (response === null) {
      const meanwhile = await deps.crawl.readRobots(origin);
      if (meanwhile) return fromAnswer(robotsUrl, meanwhile.status, meanwhile.body, meanwhile.fetchedAt);
      return { rules: DISALLOW_ALL, state: "unreachable", reason: "robots.txt could not be read", fetchedAt: dateOf(deps.now) };
    }
    const body = response.status >= 200 && response.status < 300 ? decodeTextBytes(response.body, response.contentType) : "";
    const fetchedAt = dateOf(deps.now);
    const robots = fromAnswer(robotsUrl, response.status, body, fetchedAt);
    if (robots.state !== "unreachable") {
      await deps.crawl.storeRobots(origin, { status: response.status, body, fetchedAt });
    }
    return robots;
  } catch (error) {
    if (!isFetchError(error)) throw error;
    const reason = `robots.txt could not be fetched (${describeError(error)})`;
    // Whoever asked records it (a discovery's warning, a queued URL's reason): said once there, not here too.
    deps.logger.debug({ origin, err: reason }, "robots.txt unreachable; nothing fetched from this origin for now");
    return { rules: DISALLOW_ALL, state: "unreachable", reason, fetchedAt: dateOf(deps.now), error };
  }
}
