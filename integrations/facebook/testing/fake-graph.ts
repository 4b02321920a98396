import { randomBytes } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

/** The parts of the Graph API the site uses, as the fake tells them apart. */
export type FakeEndpoint = "feed" | "scrape" | "posts" | "post" | "page" | "debug_token" | "permissions";

/** Facebook's error object, as it sends it under `error`. */
export type FakeGraphErrorBody = {
  message: string;
  type?: string;
  code: number;
  error_subcode?: number;
  fbtrace_id?: string;
  is_transient?: boolean;
  error_user_title?: string;
  error_user_msg?: string;
};

/** How the fake answers one request. */
export type FakeAnswer =
  /** The endpoint's normal answer. A post is recorded at once, so with `delayMs` past the client's time limit it exists though the answer comes too late. */
  | { kind: "success"; delayMs?: number; headers?: Record<string, string> }
  /** A Graph error (see `graphErrors`), with Facebook's usual HTTP status unless given. */
  | { kind: "error"; error: FakeGraphErrorBody; status?: number; headers?: Record<string, string>; delayMs?: number }
  /** No answer at all, ever (until the fake closes); nothing is posted. */
  | { kind: "hang" }
  /** The connection is dropped once the request is in; with `afterRecording`, a post was made first. */
  | { kind: "reset"; afterRecording?: boolean }
  /** Any status and body (a proxy's HTML page, a body that is not JSON). */
  | { kind: "raw"; status: number; body: string; headers?: Record<string, string> };

export type RecordedRequest = {
  method: string;
  /** The path without the version prefix: "/123/feed". */
  path: string;
  endpoint: FakeEndpoint | null;
  /** Query parameters; a token among them is replaced by "[token]". */
  query: Record<string, string>;
  /** The parsed body (form or JSON); a token in it is replaced by "[token]". */
  body: Record<string, unknown>;
  /** Request headers without Authorization. */
  headers: IncomingHttpHeaders;
  /** How the token came: the Authorization header, a query parameter, the body, or not at all. */
  tokenIn: "header" | "query" | "body" | "none";
  /** Whether the token matched the expected one. */
  tokenOk: boolean;
};

export type FakePost = { id: string; message: string; link: string | null; createdTime: string; permalinkUrl: string };

export type FakeGraphOptions = {
  pageId?: string;
  pageName?: string;
  pageToken?: string;
  /** Path prefix, as in FACEBOOK_GRAPH_URL: "/v21.0". */
  version?: string;
  /** Permissions the token holds (debug_token's scopes, me/permissions). */
  permissions?: string[];
  /** The token's expiry in seconds since the epoch; 0: never. */
  tokenExpiresAt?: number;
  /** Real debug_token wants an app token: "app-token-required" refuses the Page token as Facebook does. */
  debugToken?: "allowed" | "app-token-required";
};

export type FakeGraph = {
  /** The base URL to give the client (FACEBOOK_GRAPH_URL): http://127.0.0.1:PORT/v21.0 */
  url: string;
  pageId: string;
  pageToken: string;
  /** Every request seen, in order. */
  requests: RecordedRequest[];
  /** The Page's posts, oldest first (made through the fake or added by a test). */
  posts: FakePost[];
  /** URLs asked to be scraped again, in order. */
  scrapes: string[];
  /** The next request to `endpoint` gets `answer` (answers queue up, each used once). */
  answerOnce(endpoint: FakeEndpoint | "*", answer: FakeAnswer): void;
  /** Every request to `endpoint` ("*": any endpoint) gets `answer` until cleared. */
  answerAlways(endpoint: FakeEndpoint | "*", answer: FakeAnswer): void;
  /** Back to normal answers; requests and posts are kept. */
  clearAnswers(): void;
  /** Adds a post to the Page as if made elsewhere. */
  addPost(post: { message: string; link?: string | null; createdTime?: string }): FakePost;
  /** The options a Graph client needs to talk to this fake. */
  clientOptions(): { baseUrl: string; pageId: string; pageToken: string };
  close(): Promise<void>;
};

const fbtrace = () => randomBytes(8).toString("base64url");

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
function statusFor(code: number): number {
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
const shim = (link: string) => `https://l.facebook.com/l.php?u=${encodeURIComponent(link)}&h=AT0${randomBytes(6).toString("hex")}`;

function parseBody(raw: string, contentType: string | undefined): Record<string, unknown> {
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

/**
 * A fake Graph API on 127.0.0.1 for tests: it checks the token, records every request (the token
 * itself left out), keeps the Page's posts, and answers each endpoint normally or as a test tells it
 * (each Graph error, a late or missing answer, a dropped connection, rate-limit headers).
 */
export async function startFakeGraph(options: FakeGraphOptions = {}): Promise<FakeGraph> {
  const pageId = options.pageId ?? "1234567890";
  const pageToken = options.pageToken ?? `EAAG${randomBytes(24).toString("hex")}`;
  const version = options.version ?? "/v21.0";
  const pageName = options.pageName ?? "Oddwire";
  const permissions = options.permissions ?? ["pages_show_list", "pages_read_engagement", "pages_manage_posts"];
  const onceAnswers = new Map<string, FakeAnswer[]>();
  const alwaysAnswers = new Map<string, FakeAnswer>();
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const requests: RecordedRequest[] = [];
  const posts: FakePost[] = [];
  const scrapes: string[] = [];
  let postCounter = 0;

  const addPost = (post: { message: string; link?: string | null; createdTime?: string }): FakePost => {
    postCounter += 1;
    const local = String(100_000 + postCounter);
    const made: FakePost = {
      id: `${pageId}_${local}`,
      message: post.message,
      link: post.link ?? null,
      createdTime: post.createdTime ?? new Date().toISOString().replace(/\.\d{3}Z$/, "+0000"),
      permalinkUrl: `https://www.facebook.com/${pageId}/posts/${local}`,
    };
    posts.push(made);
    return made;
  };

  const redact = (params: Record<string, unknown>) => {
    const out = { ...params };
    for (const name of ["access_token", "input_token"]) if (name in out) out[name] = "[token]";
    return out;
  };

  function endpointOf(method: string, segments: string[], params: Record<string, unknown>): FakeEndpoint | null {
    const [first, second] = segments;
    if (method === "POST" && segments.length === 0 && params.scrape !== undefined) return "scrape";
    if (method === "POST" && segments.length === 2 && second === "feed") return "feed";
    if (method === "GET" && first === "debug_token" && segments.length === 1) return "debug_token";
    if (method === "GET" && first === "me" && second === "permissions") return "permissions";
    if (method === "GET" && segments.length === 2 && (second === "posts" || second === "feed" || second === "published_posts")) return "posts";
    if (method === "GET" && segments.length === 1) return first!.includes("_") ? "post" : "page";
    return null;
  }

  function pickAnswer(endpoint: FakeEndpoint | null): FakeAnswer {
    for (const key of [endpoint ?? "", "*"]) {
      const queued = onceAnswers.get(key);
      if (queued && queued.length > 0) return queued.shift()!;
    }
    return (endpoint ? alwaysAnswers.get(endpoint) : undefined) ?? alwaysAnswers.get("*") ?? { kind: "success" };
  }

  const later = (delayMs: number | undefined, run: () => void) => {
    if (!delayMs) return run();
    const timer = setTimeout(() => {
      timers.delete(timer);
      run();
    }, delayMs);
    timers.add(timer);
  };

  function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
    if (res.destroyed) return;
    const text = JSON.stringify(body);
    res.writeHead(status, {
      "content-type": "application/json; charset=UTF-8",
      "content-length": Buffer.byteLength(text),
      "x-fb-trace-id": fbtrace(),
      "facebook-api-version": version.replace(/^\//, "") || "v21.0",
      ...headers,
    });
    res.end(text);
  }

  const sendError = (res: ServerResponse, error: FakeGraphErrorBody, status?: number, headers?: Record<string, string>) =>
    sendJson(res, status ?? statusFor(error.code), { error: { ...error, fbtrace_id: error.fbtrace_id ?? fbtrace() } }, headers);

  /** The endpoint's normal answer. */
  function succeed(endpoint: FakeEndpoint, segments: string[], params: Record<string, unknown>, inputToken: string | undefined) {
    const id = segments[0] ?? "";
    switch (endpoint) {
      case "feed": {
        if (id !== pageId) return { status: 400, body: { error: { ...graphErrors.unknownObject(id), fbtrace_id: fbtrace() } } };
        const message = typeof params.message === "string" ? params.message : "";
        const link = typeof params.link === "string" ? params.link : null;
        if (message === "" && link === null) {
          return { status: 400, body: { error: { ...graphErrors.invalidParameter("(#100) Missing message or attachment"), fbtrace_id: fbtrace() } } };
        }
        return { status: 200, body: { id: addPost({ message, link }).id } };
      }
      case "scrape": {
        const url = String(params.id ?? "");
        scrapes.push(url);
        return {
          status: 200,
          body: { url, type: "website", title: "A story on Oddwire", id: `${9_000_000 + scrapes.length}`, updated_time: new Date().toISOString() },
        };
      }
      case "posts": {
        if (id !== pageId) return { status: 400, body: { error: { ...graphErrors.unknownObject(id), fbtrace_id: fbtrace() } } };
        const limit = Math.min(100, Number(params.limit) || 25);
        const data = [...posts]
          .reverse()
          .slice(0, limit)
          .map((post) => ({
            id: post.id,
            created_time: post.createdTime,
            message: post.message,
            permalink_url: post.permalinkUrl,
            ...(post.link ? { attachments: { data: [{ type: "share", url: shim(post.link), unshimmed_url: post.link }] } } : {}),
          }));
        return { status: 200, body: { data, paging: { cursors: { before: "QVFIUk", after: "QVFIUl" } } } };
      }
      case "post": {
        const post = posts.find((candidate) => candidate.id === id);
        if (!post) return { status: 400, body: { error: { ...graphErrors.unknownObject(id), fbtrace_id: fbtrace() } } };
        return { status: 200, body: { id: post.id, permalink_url: post.permalinkUrl } };
      }
      case "page":
        if (id !== pageId) return { status: 400, body: { error: { ...graphErrors.unknownObject(id), fbtrace_id: fbtrace() } } };
        return { status: 200, body: { id: pageId, name: pageName, link: `https://www.facebook.com/${pageName.toLowerCase()}` } };
      case "debug_token": {
        if (options.debugToken === "app-token-required") {
          return { status: 400, body: { error: { ...graphErrors.appTokenRequired(), fbtrace_id: fbtrace() } } };
        }
        const valid = inputToken === pageToken;
        const now = Math.floor(Date.now() / 1000);
        return {
          status: 200,
          body: {
            data: {
              app_id: "100200300",
              type: "PAGE",
              application: "Oddwire",
              data_access_expires_at: now + 90 * 86_400,
              expires_at: options.tokenExpiresAt ?? 0,
              is_valid: valid,
              issued_at: now - 86_400,
              profile_id: pageId,
              scopes: valid ? permissions : [],
              user_id: "555000111",
              ...(valid ? {} : { error: { code: 190, message: "Invalid OAuth access token.", subcode: 467 } }),
            },
          },
        };
      }
      case "permissions":
        return { status: 200, body: { data: permissions.map((permission) => ({ permission, status: "granted" })) } };
    }
  }

  function handle(req: IncomingMessage, res: ServerResponse, raw: string) {
    const url = new URL(req.url ?? "/", "http://fake-graph");
    const method = req.method ?? "GET";
    const query = Object.fromEntries(url.searchParams);
    const body = parseBody(raw, req.headers["content-type"]);
    const params: Record<string, unknown> = { ...query, ...body };
    let path = url.pathname;
    if (version && path.startsWith(version)) path = path.slice(version.length) || "/";
    const segments = path.split("/").filter(Boolean).map(decodeURIComponent);
    const endpoint = endpointOf(method, segments, params);

    const authorization = req.headers.authorization;
    const bearer = /^(?:Bearer|OAuth)\s+(.+)$/i.exec(authorization ?? "")?.[1];
    const tokenIn = bearer ? "header" : query.access_token ? "query" : typeof body.access_token === "string" ? "body" : "none";
    const token = bearer ?? query.access_token ?? (typeof body.access_token === "string" ? body.access_token : undefined);
    const { authorization: _dropped, ...headers } = req.headers;
    requests.push({ method, path, endpoint, query: redact(query) as Record<string, string>, body: redact(body), headers, tokenIn, tokenOk: token === pageToken });

    if (token === undefined) {
      return sendError(res, { message: "An access token is required to request this resource.", type: "OAuthException", code: 104 });
    }
    if (token !== pageToken) return sendError(res, graphErrors.invalidToken());
    if (endpoint === null) {
      return sendError(res, { message: `Unknown path components: ${path}`, type: "OAuthException", code: 2500 });
    }

    const answer = pickAnswer(endpoint);
    const inputToken = typeof params.input_token === "string" ? params.input_token : undefined;
    switch (answer.kind) {
      case "hang":
        return;
      case "reset":
        if (answer.afterRecording) succeed(endpoint, segments, params, inputToken);
        req.socket.destroy();
        return;
      case "raw":
        res.writeHead(answer.status, { "content-type": "text/html", ...answer.headers }).end(answer.body);
        return;
      case "error":
        return later(answer.delayMs, () => sendError(res, answer.error, answer.status, answer.headers));
      case "success": {
        // The work is done now; only the answer waits.
        const result = succeed(endpoint, segments, params, inputToken);
        return later(answer.delayMs, () => sendJson(res, result.status, result.body, answer.headers));
      }
    }
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => handle(req, res, Buffer.concat(chunks).toString("utf8")));
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}${version}`;

  return {
    url,
    pageId,
    pageToken,
    requests,
    posts,
    scrapes,
    answerOnce(endpoint, answer) {
      const queue = onceAnswers.get(endpoint) ?? [];
      queue.push(answer);
      onceAnswers.set(endpoint, queue);
    },
    answerAlways(endpoint, answer) {
      alwaysAnswers.set(endpoint, answer);
    },
    clearAnswers() {
      onceAnswers.clear();
      alwaysAnswers.clear();
    },
    addPost,
    clientOptions: () => ({ baseUrl: url, pageId, pageToken }),
    close: () =>
      new Promise((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        timers.clear();
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
