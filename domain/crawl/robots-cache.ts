import type { Logger } from "pino";
import type { CrawlRepo } from "~/db/repos/crawl.repo";
import { ALLOW_ALL, DISALLOW_ALL, parseRobots, robotsUrlFor, type RobotsRules } from "~/integrations/crawl/robots";
import { isFetchError } from "~/integrations/http/fetch-error";
import { describeError } from "~/domain/ingestion/describe-error";
import { decodeTextBytes } from "~/lib/decode-bytes";
import { MAX_CRAWL_DELAY_MS } from "./config";
import type { PoliteFetcher } from "./polite-fetch";

/** robots.txt answers are kept a day per origin (RFC 9309 asks for no more than 24 hours). */
export const ROBOTS_CACHE_MS = 24 * 60 * 60_000;
const ROBOTS_MAX_FETCH_BYTES = 2 * 1024 * 1024;

/** An origin's robots.txt as it applies now: rules, and whether anything may be fetched at all. */
export type OriginRobots = {
  rules: RobotsRules;
  /** "unreachable": a 5xx or no answer; nothing is fetched from the origin this cycle. */
  state: "rules" | "allow-all" | "unreachable";
  reason: string | null;
};

function fromAnswer(robotsUrl: string, status: number, body: string): OriginRobots {
  if (status >= 200 && status < 300) return { rules: parseRobots(robotsUrl, body), state: "rules", reason: null };
  // RFC 9309 2.3.1.3: an unavailable robots.txt (4xx) means no rules.
  if (status >= 400 && status < 500) return { rules: ALLOW_ALL, state: "allow-all", reason: null };
  return { rules: DISALLOW_ALL, state: "unreachable", reason: `robots.txt answered HTTP ${status}` };
}

/**
 * Reads an origin's robots.txt: from the database when fetched in the last day, else through the
 * polite fetcher (redirects followed by the client). 2xx and 4xx answers are cached; a 5xx or a
 * failure is not, so the next cycle asks again.
 */
export async function robotsFor(
  deps: { crawl: CrawlRepo; fetcher: PoliteFetcher; logger: Logger; now: () => Date },
  origin: string,
  options: { userAgent: string; delayMs: number; signal?: AbortSignal },
): Promise<OriginRobots> {
  const robotsUrl = robotsUrlFor(origin);
  const cached = await deps.crawl.readRobots(origin);
  if (cached && deps.now().getTime() - cached.fetchedAt.getTime() < ROBOTS_CACHE_MS) {
    return fromAnswer(robotsUrl, cached.status, cached.body);
  }
  try {
    const response = await deps.fetcher.fetch(robotsUrl, {
      ...options,
      accept: "text/plain, */*;q=0.5",
      maxBodyBytes: ROBOTS_MAX_FETCH_BYTES,
    });
    const body = response.status >= 200 && response.status < 300 ? decodeTextBytes(response.body, response.contentType) : "";
    const robots = fromAnswer(robotsUrl, response.status, body);
    if (robots.state !== "unreachable") {
      await deps.crawl.storeRobots(origin, { status: response.status, body, fetchedAt: deps.now() });
    }
    return robots;
  } catch (error) {
    if (!isFetchError(error)) throw error;
    const reason = `robots.txt could not be fetched (${describeError(error)})`;
    // Whoever asked records it (a discovery's warning, a queued URL's reason): said once there, not here too.
    deps.logger.debug({ origin, err: reason }, "robots.txt unreachable; nothing fetched from this origin this cycle");
    return { rules: DISALLOW_ALL, state: "unreachable", reason };
  }
}

/** One run's view of robots.txt: each origin's rules read once, and the delay they ask of this agent. */
export type RobotsMemo = {
  robotsOf(url: string): Promise<OriginRobots>;
  /** The source's crawl delay, or the origin's Crawl-delay for this agent when larger (held to a minute). */
  delayFor(robots: OriginRobots): number;
};

export function robotsMemo(
  deps: { crawl: CrawlRepo; fetcher: PoliteFetcher; logger: Logger; now: () => Date },
  config: { userAgent: string; crawlDelayMs: number },
  signal?: AbortSignal,
): RobotsMemo {
  const byOrigin = new Map<string, Promise<OriginRobots>>();
  return {
    robotsOf(url) {
      const origin = new URL(url).origin;
      let robots = byOrigin.get(origin);
      if (!robots) {
        robots = robotsFor(deps, origin, { userAgent: config.userAgent, delayMs: config.crawlDelayMs, signal });
        byOrigin.set(origin, robots);
      }
      return robots;
    },
    delayFor(robots) {
      const asked = robots.rules.crawlDelaySeconds(config.userAgent);
      return Math.max(config.crawlDelayMs, asked === null ? 0 : Math.min(MAX_CRAWL_DELAY_MS, Math.round(asked * 1000)));
    },
  };
}
