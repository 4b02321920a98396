import http from "node:http";
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { Writable } from "node:stream";
import { brotliCompressSync } from "node:zlib";
import pino from "pino";
import { afterAll, afterEach, describe, expect, test } from "vitest";
import type { Database } from "~/db/client";
import { createUser } from "~/domain/users/users";
import { openTestDatabase, testDatabaseForFile } from "~/db/testing/test-database";
import { freePort, postDeclaredBytes } from "~/test/http-test-server";
import { BODY_LIMITS } from "./body-limit";
import { loadConfig } from "../config";
import { MAINTENANCE_RETRY_SECONDS } from "./maintenance";
import type { Logger } from "../logger";
import { sql } from "drizzle-orm";
import { createWebApp, startWebServer } from "./web";
import { tempDir } from "~/test/temp-dir";

// The web app on a real port, in front of a real database. These tests only reach what answers before
// React Router (the body limits, the auth service, the request log), so no React build is needed.
const t = testDatabaseForFile();
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const SECRET = "a-test-secret-that-is-long-enough-0123456789";
const noBuild = () => Promise.reject(new Error("these tests need no React build"));

type Running = { base: string; port: number; dataDir: string; logLines: () => string[]; close: () => Promise<void> };
const running: Running[] = [];
afterEach(async () => {
  for (const server of running.splice(0)) await server.close();
});

/** The web app as `serve` builds it, from an environment like the one `npm start` sees. */
async function startApp(env: Record<string, string> = {}, options: { demo?: boolean; clientDir?: string; database?: Database } = {}): Promise<Running> {
  const port = await freePort();
  const dataDir = tempDir("oddwire-web-");
  dirs.push(dataDir);
  // The test client on loopback stands for a proxy, so that calls can come from addresses of their own.
  const config = loadConfig({ NODE_ENV: "production", PORT: String(port), DATA_DIR: dataDir, AUTH_SECRET: SECRET, TRUST_PROXY: "loopback", ...env });
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString().split("\n").filter(Boolean));
      done();
    },
  });
  // Debug: request lines are written at debug unless an answer failed or was slow (server/http/request-log.ts).
  const logger = pino({ level: "debug" }, sink) as Logger;
  const app = createWebApp({ config, database: options.database ?? t.database, logger, build: noBuild, demo: options.demo, clientDir: options.clientDir });
  // The whole handler, as startWebServer serves it.
  const server = http.createServer(app.nodeHandler).listen(port, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  const started: Running = {
    base: `http://127.0.0.1:${port}`,
    port,
    dataDir,
    logLines: () => lines,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  running.push(started);
  return started;
}

const CHUNK = Buffer.alloc(64 * 1024, "a");
// Sign-in is rate limited per address: each call from its own.
let calls = 0;
const fromNewAddress = () => ({ "x-forwarded-for": `192.0.2.${++calls % 250}` });

/** A body of `bytes` made as it is sent, so the client never holds it. */
function lazyBody(bytes: number): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent >= bytes) return controller.close();
      sent += CHUNK.length;
      controller.enqueue(CHUNK);
    },
  });
}

/** POSTs `bytes` of body, chunked or with its length declared, and resolves with the status and the answer's text. */
function postLarge(url: string, bytes: number, how: "chunked" | "declared", headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  if (how === "chunked") {
    return fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: lazyBody(bytes),
      duplex: "half",
    } as RequestInit).then(async (response) => ({ status: response.status, body: await response.text() }));
  }
  return postDeclaredBytes(url, bytes, { "content-type": "application/json", ...headers });
}

describe("request bodies are capped before they are read", () => {
  test("several oversized anonymous sign-ins at once are refused with 413 and the process does not grow with them", async () => {
    const app = await startApp();
    const url = `${app.base}/api/auth/sign-in/email`;
    const before = process.memoryUsage().rss;
    const answers = await Promise.all(
      (["declared", "chunked", "declared", "chunked"] as const).map((how) => postLarge(url, 200 * 1024 * 1024, how)),
    );
    const growth = process.memoryUsage().rss - before;
    for (const answer of answers) {
      expect(answer.status).toBe(413);
      expect(JSON.parse(answer.body)).toMatchObject({ message: "The request is too large: this address accepts at most 64 KB.", code: "BODY_TOO_LARGE" });
    }
    // 800 MB were offered; what was read is a few times the 64 KB limit.
    expect(growth).toBeLessThan(64 * 1024 * 1024);
  }, 120_000);

  test("the back office accepts a body the size of the largest OPML import and refuses one past its limit", async () => {
    const app = await startApp();
    // Only a signed-in user's body is read at all (server/http/body-gate.test.ts).
    await createUser({ users: t.repos.users }, { email: "admin@oddwire.test", password: "admin-password-1", admin: true });
    const signIn = await fetch(`${app.base}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: app.base, ...fromNewAddress() },
      body: JSON.stringify({ email: "admin@oddwire.test", password: "admin-password-1" }),
    });
    const session = { origin: app.base, cookie: signIn.headers.getSetCookie().map((cookie) => cookie.split(";")[0]).join("; ") };
    const over = await postLarge(`${app.base}/admin/sources.data`, BODY_LIMITS.admin + CHUNK.length, "chunked", session);
    expect(over.status).toBe(413);
    expect(JSON.parse(over.body).message).toBe("The request is too large: this address accepts at most 2.3 MB.");
    const declared = await postLarge(`${app.base}/admin/api/scrape`, BODY_LIMITS.admin + 1, "declared", session);
    expect(declared.status).toBe(413);
    // A public address takes the small limit.
    expect((await postLarge(`${app.base}/search`, 128 * 1024, "declared")).status).toBe(413);
  });

  test("a sign-in within the limit reaches the auth service, whole", async () => {
    const app = await startApp();
    const response = await fetch(`${app.base}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: app.base.replace("127.0.0.1", "localhost"), ...fromNewAddress() },
      body: JSON.stringify({ email: "nobody@oddwire.test", password: "wrong-password", padding: "x".repeat(60 * 1024) }),
    });
    expect(response.status).toBe(401);
    expect(((await response.json()) as { message: string }).message).toBe("Invalid email or password");
  });
});

async function signUpAndReadMail(app: Running, email: string) {
  const response = await fetch(`${app.base}/api/auth/sign-up/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: app.base, ...fromNewAddress() },
    body: JSON.stringify({ email, password: "long-enough-1", name: "Newcomer" }),
  });
  expect(response.status).toBe(200);
  const outbox = path.join(app.dataDir, "outbox");
  const [file] = readdirSync(outbox);
  const text = readFileSync(path.join(outbox, file!), "utf8");
  const link = /(https?:\/\/[^\s"\\]+)/.exec(text)![1]!;
  return { file: path.join(outbox, file!), link };
}

describe("mail without SMTP_URL", () => {
  test("in production the log says where a message was written and never what it says", async () => {
    const app = await startApp();
    const { file, link } = await signUpAndReadMail(app, "newcomer@oddwire.test");
    expect(link).toContain("/api/auth/verify-email?token=");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const log = app.logLines().join("\n");
    expect(log).toContain(file);
    expect(log).not.toContain(new URL(link).searchParams.get("token")!);
    expect(log).not.toContain("Confirm your e-mail address");

    // Following the link keeps its token out of the request log too.
    await fetch(link.replace(/^http:\/\/localhost:/, "http://127.0.0.1:"), { redirect: "manual" });
    const after = app.logLines().join("\n");
    expect(after).toContain("/api/auth/verify-email?token=[redacted]");
    expect(after).not.toContain(new URL(link).searchParams.get("token")!);
  });

  test("the demo also writes each verification link to the log, for a local user to follow", async () => {
    const app = await startApp({}, { demo: true });
    const { link } = await signUpAndReadMail(app, "demo-visitor@oddwire.test");
    expect(app.logLines().some((line) => line.includes(link))).toBe(true);
  });

  test("in development the log shows each message", async () => {
    const app = await startApp({ NODE_ENV: "development" });
    const { link } = await signUpAndReadMail(app, "developer@oddwire.test");
    expect(app.logLines().some((line) => line.includes("Confirm your e-mail address") && line.includes(link))).toBe(true);
  });
});

describe("origins, with SITE_URL unset", () => {
  test("sign-in is accepted from both loopback spellings of the port, and refused from another origin", async () => {
    const app = await startApp();
    const signIn = (origin: string) =>
      fetch(`${app.base}/api/auth/sign-in/email`, {
        method: "POST",
        headers: { "content-type": "application/json", origin, ...fromNewAddress() },
        body: JSON.stringify({ email: "nobody@oddwire.test", password: "wrong-password" }),
      });
    // 401 is the auth service judging the password: the origin was accepted.
    expect((await signIn(`http://127.0.0.1:${app.port}`)).status).toBe(401);
    expect((await signIn(`http://localhost:${app.port}`)).status).toBe(401);
    const foreign = await signIn(`http://127.0.0.1:${app.port + 1}`);
    expect(foreign.status).toBe(403);
    expect(((await foreign.json()) as { message: string }).message).toBe("Invalid origin");
  });

  test("with SITE_URL set, only its origin is trusted", async () => {
    const app = await startApp({ SITE_URL: "https://news.oddwire.test" });
    const signIn = (origin: string) =>
      fetch(`${app.base}/api/auth/sign-in/email`, {
        method: "POST",
        headers: { "content-type": "application/json", origin, ...fromNewAddress() },
        body: JSON.stringify({ email: "nobody@oddwire.test", password: "wrong-password" }),
      });
    expect((await signIn("https://news.oddwire.test")).status).toBe(401);
    expect((await signIn(`http://127.0.0.1:${app.port}`)).status).toBe(403);
  });
});

describe("operations endpoints", () => {
  test("/metrics is closed without METRICS_TOKEN, and with it answers only its bearer", async () => {
    const closed = await startApp();
    expect((await fetch(`${closed.base}/metrics`)).status).toBe(404);
    const token = "metrics-token-0123456789";
    const open = await startApp({ METRICS_TOKEN: token });
    expect((await fetch(`${open.base}/metrics`)).status).toBe(404);
    expect((await fetch(`${open.base}/metrics`, { headers: { authorization: "Bearer wrong-token-0123456789" } })).status).toBe(404);
    await fetch(`${open.base}/healthz`);
    const answer = await fetch(`${open.base}/metrics`, { headers: { authorization: `Bearer ${token}` } });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toMatch(/^text\/plain/);
    const body = await answer.text();
    expect(body).toContain('oddwire_http_requests_total{route="/healthz",method="GET",status="200"} 1');
    expect(body).toMatch(/^process_resident_memory_bytes \d+$/m);
  });

  test("METRICS_PORT serves the table's /metrics alone, without a token, on a port of its own", async () => {
    const port = await freePort();
    const metricsPort = await freePort();
    const dataDir = tempDir("oddwire-web-");
    dirs.push(dataDir);
    const config = loadConfig({ NODE_ENV: "production", PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dataDir, AUTH_SECRET: SECRET, METRICS_PORT: String(metricsPort) });
    const web = await startWebServer({ config, database: t.database, logger: pino({ level: "silent" }) as Logger, build: noBuild });
    try {
      expect((await fetch(`http://127.0.0.1:${port}/metrics`)).status).toBe(404);
      const answer = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
      expect(answer.status).toBe(200);
      expect(answer.headers.get("cache-control")).toBe("no-store");
      expect(await answer.text()).toMatch(/^nodejs_eventloop_lag_seconds /m);
      // The same handler as the site's /metrics: HEAD as GET without the body, other methods not at all.
      const head = await fetch(`http://127.0.0.1:${metricsPort}/metrics`, { method: "HEAD" });
      expect(head.status).toBe(200);
      expect(await head.text()).toBe("");
      expect((await fetch(`http://127.0.0.1:${metricsPort}/metrics`, { method: "POST" })).status).toBe(404);
      expect((await fetch(`http://127.0.0.1:${metricsPort}/`)).status).toBe(404);
      expect((await fetch(`http://127.0.0.1:${metricsPort}/healthz`)).status).toBe(404);
    } finally {
      await web.close();
    }
  });

  test("/readyz is ready once every migration is applied, and says why not otherwise; /healthz fails meanwhile, its reason in the log", async () => {
    const app = await startApp();
    expect(await (await fetch(`${app.base}/readyz`)).json()).toEqual({ ready: true });
    expect(await (await fetch(`${app.base}/healthz`)).json()).toEqual({ ok: true });
    const result = await t.database.pool.query<{ id: number; hash: string; created_at: string }>(
      "SELECT id, hash, created_at FROM drizzle.__drizzle_migrations ORDER BY id DESC LIMIT 1",
    );
    const last = result.rows[0];
    await t.db.execute(sql`DELETE FROM drizzle.__drizzle_migrations WHERE id = ${last!.id}`);
    try {
      const answer = await fetch(`${app.base}/readyz`);
      expect(answer.status).toBe(503);
      expect(await answer.json()).toEqual({ ready: false, reason: "1 database migration(s) not applied yet" });
      // A schema this build does not expect serves errors: the site is not healthy, whatever SELECT 1 says.
      const health = await fetch(`${app.base}/healthz`);
      expect(health.status).toBe(503);
      expect(await health.json()).toEqual({ ok: false });
      expect(app.logLines().map((line) => JSON.parse(line) as { msg: string; reason?: string })).toContainEqual(
        expect.objectContaining({ msg: "health check failed", reason: "1 database migration(s) not applied" }),
      );
    } finally {
      await t.db.execute(sql`INSERT INTO drizzle.__drizzle_migrations (id, hash, created_at) VALUES (${last!.id}, ${last!.hash}, ${last!.created_at})`);
    }
  });

  test("a hashed asset is answered from memory, compressed at build time, and counted", async () => {
    const token = "metrics-token-0123456789";
    const clientDir = tempDir("oddwire-client-");
    dirs.push(clientDir);
    const assetsDir = path.join(clientDir, "assets");
    mkdirSync(assetsDir);
    const css = `body { color: #111; }\n${".goat { margin: 0; }\n".repeat(200)}`;
    writeFileSync(path.join(assetsDir, "app-abc123.css"), css);
    // The .br the build writes beside it (scripts/precompress.mjs, run as the build runs it in
    // static-assets.process.test.ts).
    writeFileSync(path.join(assetsDir, "app-abc123.css.br"), brotliCompressSync(css));
    const app = await startApp({ METRICS_TOKEN: token }, { clientDir });
    const answer = await fetch(`${app.base}/assets/app-abc123.css`, { headers: { "accept-encoding": "br" } });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(answer.headers.get("content-encoding")).toBe("br");
    const body = await (await fetch(`${app.base}/metrics`, { headers: { authorization: `Bearer ${token}` } })).text();
    expect(body).toContain('oddwire_http_requests_total{route="/assets/*",method="GET",status="200"} 1');
  });

  test("the site's own files are answered from the client directory alone, for an hour, and never its parent's", async () => {
    const parent = tempDir("oddwire-parent-");
    dirs.push(parent);
    writeFileSync(path.join(parent, "secret.txt"), "not the site's\n");
    const clientDir = path.join(parent, "client");
    mkdirSync(path.join(clientDir, "demo"), { recursive: true });
    writeFileSync(path.join(clientDir, "demo", "goat.svg"), `<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"/>`);
    const app = await startApp({}, { clientDir });
    const picture = await fetch(`${app.base}/demo/goat.svg`);
    expect(picture.status).toBe(200);
    expect(picture.headers.get("content-type")).toBe("image/svg+xml");
    expect(picture.headers.get("cache-control")).toBe("public, max-age=3600");
    expect(await picture.text()).toContain("<svg");
    const again = await fetch(`${app.base}/demo/goat.svg`, { headers: { "if-none-match": picture.headers.get("etag")! } });
    expect(again.status).toBe(304);
    // Anything else goes on to the pages (these tests have no React build, so that fails).
    for (const other of ["/secret.txt", "/client/demo/goat.svg"]) {
      const answer = await fetch(`${app.base}${other}`);
      expect(answer.status).not.toBe(200);
      expect(await answer.text()).not.toContain("not the site's");
    }
  });

  test("HSTS is sent when SITE_URL is https, and not otherwise", async () => {
    const plain = await startApp();
    expect((await fetch(`${plain.base}/healthz`)).headers.get("strict-transport-security")).toBeNull();
    const secure = await startApp({ SITE_URL: "https://oddwire.example" });
    const answer = await fetch(`${secure.base}/healthz`);
    expect(answer.headers.get("strict-transport-security")).toBe("max-age=31536000; includeSubDomains");
    expect(answer.headers.get("x-content-type-options")).toBe("nosniff");
  });
});

describe("while the database is unreachable", () => {
  test("a public page with no copy kept is the maintenance page, and /healthz fails, saying why in the log only", async () => {
    // A database of its own, closed under the running app: every query fails as in an outage.
    const gone = await openTestDatabase();
    try {
      const app = await startApp({}, { database: gone.database });
      await gone.database.close();
      const page = await fetch(`${app.base}/category/animals`);
      expect(page.status).toBe(503);
      expect(page.headers.get("retry-after")).toBe(String(MAINTENANCE_RETRY_SECONDS));
      expect(page.headers.get("x-content-type-options")).toBe("nosniff");
      const html = await page.text();
      expect(html).toContain("<h1");
      expect(html).toContain("Back in a moment");
      expect(html).toContain("Oddwire cannot reach its stories right now.");
      expect(html).not.toContain("<script");
      const health = await fetch(`${app.base}/healthz`);
      expect(health.status).toBe(503);
      // The public answer names no database and no raw error; the operator reads why in the log.
      expect(await health.json()).toEqual({ ok: false });
      expect(app.logLines().map((line) => JSON.parse(line) as { msg: string; reason?: string; err?: string })).toContainEqual(
        expect.objectContaining({ msg: "health check failed", reason: "the database is unreachable", err: expect.any(String) }),
      );
    } finally {
      await gone.dispose();
    }
  });
});

describe("sign-in limits, kept in the database", () => {
  const signIn = (app: Running, email: string, password: string, address?: string) =>
    fetch(`${app.base}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: app.base, ...(address ? { "x-forwarded-for": address } : {}) },
      body: JSON.stringify({ email, password }),
    });

  test("two app instances on one database share the per-address limit, and a restart forgets nothing", async () => {
    const first = await startApp();
    const second = await startApp({}, { database: await t.openAnother() });
    const statuses: number[] = [];
    for (const app of [first, second, first, second, first]) statuses.push((await signIn(app, "nobody@oddwire.test", "wrong-password", "198.51.100.7")).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401]);
    const refused = await signIn(second, "nobody@oddwire.test", "wrong-password", "198.51.100.7");
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(((await refused.json()) as { message: string }).message).toMatch(/^Too many attempts from your address\. Please wait \d+ seconds and try again\.$/);

    // Both stop and a new one starts on the same database: the address is still refused.
    await first.close();
    await second.close();
    const restarted = await startApp({}, { database: await t.openAnother() });
    expect((await signIn(restarted, "nobody@oddwire.test", "wrong-password", "198.51.100.7")).status).toBe(429);
    expect((await signIn(restarted, "nobody@oddwire.test", "wrong-password", "198.51.100.8")).status).toBe(401);

    // The count is the database's: its row says five, and once it is gone the address may try again.
    const rows = await t.database.pool.query<{ hits: number }>("SELECT hits FROM auth_rate_limits WHERE key = $1", ["ip:/sign-in/email:198.51.100.7"]);
    expect(rows.rows).toEqual([{ hits: 5 }]);
    await t.db.execute(sql`DELETE FROM auth_rate_limits`);
    expect((await signIn(restarted, "nobody@oddwire.test", "wrong-password", "198.51.100.7")).status).toBe(401);
  });

  test("an account is limited whichever addresses the attempts come from, and its own sign-in clears its count", async () => {
    await createUser({ users: t.repos.users }, { email: "target@oddwire.test", password: "the-right-password" });
    const app = await startApp();
    const statuses: number[] = [];
    for (let i = 0; i < 9; i++) statuses.push((await signIn(app, "Target@oddwire.test", "wrong-password", `203.0.113.${i + 1}`)).status);
    expect(statuses.every((s) => s === 401)).toBe(true);
    // The owner, from a new address, gets in and so starts the account's count again.
    expect((await signIn(app, "target@oddwire.test", "the-right-password", "203.0.113.50")).status).toBe(200);
    for (let i = 0; i < 10; i++) expect((await signIn(app, "target@oddwire.test", "wrong-password", `203.0.113.${i + 60}`)).status).toBe(401);
    const refused = await signIn(app, "target@oddwire.test", "the-right-password", "203.0.113.99");
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { message: string }).message).toMatch(/^Too many sign-in attempts for this account\. Please wait 1[45] minutes and try again\.$/);
    // Another account is not held back.
    expect((await signIn(app, "someone-else@oddwire.test", "wrong-password", "203.0.113.100")).status).toBe(401);
  });

  test("an account is sent at most three reset e-mails an hour, whichever addresses ask", async () => {
    await createUser({ users: t.repos.users }, { email: "forgetful@oddwire.test", password: "the-right-password" });
    const app = await startApp();
    const ask = (address: string) =>
      fetch(`${app.base}/api/auth/request-password-reset`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: app.base, "x-forwarded-for": address },
        body: JSON.stringify({ email: "forgetful@oddwire.test", redirectTo: "/admin" }),
      });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await ask(`192.0.2.${200 + i}`)).status);
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    const mails = readdirSync(path.join(app.dataDir, "outbox")).filter((file) => readFileSync(path.join(app.dataDir, "outbox", file), "utf8").includes("Reset your Oddwire password"));
    expect(mails).toHaveLength(3);
  });

  test("without TRUST_PROXY a client cannot choose its address with X-Forwarded-For", async () => {
    const app = await startApp({ TRUST_PROXY: "" });
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) statuses.push((await signIn(app, `nobody${i}@oddwire.test`, "wrong-password", `198.51.100.${100 + i}`)).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429]);
  });
});
