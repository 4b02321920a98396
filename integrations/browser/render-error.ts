export type RenderErrorCode = "BROWSER_UNAVAILABLE" | "TIMEOUT" | "SELECTOR_NOT_FOUND" | "NAVIGATION_FAILED" | "BLOCKED";

// Recognised by a registry-wide brand rather than instanceof, as FetchError is: the web build may
// hold its own copy of this module.
const BRAND = Symbol.for("oddwire.RenderError");
const RETRYABLE: ReadonlySet<RenderErrorCode> = new Set(["BROWSER_UNAVAILABLE", "TIMEOUT", "NAVIGATION_FAILED"]);

/** Why a page could not be rendered: a code, the page's URL, and whether trying later may help. */
export class RenderError extends Error {
  override name = "RenderError";
  readonly code: RenderErrorCode;
  readonly url: string;
  readonly retryable: boolean;
  readonly [BRAND] = true;

  constructor(code: RenderErrorCode, url: string, message: string, options: { cause?: unknown; retryable?: boolean } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.url = url;
    this.retryable = options.retryable ?? RETRYABLE.has(code);
  }
}

/** Narrows an unknown thrown value to a RenderError. */
export function isRenderError(error: unknown): error is RenderError {
  return typeof error === "object" && error !== null && (error as { [BRAND]?: unknown })[BRAND] === true;
}
