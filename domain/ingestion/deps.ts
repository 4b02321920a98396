import type { Logger } from "pino";
import type { Repos } from "~/db/repos";
import type { HttpClient } from "~/integrations/http/types";
import type { Clock } from "~/lib/clock";
import type { ParsedFeed, ParseFeedInput } from "./feed/parse-feed";

/** What the ingestion steps need from the outside world. */
export type IngestionDeps = {
  repos: Repos;
  http: HttpClient;
  logger: Logger;
  now?: Clock;
  /** Jitter source for back-off; Math.random unless a test fixes it. */
  random?: () => number;
  /** Feed parsing, when it runs elsewhere (a worker thread); parseFeed on this thread otherwise. */
  parseFeed?: (input: ParseFeedInput) => Promise<ParsedFeed>;
};
