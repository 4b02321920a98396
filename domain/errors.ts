/**
 * What kind of failure a domain error code is. The web layer answers by kind (one mapper,
 * app/lib/error-response.server.ts): not found 404, conflict 409, invalid 400 with the field messages.
 */
export const DOMAIN_ERROR_KINDS = {
  // Something named by the request does not exist (any more).
  STORY_NOT_FOUND: "not-found",
  SOURCE_NOT_FOUND: "not-found",
  CATEGORY_NOT_FOUND: "not-found",
  USER_NOT_FOUND: "not-found",
  POST_NOT_FOUND: "not-found",
  JOB_NOT_FOUND: "not-found",
  // The request is well-formed but clashes with the current state.
  NOT_A_CRAWL_SOURCE: "conflict",
  ALREADY_POSTED: "conflict",
  POST_IN_FLIGHT: "conflict",
  WRONG_STATUS: "conflict",
  FACEBOOK_NOT_CONNECTED: "conflict",
  DUPLICATE_URL: "conflict",
  USER_EXISTS: "conflict",
  LAST_ADMIN: "conflict",
  SLUG_TAKEN: "conflict",
  CATEGORY_HAS_STORIES: "conflict",
  STALE_ORDER: "conflict",
  JOB_NOT_FINISHED: "conflict",
  // The input itself is wrong; fields name what to fix.
  INVALID_INPUT: "invalid",
  INVALID_STORY: "invalid",
  MISSING_CATEGORY: "invalid",
  INVALID_CATEGORY: "invalid",
  INVALID_SOURCE: "invalid",
  INVALID_OPML: "invalid",
  NO_URLS: "invalid",
  TOO_MANY_URLS: "invalid",
  NO_SELECTION: "invalid",
  NOT_A_FEED: "invalid",
  MALFORMED_FEED: "invalid",
} as const;

export type DomainErrorCode = keyof typeof DOMAIN_ERROR_KINDS;
export type DomainErrorKind = (typeof DOMAIN_ERROR_KINDS)[DomainErrorCode];

// The web build bundles its own copy of this module while the server loads the source, so a
// DomainError may come from "another" class: it is recognised by a registry-wide brand, not instanceof.
const BRAND = Symbol.for("oddwire.DomainError");

/** A business-rule failure with a stable code; the web and CLI layers map codes to responses. */
export class DomainError extends Error {
  readonly [BRAND] = true;
  readonly kind: DomainErrorKind;
  /** Field name -> what is wrong with it, for an invalid input. */
  readonly fields: Record<string, string> | undefined;

  constructor(
    readonly code: DomainErrorCode,
    message: string,
    options?: { cause?: unknown; fields?: Record<string, string> },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = "DomainError";
    this.kind = DOMAIN_ERROR_KINDS[code];
    this.fields = options?.fields;
  }
}

/** Narrows an unknown thrown value to a DomainError, whichever copy of this module made it. */
export function isDomainError(error: unknown): error is DomainError {
  return typeof error === "object" && error !== null && (error as { [BRAND]?: unknown })[BRAND] === true;
}

/** Each field's first problem among a schema's issues, by its path ("_" for the input as a whole). */
export function fieldMessages(issues: readonly { path: readonly PropertyKey[]; message: string }[]): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of issues) fields[issue.path.map(String).join(".") || "_"] ??= issue.message;
  return fields;
}
