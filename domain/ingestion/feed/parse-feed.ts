import { DetectError } from "feedsmith";
import { decodeFeedBytes } from "~/lib/decode-bytes";
import { httpUrlOrNull } from "~/lib/http-url";
import { fromAtom } from "./atom";
import { fromJson, parseJsonFeed } from "./json-feed";
import { fromRdf } from "./rdf";
import { addChannel, closeTruncated, decodeBase64Modes, emptyFeed, trimLeadingJunk, unprefixRss } from "./repair";
import { fromRss } from "./rss";
import { FeedParseError, type ParsedFeed, type ParseFeedInput } from "./types";
import { tryFeedsmith } from "./values";
import { detectVersion } from "./version";

export { FeedParseError, FeedParseTimeoutError, isFeedParseTimeout, type FeedFormat, type FeedItem, type ParsedFeed, type ParseFeedInput } from "./types";

/** Parses RSS 0.9x/2.0, RSS 1.0 (RDF), Atom 0.3/1.0 or JSON Feed bytes into our feed shape, repairing common breakage. */
export function parseFeed(input: ParseFeedInput): ParsedFeed {
  const raw = typeof input.bytes === "string" ? input.bytes : decodeFeedBytes(input.bytes, input.contentType).text;
  const feedUrl = httpUrlOrNull(input.url ?? null, null);
  const trimmed = trimLeadingJunk(raw).trim();
  if (trimmed === "") throw new FeedParseError("NOT_A_FEED", "The document is empty.");
  if (trimmed.startsWith("{")) return parseJsonFeed(trimmed, feedUrl);
  const text = decodeBase64Modes(unprefixRss(trimmed));

  let parsed = tryFeedsmith(text);
  let source = text;
  if (parsed instanceof Error) {
    const repairs = [closeTruncated(text), addChannel(text), addChannel(closeTruncated(text))];
    for (const repaired of repairs) {
      if (!repaired || repaired === text) continue;
      const attempt = tryFeedsmith(repaired);
      if (!(attempt instanceof Error)) {
        parsed = attempt;
        source = repaired;
        break;
      }
    }
  }
  if (parsed instanceof Error) {
    const empty = emptyFeed(text);
    if (empty) return empty;
    const recognised = !(parsed instanceof DetectError && /unrecognized/i.test(parsed.message)) || /<(?:[\w-]+:)?(?:rss|feed|RDF)\b/i.test(text);
    throw recognised
      ? new FeedParseError("MALFORMED_FEED", "The feed could not be read, even after repair.", { cause: parsed })
      : new FeedParseError("NOT_A_FEED", "The document is not an RSS, Atom, RDF or JSON feed.", { cause: parsed });
  }

  const version = detectVersion(parsed.format, source, null);
  switch (parsed.format) {
    case "rss":
      return fromRss(parsed.feed, feedUrl, version);
    case "atom":
      return fromAtom(parsed.feed, feedUrl, version);
    case "rdf":
      return fromRdf(parsed.feed, feedUrl, version);
    case "json":
      return fromJson(parsed.feed, feedUrl, version);
  }
}
