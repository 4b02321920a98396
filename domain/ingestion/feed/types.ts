import { DomainError } from "~/domain/errors";

export type FeedFormat = "rss" | "atom" | "rdf" | "json";

/** One entry of a feed in our own shape, whatever the format. */
export type FeedItem = {
  title: string | null;
  link: string | null;
  guid: string | null;
  /** ISO 8601, UTC. */
  publishedAt: string | null;
  /** Plain text, never HTML. */
  summary: string | null;
  /** Sanitised HTML. */
  contentHtml: string | null;
  imageUrl: string | null;
};

export type ParsedFeed = {
  format: FeedFormat;
  version: string | null;
  title: string | null;
  description: string | null;
  siteUrl: string | null;
  /** ISO 8601, UTC. */
  updatedAt: string | null;
  items: FeedItem[];
};

/**
 * The document is not a feed. Codes: NOT_A_FEED (no RSS, RDF, Atom or JSON Feed root: an HTML page,
 * an empty body, anything else) and MALFORMED_FEED (it starts like a feed but cannot be read even after repair).
 * A well-formed feed with no entries is not an error: it parses with `items: []`.
 */
export class FeedParseError extends DomainError {
  constructor(code: "NOT_A_FEED" | "MALFORMED_FEED", message: string, options?: { cause?: unknown }) {
    super(code, message, options);
    this.name = "FeedParseError";
  }
}

export type ParseFeedInput = { bytes: Uint8Array | string; contentType?: string | null; url?: string | null };

/**
 * A parse cut off by its time limit (a hostile or pathological feed), told apart from a malformed
 * feed. Recognised by its code (isFeedParseTimeout), since the web build bundles its own copy of this module.
 */
export class FeedParseTimeoutError extends Error {
  readonly code = "PARSE_TIMEOUT";

  constructor(readonly limitMs: number) {
    super(`The feed took too long to parse (more than ${limitMs / 1000} s)`);
    this.name = "FeedParseTimeoutError";
  }
}

/** Narrows an unknown thrown value to a parse cut off by its time limit. */
export function isFeedParseTimeout(error: unknown): error is FeedParseTimeoutError {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === "PARSE_TIMEOUT";
}
