import { describe, expect, test, vi } from "vitest";
import { GraphError, graphErrorFrom, isGraphError, retryAfterFromHeaders, scrubSecrets } from "./graph-error";

const body = (error: Record<string, unknown>) => ({ error: { type: "OAuthException", fbtrace_id: "AbC123xyz", ...error } });

describe("mapping a Graph API error to a reason an editor can act on", () => {
  test.each([
    {
      case: "an expired token",
      status: 400,
      error: { code: 190, error_subcode: 463, message: "Error validating access token: Session has expired" },
      kind: "auth",
      retryable: false,
      editorMessage: "The Facebook token has expired. Reconnect the Page: renew FACEBOOK_PAGE_TOKEN.",
    },
    {
      case: "a token revoked by a password change",
      status: 400,
      error: { code: 190, error_subcode: 460, message: "Error validating access token: The session has been invalidated" },
      kind: "auth",
      retryable: false,
      editorMessage: expect.stringMatching(/^The Facebook token was revoked because the password .* renew FACEBOOK_PAGE_TOKEN\.$/),
    },
    {
      case: "a token Facebook cannot parse",
      status: 400,
      error: { code: 190, message: "Invalid OAuth access token - Cannot parse access token" },
      kind: "auth",
      retryable: false,
      editorMessage: "The Facebook token has expired or was revoked. Reconnect the Page: renew FACEBOOK_PAGE_TOKEN.",
    },
    {
      case: "an invalid session key (102): refused, not said to be expired",
      status: 400,
      error: { code: 102, message: "Session key invalid or no longer valid" },
      kind: "auth",
      retryable: false,
      editorMessage: "Facebook no longer accepts the token. Reconnect the Page: renew FACEBOOK_PAGE_TOKEN.",
    },
    {
      case: "an inactive token (2500): refused, not said to be expired",
      status: 400,
      error: { code: 2500, message: "An active access token must be used to query information about the current user." },
      kind: "auth",
      retryable: false,
      editorMessage: "Facebook no longer accepts the token. Reconnect the Page: renew FACEBOOK_PAGE_TOKEN.",
    },
    {
      case: "a missing permission (200), named",
      status: 403,
      error: { code: 200, message: "(#200) The user hasn't authorized the application to perform this action: requires pages_manage_posts" },
      kind: "permission",
      retryable: false,
      editorMessage: "Facebook refused: the token lacks the permission pages_manage_posts.",
    },
    {
      case: "two missing permissions (200)",
      status: 403,
      error: { code: 200, message: "(#200) If posting to a page, requires both pages_read_engagement and pages_manage_posts as an admin" },
      kind: "permission",
      retryable: false,
      editorMessage: "Facebook refused: the token lacks the permissions pages_read_engagement and pages_manage_posts.",
    },
    {
      case: "a denied permission (10)",
      status: 403,
      error: { code: 10, message: "(#10) This endpoint requires the 'pages_read_engagement' permission" },
      kind: "permission",
      retryable: false,
      editorMessage: "Facebook refused: the token lacks the permission pages_read_engagement.",
    },
    {
      case: "a capability the app lacks (3), no name given",
      status: 400,
      error: { code: 3, message: "(#3) Application does not have the capability to make this API call." },
      kind: "permission",
      retryable: false,
      editorMessage: "Facebook refused: the token lacks a permission it needs (pages_manage_posts, pages_read_engagement).",
    },
    {
      case: "a missing permission under the generic code 100",
      status: 400,
      error: { code: 100, message: "(#100) Requires pages_read_engagement permission to manage the object" },
      kind: "permission",
      retryable: false,
      editorMessage: "Facebook refused: the token lacks the permission pages_read_engagement.",
    },
    ...[4, 17, 32, 613, 80001].map((code) => ({
      case: `a rate limit (${code})`,
      status: 400,
      error: { code, message: `(#${code}) request limit reached`, is_transient: true },
      kind: "rate-limited",
      retryable: true,
      editorMessage: "Facebook's rate limit was reached; the post will be retried later.",
    })),
    {
      case: "spam protection (368)",
      status: 400,
      error: { code: 368, error_subcode: 1390008, message: "It looks like you were misusing this feature by going too fast." },
      kind: "blocked",
      retryable: false,
      editorMessage: "Facebook has temporarily blocked posting from this Page (spam protection). Try again later.",
    },
    {
      case: "a duplicate post (506)",
      status: 400,
      error: { code: 506, error_subcode: 1455006, message: "Duplicate status message" },
      kind: "duplicate",
      retryable: false,
      editorMessage: "Facebook refused a duplicate post: the same message was posted recently.",
    },
    {
      case: "an unknown error (1)",
      status: 500,
      error: { code: 1, error_subcode: 99, message: "An unknown error occurred" },
      kind: "transient",
      retryable: true,
      editorMessage: "Facebook had a temporary problem; the post will be retried.",
    },
    {
      case: "a service outage (2)",
      status: 503,
      error: { code: 2, message: "An unexpected error has occurred. Please retry your request later." },
      kind: "transient",
      retryable: true,
      editorMessage: "Facebook had a temporary problem; the post will be retried.",
    },
    {
      case: "any other code, in Facebook's words",
      status: 400,
      error: { code: 100, error_subcode: 33, message: "(#100) Invalid parameter" },
      kind: "invalid",
      retryable: false,
      editorMessage: "Facebook refused the post: Invalid parameter (code 100).",
    },
  ])("$case", ({ status, error, kind, retryable, editorMessage }) => {
    const mapped = graphErrorFrom(status, body(error), {});
    expect(isGraphError(mapped)).toBe(true);
    expect(mapped).toMatchObject({
      kind,
      retryable,
      editorMessage,
      code: error.code,
      subcode: "error_subcode" in error ? error.error_subcode : null,
      fbtraceId: "AbC123xyz",
      httpStatus: status,
    });
    expect(mapped.message).toContain(`code ${error.code}`);
    expect(mapped.message).toContain("fbtrace_id AbC123xyz");
  });

  test("the body may come as text, and the trace id from the x-fb-trace-id header", () => {
    const mapped = graphErrorFrom(400, JSON.stringify({ error: { code: 506, message: "Duplicate status message" } }), { "X-FB-Trace-ID": "HeaderTrace" });
    expect(mapped).toMatchObject({ kind: "duplicate", code: 506, fbtraceId: "HeaderTrace" });
  });

  test.each([
    { status: 502, kind: "transient", retryable: true },
    { status: 503, kind: "transient", retryable: true },
    { status: 429, kind: "rate-limited", retryable: true },
    { status: 401, kind: "auth", retryable: false },
    { status: 404, kind: "invalid", retryable: false },
  ])("an answer with no Graph error in it is judged by its status ($status)", ({ status, kind, retryable }) => {
    const mapped = graphErrorFrom(status, "<html>Bad gateway</html>", {});
    expect(mapped).toMatchObject({ kind, retryable, code: null, subcode: null, fbtraceId: null });
    // Only Facebook's code 190 says a token expired.
    expect(mapped.editorMessage).not.toContain("expired");
  });

  test("a rate limit takes its wait from the usage headers, in minutes, the longest of them", () => {
    const headers = {
      "x-app-usage": JSON.stringify({ call_count: 100, total_cputime: 10, total_time: 12 }),
      "x-page-usage": JSON.stringify({ call_count: 100, estimated_time_to_regain_access: 5 }),
      "x-business-use-case-usage": JSON.stringify({ "123": [{ type: "pages", call_count: 100, estimated_time_to_regain_access: 12 }] }),
    };
    const mapped = graphErrorFrom(400, body({ code: 32, message: "(#32) Page request limit reached" }), headers);
    expect(mapped).toMatchObject({ kind: "rate-limited", retryable: true, retryAfterMs: 12 * 60_000 });
    expect(mapped.editorMessage).toBe("Facebook's rate limit was reached; the post will be retried later (in about 12 minutes).");
  });

  test.each([
    { headers: {}, expected: null },
    { headers: { "x-app-usage": "not json" }, expected: null },
    { headers: { "x-page-usage": JSON.stringify({ estimated_time_to_regain_access: 0 }) }, expected: null },
    { headers: { "x-page-usage": JSON.stringify({ estimated_time_to_regain_access: 1 }) }, expected: 60_000 },
    { headers: { "retry-after": "30" }, expected: 30_000 },
    { headers: { "retry-after": "0" }, expected: null },
    { headers: { "retry-after": "Thu, 01 Jan 2099 00:00:00 GMT" }, expected: Date.parse("2099-01-01T00:00:00Z") - Date.parse("2098-12-31T23:59:00Z") },
  ])("a wait read from headers $headers is $expected ms", ({ headers, expected }) => {
    expect(retryAfterFromHeaders(headers, new Date("2098-12-31T23:59:00Z"))).toBe(expected);
  });
});

describe("keeping the token out of errors", () => {
  const token = "EAAGpageTokenValue0123456789abcdef";

  test("a token Facebook echoes in its message is scrubbed from every field", () => {
    const mapped = graphErrorFrom(400, body({ code: 190, message: `Malformed access token ${token}` }), {}, { secrets: [token] });
    expect(mapped.message).toContain("Malformed access token [token]");
    expect(JSON.stringify(mapped)).not.toContain(token);
    expect(mapped.message).not.toContain(token);
    expect(mapped.editorMessage).not.toContain(token);
  });

  test("a token Facebook echoes in its fbtrace_id (body or header) is scrubbed from it", () => {
    const inBody = graphErrorFrom(400, body({ code: 100, message: "Bad", fbtrace_id: `A${token}` }), {}, { secrets: [token] });
    const inHeader = graphErrorFrom(500, "", { "x-fb-trace-id": `A${token}` }, { secrets: [token] });
    for (const mapped of [inBody, inHeader]) {
      expect(mapped.fbtraceId).toBe("A[token]");
      expect(JSON.stringify(mapped)).not.toContain(token);
      expect(mapped.message).not.toContain(token);
    }
  });

  test("shapes of Facebook tokens are scrubbed even when the token is not known", () => {
    expect(scrubSecrets("bad token EAABwzLixnjYBO1234567890abcdef, see https://x/?access_token=abc&y=1")).toBe(
      "bad token [token], see https://x/?access_token=[token]&y=1",
    );
    expect(scrubSecrets("app token 123456789|abcdefghijklmnopqrstu")).toBe("app token [token]");
  });

  test("an invalid reason quoting the token does not carry it to editors", () => {
    const mapped = graphErrorFrom(400, body({ code: 100, message: `Param input_token=${token} is not valid` }), {}, { secrets: [token] });
    expect(mapped.editorMessage).toBe("Facebook refused the post: Param input_token=[token] is not valid (code 100).");
  });
});

describe("recognising a Graph error", () => {
  test("a GraphError from another copy of this module (the web build's bundle) is recognised too", async () => {
    vi.resetModules();
    const copy = await import("./graph-error");
    const foreign = new copy.GraphError({ kind: "duplicate", editorMessage: "dup" });
    expect(foreign).not.toBeInstanceOf(GraphError);
    expect(isGraphError(foreign)).toBe(true);
  });

  test("other errors are not", () => {
    expect(isGraphError(new Error("x"))).toBe(false);
    expect(isGraphError(Object.assign(new Error("x"), { name: "GraphError", kind: "auth" }))).toBe(false);
    expect(isGraphError(null)).toBe(false);
  });

  test("its view is plain data for a row or a log line", () => {
    const error = new GraphError({ kind: "rate-limited", code: 4, subcode: null, fbtraceId: "T", retryAfterMs: 60_000, editorMessage: "later" });
    expect(error.toView()).toEqual({ kind: "rate-limited", code: 4, subcode: null, fbtraceId: "T", retryable: true, retryAfterMs: 60_000, message: "later" });
  });
});
