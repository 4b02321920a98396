import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { freePort, postDeclaredBytes } from "~/test/http-test-server";
import { gotoHydrated } from "./helpers";
import { tempDir } from "~/test/temp-dir";

// The production server as `npm run demo` starts it, in its own process, with the SITE_URL a test needs.
const BIN = path.resolve("bin/oddwire.mjs");
const DEMO_ADMIN_EMAIL = "admin@oddwire.test";

type Started = { port: number; pid: number; dataDir: string; password: string; stop: () => Promise<void> };

async function startDemo(env: Record<string, string>): Promise<Started> {
  const port = await freePort();
  const dataDir = tempDir("oddwire-origins-");
  const childEnv: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: "127.0.0.1", LOG_LEVEL: "warn", ...env };
  delete childEnv.DATABASE_URL;
  delete childEnv.NODE_ENV;
  if (!("SITE_URL" in env)) delete childEnv.SITE_URL;
  const child: ChildProcess = spawn(process.execPath, [BIN, "serve", "--demo"], { env: childEnv });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const healthy = expect
    .poll(() => fetch(`http://127.0.0.1:${port}/healthz`).then((r) => r.ok, () => false), { message: "the server starts", timeout: 180_000, intervals: [250] })
    .toBe(true);
  await Promise.race([healthy, exited.then(() => Promise.reject(new Error(`the server exited:\n${output}`)))]);
  return {
    port,
    pid: child.pid!,
    dataDir,
    password: readFileSync(path.join(dataDir, "demo-admin-password"), "utf8").trim(),
    stop: async () => {
      child.kill("SIGTERM");
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

type Answer = { status: number; headers: http.IncomingHttpHeaders; body: string };

// node:http, since fetch does not let a caller set Host: a proxy in front of the site does.
function send(port: number, options: { method?: string; path: string; headers?: Record<string, string>; body?: string }): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.request({ host: "127.0.0.1", port, method: options.method ?? "GET", path: options.path, headers: options.headers }, (response) => {
      let body = "";
      response.on("data", (chunk: Buffer) => (body += chunk.toString()));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
    });
    request.on("error", reject);
    request.end(options.body);
  });
}

const cookieFrom = (answer: Answer) => (answer.headers["set-cookie"] ?? []).map((c) => c.split(";")[0]).join("; ");

test.describe.configure({ mode: "serial" });

test.describe("behind an HTTPS proxy that sends no X-Forwarded-Proto, SITE_URL alone is enough", () => {
  let server: Started;
  test.beforeAll(async () => {
    test.setTimeout(240_000);
    server = await startDemo({ SITE_URL: "https://news.oddwire.test" });
  });
  test.afterAll(async () => {
    await server?.stop();
  });

  test("an admin signs in and changes a category through the proxy; a change from any other origin is refused", async () => {
    // What the proxy forwards: the public Host, the browser's Origin, and no word of TLS.
    const viaProxy = (origin: string) => ({ host: "news.oddwire.test", origin });
    const signIn = await send(server.port, {
      method: "POST",
      path: "/api/auth/sign-in/email",
      headers: { ...viaProxy("https://news.oddwire.test"), "content-type": "application/json" },
      body: JSON.stringify({ email: DEMO_ADMIN_EMAIL, password: server.password }),
    });
    expect(signIn.status).toBe(200);
    const cookie = cookieFrom(signIn);
    expect(cookie).toContain("__Secure-better-auth.session_token=");

    const addCategory = (origin: string, name: string) =>
      send(server.port, {
        method: "POST",
        path: "/admin/categories.data",
        headers: { ...viaProxy(origin), cookie, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ intent: "create", name, slug: name.toLowerCase().replace(/\s+/g, "-") }).toString(),
      });
    const accepted = await addCategory("https://news.oddwire.test", "Proxy Oddities");
    expect(accepted.status).toBe(200);
    expect(accepted.body).toContain("Category added");

    // The same form from the plain-http spelling of the name, or from another site, changes nothing.
    for (const origin of ["http://news.oddwire.test", "https://evil.example"]) {
      const refused = await addCategory(origin, `Forged ${origin.length}`);
      expect([400, 403], origin).toContain(refused.status);
      expect(refused.body).not.toContain("Category added");
    }
    const page = await send(server.port, { path: "/admin/categories.data", headers: { host: "news.oddwire.test", cookie } });
    expect(page.body).toContain("Proxy Oddities");
    expect(page.body).not.toContain("Forged");

    // The auth service trusts SITE_URL's origin and no loopback address.
    const loopback = await send(server.port, {
      method: "POST",
      path: "/api/auth/sign-in/email",
      headers: { origin: `http://127.0.0.1:${server.port}`, "content-type": "application/json" },
      body: JSON.stringify({ email: DEMO_ADMIN_EMAIL, password: server.password }),
    });
    expect(loopback.status).toBe(403);
  });
});

test.describe("with SITE_URL unset", () => {
  let server: Started;
  test.beforeAll(async () => {
    test.setTimeout(240_000);
    server = await startDemo({});
  });
  test.afterAll(async () => {
    await server?.stop();
  });

  test("a newcomer on http://127.0.0.1 signs in and adds a category from the browser, as on http://localhost", async ({ browser }) => {
    for (const host of ["127.0.0.1", "localhost"]) {
      const context = await browser.newContext();
      const page = await context.newPage();
      const base = `http://${host}:${server.port}`;
      await gotoHydrated(page, `${base}/admin/categories`);
      await page.getByLabel("Email").fill(DEMO_ADMIN_EMAIL);
      await page.getByLabel("Password").fill(server.password);
      await page.getByRole("button", { name: "Sign In" }).click();
      await expect(page.getByRole("button", { name: "Sign Out" })).toBeEnabled();
      // The browser sends its own Origin with the form, as the categories screen does.
      const status = await page.evaluate(async (name) => {
        const form = new FormData();
        form.set("intent", "create");
        form.set("name", name);
        form.set("slug", name.toLowerCase().replace(/\s+/g, "-"));
        return (await fetch("/admin/categories.data", { method: "POST", body: form })).status;
      }, `Loopback ${host === "localhost" ? "Named" : "Numbered"}`);
      expect(status, host).toBe(200);
      await context.close();
    }
    const page = await send(server.port, { path: "/category/loopback-numbered" });
    expect(page.status).toBe(200);
  });

  test("a client searching past its allowance is told to wait, and a 14 KB query is searched as its first 200 characters", async ({ page }) => {
    const base = `http://127.0.0.1:${server.port}`;
    const long = await page.goto(`${base}/search?q=${"q".repeat(12_000)}`);
    expect(long?.status()).toBe(200);
    await expect(page.getByRole("heading", { name: `No stories found for "${"q".repeat(200)}"` })).toBeVisible();

    // The page cache answers repeats: each search here is a different one, and reaches the database.
    const statuses: number[] = [];
    for (let i = 0; i < 120 && !statuses.includes(429); i++) statuses.push((await send(server.port, { path: `/search?q=weird${i}` })).status);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(29);
    expect(statuses.at(-1)).toBe(429);
    // The allowance refills by one search a second, and a busy machine can take that long to send the
    // browser's request: each try first spends what came back, so the browser's own search is refused.
    let refused: Awaited<ReturnType<typeof page.goto>> = null;
    for (let attempt = 0; attempt < 3 && refused?.status() !== 429; attempt++) {
      await Promise.all(Array.from({ length: 5 }, (_, k) => send(server.port, { path: `/search?q=spent${attempt}-${k}` })));
      refused = await page.goto(`${base}/search?q=one-more-${attempt}`);
    }
    expect(refused?.status()).toBe(429);
    expect(refused?.headers()["retry-after"]).toMatch(/^\d+$/);
    await expect(page.getByRole("heading", { name: "Search Error" })).toBeVisible();
    await expect(page.getByText(/Too many searches from your address\. Please wait \d+ seconds? and try again\./)).toBeVisible();
  });

  test("oversized anonymous sign-ins are refused with 413 and the server process does not grow with them", async () => {
    const statusFile = `/proc/${server.pid}/status`;
    test.skip(!existsSync(statusFile), "reads the server's memory from /proc");
    const rssKb = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(statusFile, "utf8"))![1]);
    const before = rssKb();
    const oversized = () => postDeclaredBytes(`http://127.0.0.1:${server.port}/api/auth/sign-in/email`, 200 * 1024 * 1024);
    const answers = await Promise.all([oversized(), oversized(), oversized(), oversized()]);
    for (const answer of answers) {
      expect(answer.status).toBe(413);
      expect(JSON.parse(answer.body).message).toBe("The request is too large: this address accepts at most 64 KB.");
    }
    expect(rssKb() - before).toBeLessThan(64 * 1024);
  });
});
