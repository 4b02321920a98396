import { lookup as dnsLookup } from "node:dns/promises";
import type { LookupAddress, LookupOptions } from "node:dns";
import type { LookupFunction } from "node:net";
import { Agent, request as undiciRequest } from "undici";
import { errorMessage } from "~/lib/error-message";
import packageJson from "~/package.json";
import { ipLiteral, isPublicAddress } from "./address-policy";
import { FetchError, isFetchError } from "./fetch-error";
import { createHostLimiter } from "./host-limiter";
import { ACCEPT_ENCODING, readDecodedBody } from "./read-body";
import type { FetchRequest, FetchResponse, HopAnswer, HttpClient } from "./types";
import { isHttpProtocol } from "~/lib/http-url";

export { FetchError, isFetchError } from "./fetch-error";

export type ResolvedAddress = { address: string; family: 4 | 6 };

export type GuardedClientOptions = {
  userAgent: string;
  /** Host names (exact, as in the URL) that skip the address check: tests' 127.0.0.1. */
  allowHosts?: string[];
  /** Total time for one fetch, redirects and body included. */
  timeoutMs?: number;
  /** Largest body accepted, counted after decompression. */
  maxBodyBytes?: number;
  maxRedirects?: number;
  perHostConcurrency?: number;
  /** Resolves a host name to every address it has (injectable for tests). */
  lookup?: (hostname: string) => Promise<ResolvedAddress[]>;
};

export const DEFAULT_TIMEOUT_MS = 20_000;
export const DEFAULT_MAX_BODY_BYTES = 10 * 1024 * 1024;
export const DEFAULT_MAX_REDIRECTS = 5;
export const DEFAULT_PER_HOST_CONCURRENCY = 2;

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** Headers that must not follow a redirect to another origin. */
const CREDENTIAL_HEADERS = ["authorization", "cookie", "proxy-authorization"];

/** The User-Agent for every outgoing request: names Oddwire and the site it fetches for. */
export function userAgentFor(siteUrl: string): string {
  return `Oddwire/${packageJson.version} (+${siteUrl.replace(/\/+$/, "")})`;
}

// Names reserved for documentation and testing (RFC 2606, RFC 6761) never resolve on the internet:
// answer them here rather than sending a query (demo and test sources use them). "localhost" names
// are loopback by definition, which the guard then refuses.
const RESERVED_NAME = /(^|\.)(example|invalid|test)\.?$|(^|\.)example\.(com|net|org)\.?$/i;
const LOOPBACK_NAME = /(^|\.)localhost\.?$/i;

async function systemLookup(hostname: string): Promise<ResolvedAddress[]> {
  if (LOOPBACK_NAME.test(hostname)) return [{ address: "127.0.0.1", family: 4 }];
  if (RESERVED_NAME.test(hostname)) throw Object.assign(new Error(`${hostname} is a reserved name`), { code: "ENOTFOUND" });
  const addresses = await dnsLookup(hostname, { all: true, verbatim: true });
  return addresses.map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }));
}

const normaliseHost = (host: string) => host.trim().toLowerCase().replace(/^\[|\]$/g, "");

/**
 * The lookup the Agent's sockets use: it resolves once, refuses the connection unless every address
 * is public (or the host is allowed), and hands exactly those vetted addresses to the socket, so a
 * second, different DNS answer can never be what gets connected to.
 */
export function guardedLookup(
  resolve: (hostname: string) => Promise<ResolvedAddress[]>,
  isAllowed: (hostname: string) => boolean,
): LookupFunction {
  const vet = async (hostname: string): Promise<ResolvedAddress[]> => {
    let addresses: ResolvedAddress[];
    try {
      addresses = await resolve(hostname);
    } catch (error) {
      const reason = /reserved name/.test(errorMessage(error)) ? ": a reserved name, never on the internet" : "";
      throw new FetchError("DNS_FAILURE", hostname, `cannot resolve ${hostname}${reason}`, { cause: error });
    }
    if (addresses.length === 0) throw new FetchError("DNS_FAILURE", hostname, `${hostname} has no address`);
    const blocked = isAllowed(hostname) ? undefined : addresses.find((a) => !isPublicAddress(a.address));
    if (blocked) {
      throw new FetchError("BLOCKED_ADDRESS", hostname, `${hostname} resolves to a non-public address (${blocked.address})`);
    }
    return addresses;
  };
  return (hostname: string, options: LookupOptions, callback) => {
    const family = options.family === "IPv4" ? 4 : options.family === "IPv6" ? 6 : options.family;
    vet(hostname).then(
      (addresses) => {
        const usable = family === 4 || family === 6 ? addresses.filter((a) => a.family === family) : addresses;
        const first = usable[0];
        if (!first) return callback(new FetchError("DNS_FAILURE", hostname, `${hostname} has no IPv${family} address`), "");
        if (options.all) return callback(null, usable as LookupAddress[]);
        callback(null, first.address, first.family);
      },
      (error: FetchError) => callback(error as unknown as NodeJS.ErrnoException, ""),
    );
  };
}

function parseTarget(input: string, base?: URL): URL {
  let url: URL;
  try {
    url = new URL(input, base);
  } catch (error) {
    throw new FetchError("INVALID_URL", input, `not a valid URL: ${input}`, { cause: error });
  }
  if (!isHttpProtocol(url)) {
    throw new FetchError("UNSUPPORTED_SCHEME", url.href, `only http and https may be fetched, not ${url.protocol}`);
  }
  return url;
}

const TIMEOUT_CODES = new Set(["UND_ERR_CONNECT_TIMEOUT", "UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT", "ETIMEDOUT"]);
const DNS_CODES = new Set(["ENOTFOUND", "EAI_AGAIN", "EAI_FAIL", "EAI_NONAME", "ENODATA"]);
const PROTOCOL_CODES = new Set(["UND_ERR_HEADERS_OVERFLOW", "UND_ERR_INVALID_ARG", "UND_ERR_NOT_SUPPORTED"]);

function errorCode(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === "string") return code;
  const inner = (error as { errors?: unknown[] } | null)?.errors?.[0]; // AggregateError of a multi-address connect
  return inner ? errorCode(inner) : "";
}

/** Maps what undici or a socket threw to our error vocabulary. */
function toFetchError(error: unknown, url: string): FetchError {
  if (isFetchError(error)) {
    return error.url === url ? error : new FetchError(error.code, url, error.message, { cause: error.cause, retryable: error.retryable });
  }
  const code = errorCode(error);
  const detail = errorMessage(error);
  if (TIMEOUT_CODES.has(code)) return new FetchError("TIMEOUT", url, `timed out: ${detail}`, { cause: error });
  if (DNS_CODES.has(code)) return new FetchError("DNS_FAILURE", url, `cannot resolve: ${detail}`, { cause: error });
  // A broken certificate or a server speaking garbage will not mend by retrying soon.
  const permanent = PROTOCOL_CODES.has(code) || code.startsWith("HPE_") || /CERT|SSL|TLS/.test(code);
  return new FetchError("NETWORK_ERROR", url, `network error: ${detail}`, { cause: error, retryable: !permanent });
}

function flattenHeaders(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
  }
  return headers;
}

/**
 * The one HTTP client for server-side fetches: http(s) only, public addresses only (checked after DNS
 * and on every redirect hop), a total time limit, a body cap on decoded bytes, gzip/deflate/br,
 * conditional GET and a per-host concurrency limit, over one keep-alive undici Agent.
 *
 * undici `request` rather than `fetch`: `fetch` decompresses out of our sight, while here the
 * decoding is ours, so the cap counts inflated bytes and a corrupt stream is told apart from a
 * network failure (DECODE_ERROR vs NETWORK_ERROR).
 */
export function createGuardedClient(options: GuardedClientOptions): HttpClient {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const maxRedirects = options.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  const allowed = new Set((options.allowHosts ?? []).map(normaliseHost).filter(Boolean));
  const isAllowed = (hostname: string) => allowed.has(normaliseHost(hostname));
  const perHost = options.perHostConcurrency ?? DEFAULT_PER_HOST_CONCURRENCY;
  const limiter = createHostLimiter(perHost);
  const agent = new Agent({
    // Capping sockets per origin at the host limit makes a request that arrives while the previous
    // one's socket is still being released wait for it, instead of opening yet another connection.
    connections: perHost,
    keepAliveTimeout: 4_000,
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    connect: { timeout: Math.min(timeoutMs, 10_000), lookup: guardedLookup(options.lookup ?? systemLookup, isAllowed) },
  });

  /** IP literals never reach the socket's lookup, so they are vetted here. */
  const checkLiteral = (url: URL) => {
    const ip = ipLiteral(url.hostname);
    if (ip && !isAllowed(url.hostname) && !isPublicAddress(ip)) {
      throw new FetchError("BLOCKED_ADDRESS", url.href, `${ip} is not a public address`);
    }
  };

  /**
   * Follows the redirect chain; `hop` always holds the URL being fetched, for error reports. The
   * clock starts once the first slot is held: waiting behind other fetches to a busy host is not
   * this fetch being slow. Later hops' waits for a slot do count; waits for a turn at an origin
   * (`eachHop`, the politeness gate) never do.
   */
  async function follow(
    hop: { url: URL; redirects: string[] },
    request: FetchRequest,
    signal: AbortSignal,
    clock: { start: () => void; stop: () => void },
  ) {
    const { redirects } = hop;
    let url = hop.url;
    let method = request.method ?? "GET";
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.headers ?? {})) headers[name.toLowerCase()] = value;
    if (request.etag) headers["if-none-match"] = request.etag;
    if (request.lastModified) headers["if-modified-since"] = request.lastModified;
    headers.accept ??= "*/*";
    headers["user-agent"] = request.userAgent ?? options.userAgent;
    const bodyCap = request.maxBodyBytes ?? maxBodyBytes;
    headers["accept-encoding"] = ACCEPT_ENCODING;

    for (;;) {
      let hopDone: ((answer: HopAnswer | null) => Promise<void>) | undefined;
      let answer: HopAnswer | null = null;
      try {
        checkLiteral(url);
        if (request.eachHop) {
          // Waiting for the origin's turn (a crawl delay) is not this fetch being slow, on any hop.
          clock.stop();
          hopDone = await request.eachHop(url.href, request.signal);
          if (redirects.length > 0) clock.start();
        }
        const release = await limiter.acquire(url.hostname, redirects.length === 0 ? request.signal : signal);
        clock.start();
        try {
          const response = await undiciRequest(url, { dispatcher: agent, method, headers, signal });
          const responseHeaders = flattenHeaders(response.headers);
          const location = responseHeaders.location;
          if (REDIRECT_STATUSES.has(response.statusCode) && location) {
            await response.body.dump();
            answer = { status: response.statusCode, headers: responseHeaders, body: Buffer.alloc(0) };
            if (redirects.length >= maxRedirects) {
              throw new FetchError("TOO_MANY_REDIRECTS", url.href, `more than ${maxRedirects} redirects`);
            }
            const next = parseTarget(location, url);
            redirects.push(url.href);
            // 301/302/303 become GET as browsers do; HEAD stays HEAD, it asks for no body either way.
            if (response.statusCode !== 307 && response.statusCode !== 308 && method !== "HEAD") method = "GET";
            if (next.origin !== url.origin) for (const name of CREDENTIAL_HEADERS) delete headers[name];
            url = hop.url = next;
            continue;
          }
          const noBody = method === "HEAD" || response.statusCode === 304 || response.statusCode === 204;
          const declared = Number(responseHeaders["content-length"]);
          if (!noBody && request.firstBytes === undefined && Number.isFinite(declared) && declared > bodyCap) {
            response.body.destroy();
            throw new FetchError("BODY_TOO_LARGE", url.href, `declared body of ${declared} bytes exceeds ${bodyCap}`);
          }
          const body = noBody
            ? (await response.body.dump(), Buffer.alloc(0))
            : await readDecodedBody(response.body, responseHeaders["content-encoding"], bodyCap, url.href, request.firstBytes);
          answer = { status: response.statusCode, headers: responseHeaders, body };
          return { url, status: response.statusCode, headers: responseHeaders, body };
        } finally {
          release();
        }
      } catch (error) {
        if (signal.aborted) throw error;
        throw toFetchError(error, url.href);
      } finally {
        await hopDone?.(answer);
      }
    }
  }

  return {
    async fetch(input: string, request: FetchRequest = {}): Promise<FetchResponse> {
      const started = performance.now();
      const target = parseTarget(input);
      const deadline = new AbortController();
      let timer: NodeJS.Timeout | undefined;
      // The deadline's clock runs while the fetch is under way, and stops while a hop waits for its turn.
      let left = timeoutMs;
      let since = 0;
      const clock = {
        start: () => {
          if (timer !== undefined) return;
          since = performance.now();
          timer = setTimeout(() => deadline.abort(), Math.max(1, left));
        },
        stop: () => {
          if (timer === undefined) return;
          clearTimeout(timer);
          timer = undefined;
          left -= performance.now() - since;
        },
      };
      const signal = request.signal ? AbortSignal.any([request.signal, deadline.signal]) : deadline.signal;
      const hop = { url: target, redirects: [] as string[] };
      try {
        const { url, status, headers, body } = await follow(hop, request, signal, clock);
        return {
          url: url.href,
          status,
          headers,
          body,
          contentType: headers["content-type"] ?? null,
          etag: headers.etag ?? null,
          lastModified: headers["last-modified"] ?? null,
          notModified: status === 304,
          ...(request.firstBytes !== undefined && body.length >= request.firstBytes ? { truncated: true } : {}),
          redirects: hop.redirects,
          durationMs: Math.round(performance.now() - started),
        };
      } catch (error) {
        if (request.signal?.aborted) throw request.signal.reason;
        if (deadline.signal.aborted) {
          throw new FetchError("TIMEOUT", hop.url.href, `no complete answer within ${timeoutMs} ms`, { cause: error });
        }
        throw error;
      } finally {
        clearTimeout(timer);
      }
    },
    close: () => agent.close(),
  };
}
