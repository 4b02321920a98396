import type { FetchErrorCode } from "./types";

// The web build bundles its own copy of this module while the server process loads the source, so a
// FetchError may come from "another" class: it is recognised by a registry-wide brand, not instanceof.
const BRAND = Symbol.for("oddwire.FetchError");

const RETRYABLE: ReadonlySet<FetchErrorCode> = new Set(["TIMEOUT", "NETWORK_ERROR", "DNS_FAILURE", "ROBOTS_UNAVAILABLE"]);

/** Why a guarded fetch failed: a code, the URL of the hop that failed, and whether trying later may help. */
export class FetchError extends Error {
  override name = "FetchError";
  readonly code: FetchErrorCode;
  readonly url: string;
  readonly retryable: boolean;
  readonly [BRAND] = true;

  constructor(code: FetchErrorCode, url: string, message: string, options: { cause?: unknown; retryable?: boolean } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.url = url;
    this.retryable = options.retryable ?? RETRYABLE.has(code);
  }
}

/** Narrows an unknown thrown value to a FetchError. */
export function isFetchError(error: unknown): error is FetchError {
  return typeof error === "object" && error !== null && (error as { [BRAND]?: unknown })[BRAND] === true;
}
