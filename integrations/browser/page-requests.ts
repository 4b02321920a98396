import type { Request } from "playwright-core";
import { isFetchError, type FetchError } from "~/integrations/http/fetch-error";
import type { FetchResponse } from "~/integrations/http/types";
import { RenderError } from "./render-error";

// A rendered page's requests as the guarded client makes them: the page's headers passed on, the
// client's answer handed back to Chromium, and a refusal or failure as the page (or the render) sees it.

/** Request headers of the page worth passing on; the client sets User-Agent and Accept-Encoding. */
const FORWARDED_REQUEST_HEADERS = ["accept", "accept-language", "cookie", "origin", "referer"];
/** Response headers that describe the connection or the encoding; the client's body is already decoded. */
const DROPPED_RESPONSE_HEADERS = new Set([
  "content-encoding",
  "content-length",
  "transfer-encoding",
  "connection",
  "keep-alive",
  "proxy-connection",
  "trailer",
  "upgrade",
]);
const POLICY_CODES = new Set(["BLOCKED_ADDRESS", "UNSUPPORTED_SCHEME", "INVALID_URL", "ROBOTS_DISALLOWED"]);

/** How a refused or failed sub-request shows in the page. */
export function abortReason(error: unknown): string {
  if (!isFetchError(error)) return "failed";
  if (POLICY_CODES.has(error.code)) return "blockedbyclient";
  if (error.code === "TIMEOUT") return "timedout";
  if (error.code === "DNS_FAILURE") return "namenotresolved";
  return "failed";
}

/** The page's own document failed to arrive: what that means for the render. */
export function documentError(error: FetchError, url: string): RenderError {
  if (POLICY_CODES.has(error.code)) return new RenderError("BLOCKED", url, `refused: ${error.message}`, { cause: error });
  if (error.code === "TIMEOUT") return new RenderError("TIMEOUT", url, `the page did not arrive in time: ${error.message}`, { cause: error });
  return new RenderError("NAVIGATION_FAILED", url, `the page could not be fetched: ${error.message}`, { cause: error, retryable: error.retryable });
}

// The client joins repeated headers with ", "; cookies are told apart again where a new name=
// follows (an Expires date's comma is followed by a day number), and Playwright takes them one a line.
const COOKIE_BOUNDARY = /,\s*(?=[!#$%&'*+\-.^_`|~0-9A-Za-z]+=)/;

/** The client's response as the page receives it. */
export function fulfilment(response: FetchResponse) {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.headers)) {
    if (DROPPED_RESPONSE_HEADERS.has(name)) continue;
    headers[name] = name === "set-cookie" ? value.split(COOKIE_BOUNDARY).join("\n") : value;
  }
  return { status: response.status, headers, body: response.body };
}

export async function forwardedHeaders(request: Request): Promise<Record<string, string>> {
  const all = await request.allHeaders();
  const headers: Record<string, string> = {};
  for (const name of FORWARDED_REQUEST_HEADERS) {
    const value = all[name];
    if (value !== undefined) headers[name] = value;
  }
  return headers;
}
