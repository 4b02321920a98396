import { isFetchError } from "~/integrations/http/fetch-error";
import type { HttpClient } from "~/integrations/http/types";
import { errorMessage } from "~/lib/error-message";
import { FEED_ACCEPT } from "./accept";
import { isFeedParseTimeout, parseFeed, type ParsedFeed, type ParseFeedInput } from "./feed/parse-feed";

/** The spec's RSS validation result (section 3). */
export type RssValidationResult = {
  ok: boolean;
  type: string | null;
  code: string | null;
  error: string | null;
  meta: { contentType: string | null; bytes: number };
  info: { title: string | null; description: string | null; itemsCount: number; lastUpdated: string | null };
  sample: { title: string | null; link: string | null; pubDate: string | null }[];
};

export const SAMPLE_SIZE = 5;

/**
 * Fetches a feed URL through `http` (the server's politeness gate, so a feed robots.txt disallows is
 * reported as such: it could not be polled) and reports whether it is a usable feed, with a sample of its items. `parseFeed` is the time-limited parser (a worker thread) when there is one.
 */
export async function validateFeed(
  deps: { http: HttpClient; parseFeed?: (input: ParseFeedInput) => Promise<ParsedFeed> },
  rawUrl: string,
): Promise<RssValidationResult> {
  const url = rawUrl.trim();
  const failure = (code: string, error: string, meta: RssValidationResult["meta"] = { contentType: null, bytes: 0 }): RssValidationResult => ({
    ok: false,
    type: null,
    code,
    error,
    meta,
    info: { title: null, description: null, itemsCount: 0, lastUpdated: null },
    sample: [],
  });
  if (url === "") return failure("INVALID_URL", "Please enter an RSS feed URL to validate.");

  let response;
  try {
    response = await deps.http.fetch(url, { headers: { accept: FEED_ACCEPT } });
  } catch (error) {
    if (isFetchError(error)) return failure(error.code === "NETWORK_ERROR" ? "UNREACHABLE" : error.code, error.message);
    throw error;
  }
  const meta = { contentType: response.contentType, bytes: response.body.byteLength };
  if (response.status < 200 || response.status >= 300) {
    return failure("HTTP_ERROR", `The server answered HTTP ${response.status}`, meta);
  }
  let feed: ParsedFeed;
  try {
    const input = { bytes: response.body, contentType: response.contentType, url: response.url };
    feed = deps.parseFeed ? await deps.parseFeed(input) : parseFeed(input);
  } catch (error) {
    if (isFeedParseTimeout(error)) return failure("PARSE_TIMEOUT", error.message, meta);
    const html = /html/i.test(response.contentType ?? "");
    return failure("NOT_A_FEED", html ? "The URL returned a web page, not a feed" : errorMessage(error) || "The URL does not contain a valid RSS feed", meta);
  }
  return {
    ok: true,
    type: feedTypeLabel(feed),
    code: null,
    error: null,
    meta,
    info: {
      title: feed.title,
      description: feed.description,
      itemsCount: feed.items.length,
      lastUpdated: feed.updatedAt ?? newest(feed.items.map((i) => i.publishedAt)),
    },
    sample: feed.items.slice(0, SAMPLE_SIZE).map((item) => ({ title: item.title, link: item.link, pubDate: item.publishedAt })),
  };
}

/** A feed's kind as an editor reads it: "RSS 2.0", "Atom 1.0", "RSS 1.0 (RDF)", "JSON Feed 1.1". */
export function feedTypeLabel(feed: Pick<ParsedFeed, "format" | "version">): string {
  const version = feed.version ? ` ${feed.version}` : "";
  switch (feed.format) {
    case "rss":
      return `RSS${version}`;
    case "atom":
      return `Atom${version}`;
    case "rdf":
      return "RSS 1.0 (RDF)";
    case "json":
      return `JSON Feed${version}`;
  }
}

function newest(dates: (string | null)[]): string | null {
  const valid = dates.filter((d): d is string => d !== null).sort();
  return valid.at(-1) ?? null;
}
