import { randomBytes } from "node:crypto";
import type { FakeEndpoint, FakeGraphErrorBody } from "./fake-graph";

// What the fake Graph API sends and reads as Facebook does: its error bodies, usage headers, link
// shims, request bodies, and which endpoint a request is for.

export const fbtrace = () => randomBytes(8).toString("base64url");

/** Realistic Graph error bodies for each case the client maps. */
export const graphErrors = {
  expiredToken: (): FakeGraphErrorBody => ({
    message: "Error validating access token: Session has expired on Tuesday, 03-Jun-25 10:00:00 PDT. The current time is Wednesday, 04-Jun-25 09:12:41 PDT.",
    type: "OAuthException",
    code: 190,
    error_subcode: 463,
  }),
  passwordChanged: (): FakeGraphErrorBody => ({
    message: "Error validating access token: The session has been invalidated because the user changed their password or Facebook has changed the session for security reasons.",
    type: "OAuthException",
    code: 190,
    error_subcode: 460,
  }),
  invalidToken: (): FakeGraphErrorBody => ({ message: "Invalid OAuth access token - Cannot parse access token", type: "OAuthException", code: 190 }),
  missingPermission: (permission = "pages_manage_posts"): FakeGraphErrorBody => ({
    message: `(#200) The user hasn't authorized the application to perform this action: requires ${permission}`,
    type: "OAuthException",
    code: 200,
  }),
  permissionDenied: (): FakeGraphErrorBody => ({
    message: "(#10) This endpoint requires the 'pages_read_engagement' permission or the 'Page Public Content Access' feature.",
    type: "OAuthException",
    code: 10,
  }),
  rateLimited: (code: 4 | 17 | 32 | 613 = 4): FakeGraphErrorBody => ({
    message: {
      4: "(#4) Application request limit reached",
      17: "(#17) User request limit reached",
      32: "(#32) Page request limit reached",
      613: "(#613) Calls to this api have exceeded the rate limit.",
    }[code],
    type: "OAuthException",
    code,
    is_transient: true,
  }),
  blocked: (): FakeGraphErrorBody => ({
    message: "It looks like you were misusing this feature by going too fast. You've been temporarily blocked from using it.",
    type: "OAuthException",
    code: 368,
    error_subcode: 1390008,
    error_user_title: "You Can't Use This Feature Right Now",
  }),
  duplicate: (): FakeGraphErrorBody => ({ message: "Duplicate status message", type: "OAuthException", code: 506, error_subcode: 1455006 }),
  unknown: (): FakeGraphErrorBody => ({ message: "An unknown error occurred", type: "OAuthException", code: 1, error_subcode: 99, is_transient: true }),
  serviceUnavailable: (): FakeGraphErrorBody => ({
    message: "An unexpected error has occurred. Please retry your request later.",
    type: "OAuthException",
    code: 2,
    is_transient: true,
  }),
  invalidParameter: (message = "(#100) Invalid parameter"): FakeGraphErrorBody => ({ message, type: "OAuthException", code: 100 }),
  appTokenRequired: (): FakeGraphErrorBody => ({
    message: "(#100) You must provide an app access token, or a user access token that is an owner or developer of the app",
    type: "OAuthException",
    code: 100,
  }),
  unknownObject: (id: string): FakeGraphErrorBody => ({
    message: `Unsupported get request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
    type: "GraphMethodException",
    code: 100,
    error_subcode: 33,
  }),
};

/** The HTTP status Facebook sends with an error code. */
export function statusFor(code: number): number {
  if (code === 1 || code === 2) return 500;
  if (code === 10 || (code >= 200 && code <= 299)) return 403;
  return 400;
}

/** Usage headers as Facebook sends them near or past a rate limit: regain access after `minutes`. */
export function usageHeaders(options: { minutes: number; pageId?: string; header?: "business" | "page" }): Record<string, string> {
  const usage = { call_count: 100, total_cputime: 24, total_time: 31, estimated_time_to_regain_access: options.minutes };
  const appUsage = JSON.stringify({ call_count: 96, total_cputime: 12, total_time: 14 });
  if (options.header === "page") return { "x-app-usage": appUsage, "x-page-usage": JSON.stringify(usage) };
  return {
    "x-app-usage": appUsage,
    "x-business-use-case-usage": JSON.stringify({ [options.pageId ?? "1234567890"]: [{ type: "pages", ...usage }] }),
  };
}

/** A link as Facebook shows it in a post's attachment: through its l.facebook.com shim. */
export const shim = (link: string) => `https://l.facebook.com/l.php?u=${encodeURIComponent(link)}&h=AT0${randomBytes(6).toString("hex")}`;

export function parseBody(raw: string, contentType: string | undefined): Record<string, unknown> {
  if (raw === "") return {};
  if (contentType?.includes("application/json")) {
    try {
      const parsed: unknown = JSON.parse(raw);
      return typeof parsed === "object" && parsed !== null ? (parsed as Record<string, unknown>) : { value: parsed };
    } catch {
      return { raw };
    }
  }
  if (contentType?.includes("application/x-www-form-urlencoded")) return Object.fromEntries(new URLSearchParams(raw));
  return { raw };
}

/** Which part of the Graph API a request is for; null for a path the site never calls. */
export function endpointOf(method: string, segments: string[], params: Record<string, unknown>): FakeEndpoint | null {
  const [first, second] = segments;
  if (method === "POST" && segments.length === 0 && params.scrape !== undefined) return "scrape";
  if (method === "POST" && segments.length === 2 && second === "feed") return "feed";
  if (method === "GET" && first === "debug_token" && segments.length === 1) return "debug_token";
  if (method === "GET" && first === "me" && second === "permissions") return "permissions";
  if (method === "GET" && segments.length === 2 && (second === "posts" || second === "feed" || second === "published_posts")) return "posts";
  if (method === "GET" && segments.length === 1) return first!.includes("_") ? "post" : "page";
  return null;
}
