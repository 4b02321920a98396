import { secretScrubber } from "~/lib/scrub-secrets";
import { retryAfterMs } from "~/lib/retry-after";

// The web build bundles its own copy of this module while the server process loads the source, so a
// GraphError may come from "another" class: it is recognised by a registry-wide brand, not instanceof.
const BRAND = Symbol.for("oddwire.GraphError");

/**
 * What kind of failure a Graph API call met, which decides what happens next:
 * - auth: the token expired or was revoked; nothing works until the Page is reconnected.
 * - permission: the token lacks a permission; fix the token, retrying will not help.
 * - rate-limited: too many calls; retried later (after `retryAfterMs` when Facebook says).
 * - blocked: spam protection stopped posting from the Page for a while; an editor tries again later.
 * - duplicate: the same message was posted recently.
 * - transient: a temporary problem at Facebook or on the way there; certainly not done, retried.
 * - invalid: Facebook refused the request itself; retrying the same request will not help.
 * - uncertain: the request may have reached Facebook and been carried out (a timeout or a reset
 *   after it was sent): look for the post among the Page's recent posts before any retry.
 */
export type GraphErrorKind = "auth" | "permission" | "rate-limited" | "blocked" | "duplicate" | "transient" | "invalid" | "uncertain";

/** A GraphError as plain data, safe to store in a row, send to the admin page or log. */
export type GraphErrorView = {
  kind: GraphErrorKind;
  code: number | null;
  subcode: number | null;
  fbtraceId: string | null;
  retryable: boolean;
  retryAfterMs: number | null;
  /** The reason shown to editors. */
  message: string;
};

export type GraphErrorInit = {
  kind: GraphErrorKind;
  editorMessage: string;
  /** Technical detail for logs: Facebook's own message, already scrubbed of secrets. */
  detail?: string;
  code?: number | null;
  subcode?: number | null;
  fbtraceId?: string | null;
  retryable?: boolean;
  retryAfterMs?: number | null;
  httpStatus?: number | null;
  cause?: unknown;
};

const RETRYABLE_KINDS: ReadonlySet<GraphErrorKind> = new Set(["rate-limited", "transient", "uncertain"]);

/**
 * Why a Graph API call failed: its kind, Facebook's code, subcode and fbtrace_id (for support), whether
 * trying again later may help and a reason an editor can act on. An `uncertain` error is retryable
 * only once the caller has looked for the post it may have made (findRecentPostWithLink).
 * No field ever holds the access token: messages Facebook echoes are scrubbed before they get here.
 */
export class GraphError extends Error {
  override name = "GraphError";
  readonly kind: GraphErrorKind;
  readonly code: number | null;
  readonly subcode: number | null;
  readonly fbtraceId: string | null;
  readonly retryable: boolean;
  readonly retryAfterMs: number | null;
  readonly editorMessage: string;
  readonly httpStatus: number | null;
  readonly [BRAND] = true;

  constructor(init: GraphErrorInit) {
    super(technicalMessage(init), init.cause === undefined ? undefined : { cause: init.cause });
    this.kind = init.kind;
    this.code = init.code ?? null;
    this.subcode = init.subcode ?? null;
    this.fbtraceId = init.fbtraceId ?? null;
    this.retryable = init.retryable ?? RETRYABLE_KINDS.has(init.kind);
    this.retryAfterMs = init.retryAfterMs ?? null;
    this.editorMessage = init.editorMessage;
    this.httpStatus = init.httpStatus ?? null;
  }

  /** The error as plain data (for a row, the admin page or a log line). */
  toView(): GraphErrorView {
    return {
      kind: this.kind,
      code: this.code,
      subcode: this.subcode,
      fbtraceId: this.fbtraceId,
      retryable: this.retryable,
      retryAfterMs: this.retryAfterMs,
      message: this.editorMessage,
    };
  }

  /** Loggers serialise errors through toJSON when present: only the safe fields go out. */
  toJSON(): GraphErrorView & { name: string; detail: string } {
    return { name: this.name, ...this.toView(), detail: this.message };
  }
}

function technicalMessage(init: GraphErrorInit): string {
  const ids = [
    init.code != null ? `code ${init.code}` : null,
    init.subcode != null ? `subcode ${init.subcode}` : null,
    init.httpStatus != null ? `HTTP ${init.httpStatus}` : null,
    init.fbtraceId ? `fbtrace_id ${init.fbtraceId}` : null,
  ].filter((part) => part !== null);
  const detail = init.detail ?? init.editorMessage;
  return `Graph API ${init.kind} error${ids.length > 0 ? ` (${ids.join(", ")})` : ""}: ${detail}`;
}

/** Narrows an unknown thrown value to a GraphError. */
export function isGraphError(error: unknown): error is GraphError {
  return typeof error === "object" && error !== null && (error as { [BRAND]?: unknown })[BRAND] === true;
}

/** The permissions posting needs: publishing, and reading the Page's posts back (reconciliation, health). */
export const REQUIRED_PERMISSIONS = ["pages_manage_posts", "pages_read_engagement"] as const;

export const EDITOR_MESSAGES = {
  tokenRevoked: "The Facebook token has expired or was revoked. Reconnect the Page: renew FACEBOOK_PAGE_TOKEN.",
  tokenRefused: "Facebook no longer accepts the token. Reconnect the Page: renew FACEBOOK_PAGE_TOKEN.",
  detailsUnread: "Facebook did not give the token's details (its expiry and permissions).",
  tokenExpired: "The Facebook token has expired. Reconnect the Page: renew FACEBOOK_PAGE_TOKEN.",
  passwordChanged:
    "The Facebook token was revoked because the password of the account that issued it was changed. Reconnect the Page: renew FACEBOOK_PAGE_TOKEN.",
  rateLimited: "Facebook's rate limit was reached; the post will be retried later.",
  blocked: "Facebook has temporarily blocked posting from this Page (spam protection). Try again later.",
  duplicate: "Facebook refused a duplicate post: the same message was posted recently.",
  transient: "Facebook had a temporary problem; the post will be retried.",
  unreachable: "Facebook could not be reached; the post will be retried.",
  uncertain:
    "Facebook did not answer in time, so the post may have been made. The Page's recent posts are checked before any retry.",
} as const;

/** "Facebook refused: the token lacks the permission X." naming what Facebook named, or what posting needs. */
export function missingPermissionMessage(names: readonly string[]): string {
  if (names.length === 0) {
    return `Facebook refused: the token lacks a permission it needs (${REQUIRED_PERMISSIONS.join(", ")}).`;
  }
  if (names.length === 1) return `Facebook refused: the token lacks the permission ${names[0]}.`;
  return `Facebook refused: the token lacks the permissions ${names.slice(0, -1).join(", ")} and ${names.at(-1)}.`;
}

// Facebook's permission names: pages_manage_posts, publish_to_groups, business_management, ...
const PERMISSION_NAME = /\b(?:pages|publish|business|read|manage|instagram|ads|user|public)_[a-z_]+\b/g;

function permissionNames(message: string): string[] {
  return [...new Set(message.match(PERMISSION_NAME) ?? [])];
}

// Facebook's own access tokens (user, page, app) start with EAA; an app token is "appid|secret".
const TOKEN_SHAPES = [/\bEAA[A-Za-z0-9]{16,}\b/g, /\b\d{6,}\|[A-Za-z0-9_-]{16,}\b/g, /(access_token|input_token)=[^&\s"']+/gi];

/** The text with every secret given, and anything shaped like a Facebook access token, replaced by "[token]". */
export function scrubSecrets(text: string, secrets: readonly string[] = []): string {
  const out = secretScrubber(secrets, "[token]")(text).replace(TOKEN_SHAPES[0]!, "[token]").replace(TOKEN_SHAPES[1]!, "[token]");
  return out.replace(TOKEN_SHAPES[2]!, (_match, name: string) => `${name}=[token]`);
}

type Headers = Record<string, string | string[] | undefined>;

function header(headers: Headers, name: string): string | undefined {
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() === name) return Array.isArray(value) ? value.join(", ") : value;
  }
  return undefined;
}

function jsonOf(text: string | undefined): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Every estimated_time_to_regain_access (minutes) in a usage header, however deeply it sits. */
function regainMinutes(value: unknown, out: number[] = []): number[] {
  if (Array.isArray(value)) for (const item of value) regainMinutes(item, out);
  else if (typeof value === "object" && value !== null) {
    for (const [key, inner] of Object.entries(value)) {
      if (key === "estimated_time_to_regain_access" && typeof inner === "number" && Number.isFinite(inner)) out.push(inner);
      else regainMinutes(inner, out);
    }
  }
  return out;
}

/**
 * How long Facebook says to wait, from X-Page-Usage, X-App-Usage and X-Business-Use-Case-Usage
 * (estimated_time_to_regain_access, in minutes; the longest wins) or a Retry-After;
 * null when none says.
 */
export function retryAfterFromHeaders(headers: Headers, now = new Date()): number | null {
  const minutes = ["x-page-usage", "x-app-usage", "x-business-use-case-usage", "x-ad-account-usage"].flatMap((name) =>
    regainMinutes(jsonOf(header(headers, name))),
  );
  const longest = Math.max(0, ...minutes);
  if (longest > 0) return Math.round(longest * 60_000);
  const retryAfter = retryAfterMs(header(headers, "retry-after"), now);
  return retryAfter !== null && retryAfter > 0 ? retryAfter : null;
}

type GraphErrorBody = {
  message?: unknown;
  type?: unknown;
  code?: unknown;
  error_subcode?: unknown;
  fbtrace_id?: unknown;
  is_transient?: unknown;
};

function bodyError(body: unknown): GraphErrorBody | null {
  const parsed = typeof body === "string" ? jsonOf(body) : Buffer.isBuffer(body) ? jsonOf(body.toString("utf8")) : body;
  const error = (parsed as { error?: unknown } | null | undefined)?.error;
  return typeof error === "object" && error !== null ? (error as GraphErrorBody) : null;
}

const integer = (value: unknown): number | null => {
  const number = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
  return typeof number === "number" && Number.isInteger(number) ? number : null;
};

const RATE_LIMIT_CODES = new Set([4, 17, 32, 613]);
// Business use case (80000-80014: Pages, Instagram, ads...) limits are rate limits too.
const isRateLimitCode = (code: number) => RATE_LIMIT_CODES.has(code) || (code >= 80_000 && code <= 80_014);
const PERMISSION_CODES = new Set([3, 10]);
const isPermissionCode = (code: number) => PERMISSION_CODES.has(code) || (code >= 200 && code <= 299);
// 102: session key invalid; 2500: "An active access token must be used".
const AUTH_CODES = new Set([190, 102, 2500]);

/** Only Graph's code 190 says a token expired or was revoked; the other refusals say no more than that. */
function authMessage(code: number | null, subcode: number | null): string {
  if (code !== 190) return EDITOR_MESSAGES.tokenRefused;
  if (subcode === 463) return EDITOR_MESSAGES.tokenExpired;
  if (subcode === 460) return EDITOR_MESSAGES.passwordChanged;
  return EDITOR_MESSAGES.tokenRevoked;
}

function rateLimitMessage(retryAfterMs: number | null): string {
  if (retryAfterMs === null) return EDITOR_MESSAGES.rateLimited;
  const minutes = Math.max(1, Math.round(retryAfterMs / 60_000));
  return `Facebook's rate limit was reached; the post will be retried later (in about ${minutes} minute${minutes === 1 ? "" : "s"}).`;
}

/**
 * Maps a failed Graph API answer (its HTTP status, body as parsed JSON or text, and headers) to a
 * GraphError an editor can act on. `secrets` (the access token, any other configured secret) are
 * scrubbed from whatever Facebook echoes back: its message and its fbtrace_id.
 */
export function graphErrorFrom(status: number, body: unknown, headers: Headers = {}, options: { secrets?: readonly string[] } = {}): GraphError {
  const error = bodyError(body);
  const code = integer(error?.code);
  const subcode = integer(error?.error_subcode);
  const rawTraceId = typeof error?.fbtrace_id === "string" ? error.fbtrace_id : header(headers, "x-fb-trace-id");
  // Stored, shown and logged like the message, so scrubbed like it: Facebook's echo may carry the token anywhere.
  const fbtraceId = rawTraceId ? scrubSecrets(rawTraceId, options.secrets) : null;
  const rawMessage = typeof error?.message === "string" ? error.message : "";
  const detail = scrubSecrets(rawMessage, options.secrets);
  const common = { code, subcode, fbtraceId, httpStatus: status, detail: detail || `HTTP ${status}` };

  if (code === null) {
    // No Graph error in the body: an answer from something in front of Facebook, judged by its status.
    if (status === 401) return new GraphError({ ...common, kind: "auth", editorMessage: EDITOR_MESSAGES.tokenRefused });
    if (status === 429) {
      const retryAfterMs = retryAfterFromHeaders(headers);
      return new GraphError({ ...common, kind: "rate-limited", retryAfterMs, editorMessage: rateLimitMessage(retryAfterMs) });
    }
    if (status >= 500 || status === 408) return new GraphError({ ...common, kind: "transient", editorMessage: EDITOR_MESSAGES.transient });
    return new GraphError({
      ...common,
      kind: "invalid",
      editorMessage: `Facebook refused the post: ${detail || `an unexpected answer (HTTP ${status})`}.`,
    });
  }
  if (AUTH_CODES.has(code)) return new GraphError({ ...common, kind: "auth", editorMessage: authMessage(code, subcode) });
  if (isPermissionCode(code)) {
    return new GraphError({ ...common, kind: "permission", editorMessage: missingPermissionMessage(permissionNames(detail)) });
  }
  // "(#100) Requires pages_read_engagement permission": a missing permission under the generic code.
  if (code === 100 && /permission/i.test(detail) && permissionNames(detail).length > 0) {
    return new GraphError({ ...common, kind: "permission", editorMessage: missingPermissionMessage(permissionNames(detail)) });
  }
  if (isRateLimitCode(code)) {
    const retryAfterMs = retryAfterFromHeaders(headers);
    return new GraphError({ ...common, kind: "rate-limited", retryAfterMs, editorMessage: rateLimitMessage(retryAfterMs) });
  }
  if (code === 368) return new GraphError({ ...common, kind: "blocked", editorMessage: EDITOR_MESSAGES.blocked });
  if (code === 506) return new GraphError({ ...common, kind: "duplicate", editorMessage: EDITOR_MESSAGES.duplicate });
  if (code === 1 || code === 2 || error?.is_transient === true) {
    return new GraphError({ ...common, kind: "transient", editorMessage: EDITOR_MESSAGES.transient });
  }
  const reason = detail.replace(/^\(#\d+\)\s*/, "").replace(/\.\s*$/, "") || `an unexpected answer (HTTP ${status})`;
  return new GraphError({ ...common, kind: "invalid", editorMessage: `Facebook refused the post: ${reason} (code ${code}).` });
}
