import { capturedLog } from "~/test/captured-log";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import pino from "pino";
import { afterAll, beforeAll, expect, test } from "vitest";
import { logRequest, SLOW_REQUEST_MS, urlForLog } from "./request-log";

test.each([
  ["/api/auth/verify-email?token=eyJhbGc.abc.def&callbackURL=%2Fadmin", "/api/auth/verify-email?token=[redacted]&callbackURL=%2Fadmin"],
  ["/api/auth/reset-password/Zx81kLm?callbackURL=%2Freset-password", "/api/auth/reset-password/[redacted]?callbackURL=%2Freset-password"],
  ["/reset-password?token=Zx81kLm", "/reset-password?token=[redacted]"],
  ["/reset-password?error=INVALID_TOKEN", "/reset-password?error=INVALID_TOKEN"],
  ["/search?q=token&TOKEN=abc", "/search?q=token&TOKEN=[redacted]"],
  ["/story/goat-mayor", "/story/goat-mayor"],
])("the request log keeps %s as %s", (url, logged) => {
  expect(urlForLog(url)).toBe(logged);
});

// A real server that logs its requests as the web app does; the request log reads a clock the test
// moves, so an answer is "slow" without the test waiting a second. Each path answers with the status
// it names, after the milliseconds given in ?ms (of the test's clock).
type Line = { level: number; msg: string; req: { url: string }; res: { statusCode: number }; responseTime: number };
const { logger, lines } = capturedLog<Line>();
let now = 0;
const clock = () => now;
let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    logRequest(logger, req, res, clock);
    const url = new URL(req.url ?? "/", "http://test");
    now += Number(url.searchParams.get("ms") ?? 0);
    const status = Number(/\/(\d{3})$/.exec(url.pathname)?.[1] ?? 200);
    res.writeHead(status, { "content-type": "text/plain" }).end("answer");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/**
 * The request log's line for one request to `path` (undefined when it wrote none). A second request
 * on the same connection follows it: once that one's line is written, the first one's is too.
 */
async function lineFor(path: string): Promise<{ level: string; msg: string; status: number } | undefined> {
  const before = lines.length;
  await (await fetch(`${base}${path}`)).text();
  await (await fetch(`${base}/after`)).text();
  await expect.poll(() => lines.slice(before).some((l) => l.req.url === "/after")).toBe(true);
  const line = lines.slice(before).find((l) => l.req.url === path);
  return line && { level: pino.levels.labels[line.level]!, msg: line.msg, status: line.res.statusCode };
}

test.each([
  ["/story/goat-mayor", "debug", "request completed"],
  ["/admin/stories.data?status=pending", "debug", "request completed"],
  ["/admin/stories/304", "debug", "request completed"],
  ["/wp-login.php/404", "debug", "request completed"],
  ["/admin/401", "debug", "request completed"],
  ["/api/auth/sign-in/email/429", "debug", "request completed"],
  ["/story/goat-mayor/500", "error", "request failed"],
  ["/healthz/503", "error", "request failed"],
  [`/search?q=goat&ms=${SLOW_REQUEST_MS}`, "debug", "request completed"],
  [`/search?q=llama&ms=${SLOW_REQUEST_MS + 1}`, "warn", "slow request"],
  [`/admin/404?ms=${SLOW_REQUEST_MS * 3}`, "warn", "slow request"],
  [`/admin/500?ms=${SLOW_REQUEST_MS * 3}`, "error", "request failed"],
])("a request to %s is logged at %s as %s", async (path, level, msg) => {
  expect(await lineFor(path)).toEqual({ level, msg, status: Number(/\/(\d{3})(?:\?|$)/.exec(path)?.[1] ?? 200) });
});

test("a story picture is logged only when it fails or is slow", async () => {
  expect(await lineFor("/img/12/w800-abc.webp")).toBeUndefined();
  expect(await lineFor("/img/12/missing/404")).toBeUndefined();
  expect(await lineFor("/img/12/broken/502")).toMatchObject({ level: "error" });
  expect(await lineFor(`/img/12/w1600-abc.webp?ms=${SLOW_REQUEST_MS * 2}`)).toMatchObject({ level: "warn" });
});
