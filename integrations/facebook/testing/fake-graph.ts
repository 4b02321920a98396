import { randomBytes } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { endpointOf, fbtrace, graphErrors, parseBody, shim, statusFor } from "./graph-shapes";

export { graphErrors, usageHeaders } from "./graph-shapes";

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
