import http from "node:http";
import { rmSync } from "node:fs";
import net from "node:net";
import pino from "pino";
import { Outlet } from "react-router";
import { afterAll, afterEach, describe, expect, test } from "vitest";
import { requireAdmin } from "~/app/lib/admin.server";
import handleRequest, { streamTimeout } from "~/app/entry.server";
import { testDatabaseForFile } from "~/db/testing/test-database";
import { createUser } from "~/domain/users/users";
import { freePort } from "~/test/http-test-server";
import { routeEntry, testServerBuild } from "~/test/web-server";
import { bodyGateFor } from "./body-gate";
import { BODY_BUDGET_RETRY_SECONDS, BODY_LIMITS, createBodyBudget, type BodyBudget } from "./body-limit";
import { loadConfig } from "../config";
import type { Logger } from "../logger";
import { createWebApp } from "./web";
import { tempDir } from "~/test/temp-dir";

// The web app on a real port and a real database, with a React Router build whose back-office route
// is guarded by the real admin gate and answers how many bytes of body it was given.
const t = testDatabaseForFile();
const SECRET = "a-test-secret-that-is-long-enough-0123456789";
const ADMIN = { email: "admin@oddwire.test", password: "admin-password-1" };
const EDITOR = { email: "editor@oddwire.test", password: "editor-password-1" };
const MiB = 1024 * 1024;
const PART_AND_REST = 2 * MiB + 200 * 1024;

const build = testServerBuild({
  entry: { module: { default: handleRequest, streamTimeout } },
  routes: {
    root: { id: "root", path: "", module: { default: Outlet } },
    sources: {
      id: "sources",
      parentId: "root",
      path: "admin/sources",
      module: {
        action: async (args: Parameters<typeof requireAdmin>[0]) => {
          const admin = await requireAdmin(args);
          const body = await args.request.arrayBuffer();
          return Response.json({ bytes: body.byteLength, admin: admin.email });
        },
      },
    },
  },
  assets: {
    entry: { module: "/entry.js", imports: [] },
    routes: { root: routeEntry("root", { path: "" }), sources: routeEntry("sources", { parentId: "root", path: "admin/sources", hasAction: true }) },
    url: "/manifest.js",
    version: "1",
  },
  routeDiscovery: { mode: "initial" },
});

type Running = { port: number; origin: string; budget: BodyBudget; closedConnections: () => number; bytesReadFromClosedSockets: () => number; close: () => Promise<void> };
const running: Running[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const app of running.splice(0)) await app.close();
});
afterAll(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function startApp(options: { budgetBytes?: number; bodyReadTimeoutMs?: number } = {}): Promise<Running> {
  const port = await freePort();
  const dataDir = tempDir("oddwire-body-gate-");
  dirs.push(dataDir);
  const config = loadConfig({ NODE_ENV: "production", PORT: String(port), DATA_DIR: dataDir, AUTH_SECRET: SECRET, TRUST_PROXY: "loopback" });
  const budget = createBodyBudget(options.budgetBytes);
  const app = createWebApp({
    config,
    database: t.database,
    logger: pino({ level: "silent" }) as Logger,
    build,
    bodyBudget: budget,
    bodyReadTimeoutMs: options.bodyReadTimeoutMs,
  });
  const server = http.createServer(app.nodeHandler).listen(port, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  // What the server read from every connection, counted as each one closes.
  let bytesRead = 0;
  let closed = 0;
  server.on("connection", (socket: net.Socket) =>
    socket.once("close", () => {
      bytesRead += socket.bytesRead;
      closed += 1;
    }),
  );
  const started: Running = {
    port,
    origin: `http://127.0.0.1:${port}`,
    budget,
    closedConnections: () => closed,
    bytesReadFromClosedSockets: () => bytesRead,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  running.push(started);
  return started;
}

let addresses = 0;
/** Signs in (from an address of its own: sign-in is limited per address) and returns the session cookie. */
async function signIn(app: Running, who: { email: string; password: string }): Promise<string> {
  const response = await fetch(`${app.origin}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: app.origin, "x-forwarded-for": `198.51.100.${++addresses}` },
    body: JSON.stringify(who),
  });
  expect(response.status).toBe(200);
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0])
    .join("; ");
}

/** The body of an answer sent in chunks, put back together. */
function dechunk(raw: string): string {
  let body = "";
  let at = 0;
  for (;;) {
    const end = raw.indexOf("\r\n", at);
    const size = Number.parseInt(raw.slice(at, end), 16);
    if (!(size > 0)) return body;
    body += raw.slice(end + 2, end + 2 + size);
    at = end + 2 + size + 2;
  }
}

type Answer = { status: number; head: string; body: string; sentBeforeAnswer: number; closedByServer: boolean };

/**
 * A POST on a raw socket that declares `declared` bytes and sends them `chunk` bytes at a time,
 * every `everyMs`, as long as no answer has come (`pauseAfter`: it stops sending there until told
 * to go on). Resolves with the answer, how much it had sent when the answer came, and whether the
 * server closed the connection.
 */
function slowPost(
  app: Running,
  options: { path: string; declared: number; chunk: number; everyMs: number; headers?: Record<string, string>; pauseAfter?: number },
): { answer: Promise<Answer>; resume: () => void; sent: () => number } {
  const socket = net.connect(app.port, "127.0.0.1");
  const headers = { host: `127.0.0.1:${app.port}`, "content-type": "application/octet-stream", "content-length": String(options.declared), ...options.headers };
  socket.write(
    `POST ${options.path} HTTP/1.1\r\n${Object.entries(headers)
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join("")}\r\n`,
  );
  let sent = 0;
  let received = "";
  let answeredAt: number | null = null;
  let resumed = false;
  const piece = Buffer.alloc(options.chunk, "o");
  const send = () => {
    if (answeredAt !== null || socket.destroyed || sent >= options.declared) return;
    if (options.pauseAfter !== undefined && sent >= options.pauseAfter && !resumed) return;
    const part = piece.subarray(0, Math.min(options.chunk, options.declared - sent));
    sent += part.length;
    socket.write(part);
  };
  const timer = setInterval(send, options.everyMs);
  send();
  socket.on("error", () => undefined);
  socket.on("data", (data: Buffer) => {
    received += data.toString("latin1");
    if (answeredAt === null && received.includes("\r\n\r\n")) answeredAt = sent;
  });
  const answer = new Promise<Answer>((resolve) => {
    let closedByServer = false;
    socket.once("end", () => (closedByServer = true));
    socket.once("close", () => {
      clearInterval(timer);
      const [head = "", ...rest] = received.split("\r\n\r\n");
      const raw = rest.join("\r\n\r\n");
      const body = /\r\ntransfer-encoding: chunked/i.test(head) ? dechunk(raw) : raw;
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0), head, body, sentBeforeAnswer: answeredAt ?? sent, closedByServer });
    });
    // A keep-alive answer (an accepted body) leaves the connection open: the client ends it once the answer is whole.
    socket.on("data", () => {
      const [head = "", ...rest] = received.split("\r\n\r\n");
      if (/\r\nconnection: close/i.test(head) || rest.length === 0) return;
      const raw = rest.join("\r\n\r\n");
      const length = /\r\ncontent-length: (\d+)/i.exec(head)?.[1];
      const whole = length === undefined ? /(?:^|\r\n)0\r\n\r\n$/.test(raw) : Buffer.byteLength(raw, "latin1") >= Number(length);
      if (whole) socket.end();
    });
  });
  return {
    answer,
    resume: () => (resumed = true),
    sent: () => sent,
  };
}

describe("which bodies wait for a session", () => {
  test.each([
    ["/admin/sources", "admin"],
    ["/admin/sources.data", "admin"],
    ["/admin", "admin"],
    ["/admin/api/scrape", "admin"],
    ["/api/suggestions", "api"],
    ["/api/auth/change-password", "api"],
    ["/api/auth/update-user", "api"],
    ["/api/auth/revoke-sessions", "api"],
    ["/api/auth/sign-in/email", null],
    ["/api/auth/sign-up/email", null],
    ["/api/auth/sign-out", null],
    ["/api/auth/request-password-reset", null],
    ["/api/auth/reset-password", null],
    ["/api/auth/send-verification-email", null],
    ["/api/auth/get-session", null],
    ["/api/auth/sign-outside", "api"],
    ["/search", null],
    ["/administrator", null],
  ])("%s: %s", (pathname, gate) => {
    expect(bodyGateFor(pathname)).toBe(gate);
  });
});

describe("bodies sent to the back office and the API", () => {
  test("150 slow anonymous POSTs declaring 2.3 MB, from the site or another origin, are answered 401 before their bodies are sent, and none of their bytes is held", async () => {
    const app = await startApp();
    const declared = BODY_LIMITS.admin;
    const posts = Array.from({ length: 150 }, (_, i) =>
      slowPost(app, { path: "/admin/sources", declared, chunk: 1024, everyMs: 100, headers: { origin: i % 3 === 0 ? "https://evil.example" : app.origin } }),
    );
    const answers = await Promise.all(posts.map((post) => post.answer));
    answers.forEach((answer, i) => {
      // Anonymous from anywhere: the admin gate's sign-in answer; the gate before the body refused it (another origin, or no session).
      expect(answer.status, `request ${i}`).toBe(401);
      expect(answer.head).toMatch(/\r\nconnection: close/i);
      // Answered while the client had sent a sliver of what it declared, and then disconnected by the server.
      expect(answer.sentBeforeAnswer).toBeLessThan(declared / 10);
      expect(answer.closedByServer).toBe(true);
    });
    await expect.poll(() => app.closedConnections()).toBe(150);
    // The server read a few kilobytes from each (headers, what came before and just after the answer), never their bodies.
    expect(app.bytesReadFromClosedSockets()).toBeLessThan(150 * 64 * 1024);
    expect(app.budget.peak).toBe(0);
  }, 60_000);

  test("an API endpoint that needs a session answers 401 or 403 in JSON without reading the body; the open ones still read theirs", async () => {
    const app = await startApp();
    const anonymous = await slowPost(app, { path: "/api/auth/change-password", declared: 60 * 1024, chunk: 1024, everyMs: 100, headers: { origin: app.origin } }).answer;
    expect(anonymous.status).toBe(401);
    expect(JSON.parse(anonymous.body)).toMatchObject({ code: "SIGNED_OUT" });
    expect(anonymous.sentBeforeAnswer).toBeLessThan(60 * 1024);
    await createUser({ users: t.repos.users }, EDITOR);
    const cookie = await signIn(app, EDITOR);
    const foreign = await slowPost(app, { path: "/api/auth/change-password", declared: 60 * 1024, chunk: 1024, everyMs: 100, headers: { origin: "https://evil.example", cookie } })
      .answer;
    expect(foreign.status).toBe(403);
    expect(JSON.parse(foreign.body)).toMatchObject({ code: "FOREIGN_ORIGIN" });
    expect(JSON.parse(foreign.body).message).toContain(`changes are accepted only from the site's own address`);
    // With the session, from the site: the auth service reads the body and judges it.
    const changed = await fetch(`${app.origin}/api/auth/change-password`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: app.origin, cookie },
      body: JSON.stringify({ currentPassword: EDITOR.password, newPassword: "editor-password-2" }),
    });
    expect(changed.status).toBe(200);
  });

  test("an admin's POST is read whole, up to the back office's limit, and a signed-in non-admin is still refused by the admin gate", async () => {
    const app = await startApp();
    await createUser({ users: t.repos.users }, { ...ADMIN, admin: true });
    await createUser({ users: t.repos.users }, EDITOR);
    const admin = await signIn(app, ADMIN);
    const body = new Uint8Array(BODY_LIMITS.admin).fill(7);
    const accepted = await fetch(`${app.origin}/admin/sources`, {
      method: "POST",
      headers: { origin: app.origin, cookie: admin, "content-type": "application/octet-stream" },
      body,
    });
    expect(accepted.status).toBe(200);
    expect(await accepted.json()).toEqual({ bytes: BODY_LIMITS.admin, admin: ADMIN.email });
    const editor = await signIn(app, EDITOR);
    const refused = await fetch(`${app.origin}/admin/sources`, {
      method: "POST",
      headers: { origin: app.origin, cookie: editor, "content-type": "application/octet-stream" },
      body: new Uint8Array(1024),
    });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ gate: "not-admin" });
    // An admin's session, from another origin: the admin gate's wrong-address answer, the body never read.
    const forged = await slowPost(app, {
      path: "/admin/sources",
      declared: BODY_LIMITS.admin,
      chunk: 1024,
      everyMs: 100,
      headers: { origin: "https://evil.example", cookie: admin },
    }).answer;
    expect(forged.status).toBe(403);
    expect(JSON.parse(forged.body)).toMatchObject({ gate: "foreign-origin" });
    expect(forged.sentBeforeAnswer).toBeLessThan(BODY_LIMITS.admin / 10);
  });

  test("bodies beyond the process's budget are refused with 503 and Retry-After, and go through once it has room", async () => {
    const app = await startApp({ budgetBytes: 3 * MiB });
    await createUser({ users: t.repos.users }, { ...ADMIN, admin: true });
    const cookie = await signIn(app, ADMIN);
    const headers = { origin: app.origin, cookie };
    // A holds 2 MiB of its 2.2 MiB and waits.
    const first = slowPost(app, { path: "/admin/sources", declared: PART_AND_REST, chunk: 64 * 1024, everyMs: 1, headers, pauseAfter: 2 * MiB });
    await expect.poll(() => app.budget.held, { timeout: 20_000 }).toBe(2 * MiB);
    // B's 1.5 MiB does not fit beside it.
    const second = await slowPost(app, { path: "/admin/sources", declared: 1.5 * MiB, chunk: 64 * 1024, everyMs: 1, headers }).answer;
    expect(second.status).toBe(503);
    expect(second.head).toMatch(new RegExp(`\\r\\nretry-after: ${BODY_BUDGET_RETRY_SECONDS}\\r\\n`, "i"));
    expect(JSON.parse(second.body)).toMatchObject({ code: "BODIES_BUDGET_FULL" });
    expect(app.budget.held).toBe(2 * MiB);
    first.resume();
    const firstAnswer = await first.answer;
    expect(firstAnswer.status).toBe(200);
    expect(JSON.parse(firstAnswer.body)).toEqual({ bytes: PART_AND_REST, admin: ADMIN.email });
    // Answered: A's bytes are given back, and B, tried again, is read whole.
    await expect.poll(() => app.budget.held).toBe(0);
    const retried = await fetch(`${app.origin}/admin/sources`, {
      method: "POST",
      headers: { ...headers, "content-type": "application/octet-stream" },
      body: new Uint8Array(1.5 * MiB),
    });
    expect(await retried.json()).toEqual({ bytes: 1.5 * MiB, admin: ADMIN.email });
    expect(app.budget.peak).toBeLessThanOrEqual(3 * MiB);
  }, 60_000);

  test("slow senders hold only what they have sent, and one that takes too long is cut off with 408, its share freed", async () => {
    const app = await startApp({ budgetBytes: 3 * MiB, bodyReadTimeoutMs: 3_000 });
    await createUser({ users: t.repos.users }, { ...ADMIN, admin: true });
    const cookie = await signIn(app, ADMIN);
    const headers = { origin: app.origin, cookie };
    // Twenty signed-in senders trickling 2.3 MB each...
    const slow = Array.from({ length: 20 }, () => slowPost(app, { path: "/admin/sources", declared: BODY_LIMITS.admin, chunk: 1024, everyMs: 100, headers }));
    await expect.poll(() => app.budget.held, { timeout: 20_000 }).toBeGreaterThan(0);
    // ...leave room for a 2 MiB body sent at once.
    const quick = await fetch(`${app.origin}/admin/sources`, {
      method: "POST",
      headers: { ...headers, "content-type": "application/octet-stream" },
      body: new Uint8Array(2 * MiB),
    });
    expect(await quick.json()).toEqual({ bytes: 2 * MiB, admin: ADMIN.email });
    for (const answer of await Promise.all(slow.map((post) => post.answer))) {
      expect(answer.status).toBe(408);
      expect(JSON.parse(answer.body)).toMatchObject({ code: "BODY_TIMEOUT" });
    }
    await expect.poll(() => app.budget.held).toBe(0);
  }, 60_000);
});
