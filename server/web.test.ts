import { spawnSync } from "node:child_process";
import http from "node:http";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import pino from "pino";
import { afterAll, afterEach, describe, expect, test } from "vitest";
import { useTestDatabase } from "~/db/testing/test-database";
import { BODY_LIMITS } from "./body-limit";
import { loadConfig } from "./config";
import type { Logger } from "./logger";
import { sql } from "drizzle-orm";
import { createWebApp, startWebServer } from "./web";

// The web app on a real port, in front of a real database. These tests only reach what answers before
// React Router (the body limits, the auth service, the request log), so no React build is needed.
const t = useTestDatabase();
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const SECRET = "a-test-secret-that-is-long-enough-0123456789";
const noBuild = () => Promise.reject(new Error("these tests need no React build"));

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

type Running = { base: string; port: number; dataDir: string; logLines: () => string[]; close: () => Promise<void> };
const running: Running[] = [];
afterEach(async () => {
  for (const server of running.splice(0)) await server.close();
});

/** The web app as `serve` builds it, from an environment like the one `npm start` sees. */
async function startApp(env: Record<string, string> = {}, options: { demo?: boolean; assetsDir?: string } = {}): Promise<Running> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "oddwire-web-"));
  dirs.push(dataDir);
  const config = loadConfig({ NODE_ENV: "production", PORT: String(port), DATA_DIR: dataDir, AUTH_SECRET: SECRET, ...env });
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString().split("\n").filter(Boolean));
      done();
    },
  });
  const logger = pino({ level: "info" }, sink) as Logger;
  const app = createWebApp({ config, database: t.database, logger, build: noBuild, demo: options.demo, assetsDir: options.assetsDir });
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
// Sign-in is rate limited per address (in memory shared by every app of a process): each call its own.
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
function postLarge(url: string, bytes: number, how: "chunked" | "declared"): Promise<{ status: number; body: string }> {
  if (how === "chunked") {
    return fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: lazyBody(bytes),
      duplex: "half",
    } as RequestInit).then(async (response) => ({ status: response.status, body: await response.text() }));
  }
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method: "POST", headers: { "content-type": "application/json", "content-length": bytes } }, (response) => {
      let body = "";
      response.on("data", (chunk: Buffer) => (body += chunk.toString()));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
    });
    // Once the server has answered and closed, the rest cannot be sent: that is the point.
    request.on("error", (error: NodeJS.ErrnoException) => (error.code === "EPIPE" || error.code === "ECONNRESET" ? undefined : reject(error)));
    let sent = 0;
    const write = () => {
      while (sent < bytes) {
        const part = CHUNK.subarray(0, Math.min(CHUNK.length, bytes - sent));
        sent += part.length;
        if (!request.write(part)) return void request.once("drain", write);
      }
      request.end();
    };
    write();
  });
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
    const over = await postLarge(`${app.base}/admin/sources.data`, BODY_LIMITS.admin + CHUNK.length, "chunked");
    expect(over.status).toBe(413);
    expect(JSON.parse(over.body).message).toBe("The request is too large: this address accepts at most 2.3 MB.");
    const declared = await postLarge(`${app.base}/admin/api/scrape`, BODY_LIMITS.admin + 1, "declared");
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
    expect(body).toContain("oddwire_process_resident_memory_bytes");
  });

  test("METRICS_PORT serves /metrics alone on a port of its own", async () => {
    const port = await freePort();
    const metricsPort = await freePort();
    const dataDir = mkdtempSync(path.join(os.tmpdir(), "oddwire-web-"));
    dirs.push(dataDir);
    const config = loadConfig({ NODE_ENV: "production", PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dataDir, AUTH_SECRET: SECRET, METRICS_PORT: String(metricsPort) });
    const web = await startWebServer({ config, database: t.database, logger: pino({ level: "silent" }) as Logger, build: noBuild });
    try {
      expect((await fetch(`http://127.0.0.1:${port}/metrics`)).status).toBe(404);
      const answer = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
      expect(answer.status).toBe(200);
      expect(await answer.text()).toContain("oddwire_nodejs_eventloop_lag_seconds");
      expect((await fetch(`http://127.0.0.1:${metricsPort}/`)).status).toBe(404);
    } finally {
      await web.close();
    }
  });

  test("/readyz is ready once every migration is applied, and says why not otherwise", async () => {
    const app = await startApp();
    expect(await (await fetch(`${app.base}/readyz`)).json()).toEqual({ ready: true });
    const result = (await t.db.execute(sql`SELECT id, hash, created_at FROM drizzle.__drizzle_migrations ORDER BY id DESC LIMIT 1`)) as unknown as {
      rows: { id: number; hash: string; created_at: string }[];
    };
    const last = result.rows[0];
    await t.db.execute(sql`DELETE FROM drizzle.__drizzle_migrations WHERE id = ${last!.id}`);
    try {
      const answer = await fetch(`${app.base}/readyz`);
      expect(answer.status).toBe(503);
      expect(await answer.json()).toEqual({ ready: false, reason: "1 database migration(s) not applied yet" });
    } finally {
      await t.db.execute(sql`INSERT INTO drizzle.__drizzle_migrations (id, hash, created_at) VALUES (${last!.id}, ${last!.hash}, ${last!.created_at})`);
    }
  });

  test("a hashed asset is answered from memory, compressed at build time, and counted", async () => {
    const token = "metrics-token-0123456789";
    const assetsDir = mkdtempSync(path.join(os.tmpdir(), "oddwire-assets-"));
    dirs.push(assetsDir);
    writeFileSync(path.join(assetsDir, "app-abc123.css"), `body { color: #111; }\n${".goat { margin: 0; }\n".repeat(200)}`);
    expect(spawnSync(process.execPath, [path.resolve("scripts/precompress.mjs"), assetsDir]).status).toBe(0);
    const app = await startApp({ METRICS_TOKEN: token }, { assetsDir });
    const answer = await fetch(`${app.base}/assets/app-abc123.css`, { headers: { "accept-encoding": "br" } });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(answer.headers.get("content-encoding")).toBe("br");
    const body = await (await fetch(`${app.base}/metrics`, { headers: { authorization: `Bearer ${token}` } })).text();
    expect(body).toContain('oddwire_http_requests_total{route="/assets/*",method="GET",status="200"} 1');
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
