/** What a caller may ask of the guarded client. */
export type FetchRequest = {
  method?: "GET" | "HEAD";
  /** Extra request headers (Accept, say). User-Agent and Accept-Encoding are set by the client. */
  headers?: Record<string, string>;
  /** Conditional GET: the validators of the last response, sent as If-None-Match / If-Modified-Since. */
  etag?: string | null;
  lastModified?: string | null;
  signal?: AbortSignal;
  /** This request's User-Agent instead of the client's (a crawl source's configured agent). */
  userAgent?: string;
  /** This request's body cap instead of the client's (sitemaps may be 50 MB uncompressed). */
  maxBodyBytes?: number;
  /** Read only the first this-many bytes of the body and drop the connection (an image's header); `truncated` says so. */
  firstBytes?: number;
  /**
   * Least time between the end of this request and the next one to the same origin: a source's
   * crawlDelay. Only the politeness gate (domain/crawl/polite-client.ts) reads it.
   */
  crawlDelayMs?: number;
  /**
   * Runs before each request of the chain (the first and every redirect hop), once the hop's URL is
   * known: it may refuse the hop by throwing, or wait for the hop's turn at its origin. The function it
   * returns is called when the hop is over, with its answer (none when it failed). The politeness gate.
   */
  eachHop?: (url: string, signal?: AbortSignal) => Promise<(answer: HopAnswer | null) => Promise<void>>;
  /** Told when this request starts (true) and stops (false) waiting for its turn at a site: a rendered page's clock stops meanwhile. */
  onWait?: (waiting: boolean) => void;
};

/** One hop's answer as `eachHop` sees it: a redirect's has an empty body. */
export type HopAnswer = { status: number; headers: Record<string, string>; body: Buffer };

/** A completed response. Any status is returned (4xx and 5xx too): the caller decides what it means. */
export type FetchResponse = {
  /** The final URL, after redirects. */
  url: string;
  status: number;
  /** Response headers, names lower-cased. */
  headers: Record<string, string>;
  /** The decompressed body (empty for 304 and HEAD). */
  body: Buffer;
  contentType: string | null;
  etag: string | null;
  lastModified: string | null;
  /** True when the body reached the request's `firstBytes` and was cut there (more may have been on its way). */
  truncated?: boolean;
  /** True for a 304 answer to a conditional GET. */
  notModified: boolean;
  /** Every URL redirected through, in order (not including the final one). */
  redirects: string[];
  durationMs: number;
};

export type FetchErrorCode =
  | "INVALID_URL"
  | "UNSUPPORTED_SCHEME"
  | "BLOCKED_ADDRESS"
  | "DNS_FAILURE"
  | "TOO_MANY_REDIRECTS"
  | "TIMEOUT"
  | "BODY_TOO_LARGE"
  | "NETWORK_ERROR"
  | "DECODE_ERROR"
  /** robots.txt does not let us fetch this URL (the politeness gate). */
  | "ROBOTS_DISALLOWED"
  /** robots.txt answered 5xx or 429, or not at all: nothing is fetched from its origin for now (RFC 9309 2.3.1.4). */
  | "ROBOTS_UNAVAILABLE";

/** The one HTTP client for server-side fetches. */
export type HttpClient = {
  fetch(url: string, request?: FetchRequest): Promise<FetchResponse>;
  close(): Promise<void>;
};
