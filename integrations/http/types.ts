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
};

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
  | "DECODE_ERROR";

/** The one HTTP client for server-side fetches. */
export type HttpClient = {
  fetch(url: string, request?: FetchRequest): Promise<FetchResponse>;
  close(): Promise<void>;
};
