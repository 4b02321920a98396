import type { Logger } from "pino";
import type { Repos } from "~/db/repos";
import type { HttpClient } from "~/integrations/http/types";
import type { ParsedFeed, ParseFeedInput } from "./feed/parse-feed";

/** Where the time comes from: the real clock in production, a controllable one in tests. */
export type Clock = { now(): Date };

export const systemClock: Clock = { now: () => new Date() };

/** What the ingestion steps need from the outside world. */
export type IngestionDeps = {
  repos: Repos;
  http: HttpClient;
  logger: Logger;
  clock?: Clock;
  /** Jitter source for back-off; Math.random unless a test fixes it. */
  random?: () => number;
  /** Feed parsing, when it runs elsewhere (a worker thread); parseFeed on this thread otherwise. */
  parseFeed?: (input: ParseFeedInput) => Promise<ParsedFeed>;
};
