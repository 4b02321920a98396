import { Agent, request as undiciRequest } from "undici";
import { errorMessage } from "~/lib/error-message";
import { httpUrlOrNull, isHttpUrl } from "~/lib/http-url";
import packageJson from "~/package.json";
import { ACCEPT_ENCODING, readDecodedBody } from "~/integrations/http/read-body";
import {
  EDITOR_MESSAGES,
  GraphError,
  type GraphErrorView,
  graphErrorFrom,
  isGraphError,
  missingPermissionMessage,
  REQUIRED_PERMISSIONS,
  scrubSecrets,
} from "./graph-error";
import { isoFromSeconds, list, object, parseJson, text, type Json } from "./graph-json";
import { linksOf, sameLink } from "./post-links";

export { GraphError, isGraphError, graphErrorFrom, type GraphErrorKind, type GraphErrorView } from "./graph-error";

export type GraphClientOptions = {
  /** FACEBOOK_GRAPH_URL, version included: https://graph.facebook.com/v21.0 */
  baseUrl: string;
  pageId: string;
  /** The Page access token. It travels only in the Authorization header, never in a logged URL. */
  pageToken: string;
  /** The site's other secrets (config's), scrubbed like the token from every error Facebook's answers make. */
  secrets?: readonly string[];
  /** Total time for one call, answer included. */
  timeoutMs?: number;
  userAgent?: string;
  /** Largest answer accepted. */
  maxBodyBytes?: number;
  /** Where errors the client gets past on its own (no permalink, debug_token refused) are reported. */
  log?: { warn(fields: Record<string, unknown>, message: string): void };
};

export type PublishedPost = { postId: string; permalinkUrl: string | null };

/** A post of the Page that links to a given URL. */
export type RecentPost = { postId: string; permalinkUrl: string | null; createdTime: string | null; message: string | null };

export type RecentPostQuery = { limit?: number; excludePostIds?: readonly string[]; createdAfter?: Date };

export type RescrapeResult = { ok: true } | { ok: false; error: GraphError };

/** What the connection panel shows: the Page, whether the token works, its permissions and expiry. */
export type ConnectionHealth = {
  page: { id: string; name: string; link: string } | null;
  /**
   * Whether Facebook accepts the token: true when a call with it was answered (or debug_token says so),
   * false when Facebook refused it or debug_token calls it invalid, null when neither could be learnt.
   */
  tokenValid: boolean | null;
  /** The permissions granted to the token; null when Facebook did not give them. */
  permissions: string[] | null;
  /** Which of the permissions posting needs are not granted (only when the permissions were read). */
  missingPermissions: string[];
  /** When the token expires (ISO), or null: it never expires, or Facebook did not say (see tokenCheck). */
  expiresAt: string | null;
  /** True when Facebook says the token never expires. */
  neverExpires: boolean;
  /** When the token's access to the Page's data expires (ISO), when Facebook says. */
  dataAccessExpiresAt: string | null;
  /**
   * How the token's details were read: debug_token reveals its expiry; me/permissions (the fallback)
   * only its permissions; "none": Facebook gave neither.
   */
  tokenCheck: "debug_token" | "permissions" | "none";
  /** The reason the connection is not healthy, if any. */
  error: GraphErrorView | null;
};

/** The Graph API as the site uses it: posting stories to one Page, and checking that it can. */
export type GraphClient = {
  /** Posts a message with a link to the Page's feed. */
  publishPost(post: { message: string; link: string }): Promise<PublishedPost>;
  /** Asks Facebook to read a URL's Open Graph tags again, so the card is fresh; failing never blocks posting. */
  rescrape(url: string): Promise<RescrapeResult>;
  /**
   * The newest of the Page's recent posts that links to `link`, or null: reconciles an uncertain
   * publish. Posts in `excludePostIds` (the story's earlier posts) and posts created before
   * `createdAfter` are not it.
   */
  findRecentPostWithLink(link: string, options?: RecentPostQuery): Promise<RecentPost | null>;
  checkConnection(): Promise<ConnectionHealth>;
  close(): Promise<void>;
};

export const DEFAULT_TIMEOUT_MS = 15_000;
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
export const DEFAULT_RECENT_POSTS_LIMIT = 25;
const MAX_RECENT_POSTS_LIMIT = 100;
/** The permalink look-up after a post is a nicety: it must not hold the post's job long. */
const PERMALINK_TIMEOUT_MS = 5_000;

// Failures where the request cannot have left this machine: certainly not carried out.
const NOT_SENT_CODES = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EAI_FAIL",
  "EAI_NONAME",
  "ENODATA",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EADDRNOTAVAIL",
  "UND_ERR_CONNECT_TIMEOUT",
]);

function errorCode(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === "string") return code;
  const inner = (error as { errors?: unknown[] } | null)?.errors?.[0]; // AggregateError of a multi-address connect
  return inner ? errorCode(inner) : "";
}

function flattenHeaders(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
  }
  return headers;
}

/** Only the name, code and (scrubbed) message of what undici threw: its own fields may hold request details. */
function safeCause(error: unknown, secrets: readonly string[]): Error {
  const cause = new Error(scrubSecrets(errorMessage(error), secrets));
  cause.name = error instanceof Error ? error.name : "Error";
  const code = errorCode(error);
  return code ? Object.assign(cause, { code }) : cause;
}

type Call = {
  query?: Record<string, string>;
  form?: Record<string, string>;
  /** The call changes something at Facebook (a post): a failure after sending leaves it uncertain. */
  sideEffect?: boolean;
  timeoutMs?: number;
};

/**
 * A Graph API client for one Page, over its own undici Agent. Not the guarded client: Facebook is a
 * fixed, trusted host from config, and the token must go to it alone. Every call has a total time
 * limit and a 1 MiB answer cap; every failure is a GraphError with no trace of the token.
 */
export function createGraphClient(options: GraphClientOptions): GraphClient {
  const base = options.baseUrl.replace(/\/+$/, "");
  const pageId = options.pageId;
  const token = options.pageToken;
  const secrets = [token, ...(options.secrets ?? [])];
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const userAgent = options.userAgent ?? `Oddwire/${packageJson.version}`;
  const agent = new Agent({
    keepAliveTimeout: 10_000,
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    connect: { timeout: Math.min(10_000, Math.max(1, Math.floor(timeoutMs / 2))) },
  });

  function transportError(error: unknown, call: Call, timedOut: boolean, limit: number): GraphError {
    const code = errorCode(error);
    const cause = safeCause(error, secrets);
    const detail = timedOut ? `no complete answer within ${limit} ms` : `network error: ${cause.message}${code ? ` (${code})` : ""}`;
    if (NOT_SENT_CODES.has(code) && !timedOut) {
      return new GraphError({ kind: "transient", editorMessage: EDITOR_MESSAGES.unreachable, detail, cause });
    }
    if (call.sideEffect) return new GraphError({ kind: "uncertain", editorMessage: EDITOR_MESSAGES.uncertain, detail, cause });
    const editorMessage = timedOut ? "Facebook did not answer in time; it will be tried again." : EDITOR_MESSAGES.unreachable;
    return new GraphError({ kind: "transient", editorMessage, detail, cause });
  }

  /** One Graph API call: its parsed JSON answer, or a GraphError. */
  async function call(method: "GET" | "POST", path: string, call: Call = {}): Promise<Json> {
    const url = new URL(`${base}/${path}`);
    for (const [name, value] of Object.entries(call.query ?? {})) url.searchParams.set(name, value);
    // Named in errors and logs instead of the URL, whose query may hold a token (debug_token's input_token).
    const label = `${method} /${path}`;
    const headers: Record<string, string> = {
      authorization: `Bearer ${token}`,
      accept: "application/json",
      "accept-encoding": ACCEPT_ENCODING,
      "user-agent": userAgent,
    };
    let body: string | undefined;
    if (call.form) {
      body = new URLSearchParams(call.form).toString();
      headers["content-type"] = "application/x-www-form-urlencoded";
    }
    const limit = call.timeoutMs ?? timeoutMs;
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(), limit);
    try {
      const response = await undiciRequest(url, { dispatcher: agent, method, headers, body, signal: deadline.signal });
      const status = response.statusCode;
      const responseHeaders = flattenHeaders(response.headers);
      const succeeded = status >= 200 && status < 300;
      let raw: Buffer;
      try {
        raw = await readDecodedBody(response.body, responseHeaders["content-encoding"], maxBodyBytes, label);
      } catch (error) {
        // A failed answer whose body cannot be read (too big, cut off) is still a refusal its status explains.
        if (!succeeded) throw graphErrorFrom(status, undefined, responseHeaders, { secrets });
        throw error;
      }
      const json = parseJson(raw);
      if (!succeeded || object(json).error !== undefined) {
        throw graphErrorFrom(status, json ?? raw.toString("utf8"), responseHeaders, { secrets });
      }
      if (json === undefined) {
        const detail = `${label} answered HTTP ${status} with a body that is not JSON`;
        if (call.sideEffect) throw new GraphError({ kind: "uncertain", editorMessage: EDITOR_MESSAGES.uncertain, detail, httpStatus: status });
        throw new GraphError({ kind: "transient", editorMessage: EDITOR_MESSAGES.transient, detail, httpStatus: status });
      }
      return object(json);
    } catch (error) {
      if (isGraphError(error)) throw error;
      throw transportError(error, call, deadline.signal.aborted, limit);
    } finally {
      clearTimeout(timer);
    }
  }

  const asGraphError = (error: unknown): GraphError => {
    if (isGraphError(error)) return error;
    throw error;
  };

  async function permalinkOf(postId: string): Promise<string | null> {
    try {
      const post = await call("GET", encodeURIComponent(postId), { query: { fields: "permalink_url" }, timeoutMs: Math.min(timeoutMs, PERMALINK_TIMEOUT_MS) });
      return httpUrlOrNull(text(post.permalink_url));
    } catch (error) {
      options.log?.warn({ postId, graphError: asGraphError(error).toView() }, "posted to Facebook, but its permalink could not be read: using the post id's link");
      return null;
    }
  }

  type TokenInspection = {
    valid: boolean | null;
    permissions: string[] | null;
    expiresAt: string | null;
    neverExpires: boolean;
    dataAccessExpiresAt: string | null;
    profileId: string | null;
    tokenCheck: ConnectionHealth["tokenCheck"];
    error: GraphError | null;
  };

  /**
   * debug_token's own account of why a token is invalid ({code, subcode, message}) as a GraphError:
   * Facebook's code when it gives one (190 alone means expired or revoked), none invented otherwise.
   */
  const invalidTokenError = (reason: Json) => {
    const code = typeof reason.code === "number" && Number.isInteger(reason.code) ? reason.code : null;
    const message = text(reason.message) ?? "The token is not valid.";
    if (code === null) return new GraphError({ kind: "auth", editorMessage: EDITOR_MESSAGES.tokenRefused, detail: scrubSecrets(message, secrets) });
    return graphErrorFrom(400, { error: { code, message, error_subcode: reason.subcode } }, {}, { secrets });
  };

  /** Names of the permissions an answer lists as granted; null when it lists none (an answer with no data says nothing). */
  const grantedPermissions = (entries: unknown): string[] | null => {
    const names = list(entries)
      .map(object)
      .filter((entry) => entry.status === "granted")
      .map((entry) => text(entry.permission))
      .filter((name): name is string => name !== null);
    return names.length > 0 ? names : null;
  };

  async function inspectToken(): Promise<TokenInspection> {
    const none = { expiresAt: null, neverExpires: false, dataAccessExpiresAt: null, profileId: null };
    let debugError: GraphError;
    try {
      const data = object((await call("GET", "debug_token", { query: { input_token: token } })).data);
      // An answer without is_valid tells nothing of the token: not a verdict, and certainly not code 190.
      if (typeof data.is_valid !== "boolean") throw new GraphError({ kind: "transient", editorMessage: EDITOR_MESSAGES.detailsUnread, detail: "debug_token answered without the token's details" });
      const valid = data.is_valid;
      const scopes = list(data.scopes).filter((scope): scope is string => typeof scope === "string");
      return {
        valid,
        permissions: valid && scopes.length > 0 ? scopes : null,
        expiresAt: isoFromSeconds(data.expires_at),
        neverExpires: data.expires_at === 0,
        dataAccessExpiresAt: isoFromSeconds(data.data_access_expires_at),
        profileId: text(data.profile_id),
        tokenCheck: "debug_token",
        error: valid ? null : invalidTokenError(object(data.error)),
      };
    } catch (error) {
      debugError = asGraphError(error);
    }
    if (debugError.kind === "auth") return { ...none, valid: false, permissions: null, tokenCheck: "debug_token", error: debugError };
    // debug_token wants an app token, or a user token of the app's developer; a Page token alone can
    // still read its own permissions, only not its expiry.
    options.log?.warn({ graphError: debugError.toView() }, "debug_token gave no details of the Page token: reading me/permissions instead");
    try {
      const permissions = grantedPermissions((await call("GET", "me/permissions")).data);
      // Answered at all, the token was accepted; an empty list is no account of its permissions.
      return { ...none, valid: true, permissions, tokenCheck: permissions ? "permissions" : "none", error: null };
    } catch (error) {
      const permissionsError = asGraphError(error);
      // Only Facebook refusing the token says it does not work; any other failure leaves it unknown.
      if (permissionsError.kind === "auth") return { ...none, valid: false, permissions: null, tokenCheck: "none", error: permissionsError };
      return { ...none, valid: null, permissions: null, tokenCheck: "none", error: null };
    }
  }

  return {
    async publishPost({ message, link }) {
      if (message.trim() === "") throw new GraphError({ kind: "invalid", editorMessage: "Facebook refused the post: the message is empty." });
      if (!isHttpUrl(link)) throw new GraphError({ kind: "invalid", editorMessage: "Facebook refused the post: the link is not an http(s) URL." });
      const answer = await call("POST", `${encodeURIComponent(pageId)}/feed`, { form: { message, link }, sideEffect: true });
      const postId = text(answer.id);
      if (!postId) {
        throw new GraphError({ kind: "uncertain", editorMessage: EDITOR_MESSAGES.uncertain, detail: "Facebook accepted the post but sent no post id" });
      }
      const permalinkUrl = (await permalinkOf(postId)) ?? `https://www.facebook.com/${encodeURIComponent(postId)}`;
      return { postId, permalinkUrl };
    },

    async rescrape(url) {
      try {
        await call("POST", "", { form: { id: url, scrape: "true" } });
        return { ok: true };
      } catch (error) {
        return { ok: false, error: asGraphError(error) };
      }
    },

    async findRecentPostWithLink(link, { limit = DEFAULT_RECENT_POSTS_LIMIT, excludePostIds = [], createdAfter } = {}) {
      const count = Math.min(MAX_RECENT_POSTS_LIMIT, Math.max(1, Math.floor(limit)));
      const excluded = new Set(excludePostIds);
      const answer = await call("GET", `${encodeURIComponent(pageId)}/posts`, {
        query: { fields: "id,permalink_url,created_time,message,attachments{url,unshimmed_url}", limit: String(count) },
      });
      for (const entry of list(answer.data).slice(0, count)) {
        const post = object(entry);
        const postId = text(post.id);
        if (!postId || excluded.has(postId) || !linksOf(post).some((candidate) => sameLink(candidate, link))) continue;
        const createdTime = text(post.created_time);
        if (createdAfter && createdTime && Date.parse(createdTime) < createdAfter.getTime()) continue;
        return { postId, permalinkUrl: httpUrlOrNull(text(post.permalink_url)), createdTime, message: text(post.message) };
      }
      return null;
    },

    async checkConnection() {
      let page: ConnectionHealth["page"] = null;
      let pageError: GraphError | null = null;
      try {
        const answer = await call("GET", encodeURIComponent(pageId), { query: { fields: "id,name,link" } });
        const id = text(answer.id) ?? pageId;
        page = { id, name: text(answer.name) ?? id, link: httpUrlOrNull(text(answer.link)) ?? `https://www.facebook.com/${encodeURIComponent(id)}` };
      } catch (error) {
        pageError = asGraphError(error);
      }
      const token = await inspectToken();
      const permissions = token.permissions;
      const missingPermissions = permissions === null ? [] : REQUIRED_PERMISSIONS.filter((name) => !permissions.includes(name));
      // A Page read with the token is a call Facebook accepted it for.
      const tokenValid = token.valid ?? (page !== null ? true : pageError?.kind === "auth" ? false : null);

      let error: GraphError | null = [pageError, token.error].find((candidate) => candidate?.kind === "auth") ?? pageError ?? token.error;
      if (!error && page && token.profileId && token.profileId !== page.id) {
        error = new GraphError({
          kind: "permission",
          editorMessage: `The Facebook token belongs to another Page or account (${token.profileId}), not to ${page.name}. Renew FACEBOOK_PAGE_TOKEN with this Page's token.`,
        });
      }
      if (!error && missingPermissions.length > 0) {
        error = new GraphError({ kind: "permission", editorMessage: missingPermissionMessage(missingPermissions) });
      }
      return {
        page,
        tokenValid,
        permissions,
        missingPermissions,
        expiresAt: token.expiresAt,
        neverExpires: token.neverExpires,
        dataAccessExpiresAt: token.dataAccessExpiresAt,
        tokenCheck: token.tokenCheck,
        error: error?.toView() ?? null,
      };
    },

    close: () => agent.close(),
  };
}
