import { createHash } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { BODY_LIMITS, bodyLimitFor, bufferedBody, formatBytes, readRequestBody } from "./body-limit";
import { OPML_MAX_BYTES } from "~/domain/sources/opml";

// A real server with small limits, whose handler answers what it received.
let server: Server;
let base: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    void readRequestBody(req, res, { limits: { auth: 1024, admin: 8 * 1024, other: 512 } }).then((read) => {
      if (!read) return;
      const body = bufferedBody(req) ?? Buffer.alloc(0);
      res.setHeader("Content-Type", "application/json");
      res.end(JSON.stringify({ bytes: body.length, sha1: createHash("sha1").update(body).digest("hex") }));
    });
  }).listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const sha1 = (bytes: Uint8Array) => createHash("sha1").update(bytes).digest("hex");

function chunked(parts: Uint8Array[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    pull(controller) {
      const next = parts.shift();
      if (next) controller.enqueue(next);
      else controller.close();
    },
  });
}

describe("request body limits", () => {
  test("each address has its limit: auth, the back office (an OPML file at the import's own limit fits), the rest", () => {
    expect(bodyLimitFor("/api/auth/sign-in/email")).toBe(64 * 1024);
    expect(bodyLimitFor("/admin/sources.data")).toBe(BODY_LIMITS.admin);
    expect(bodyLimitFor("/admin")).toBe(BODY_LIMITS.admin);
    expect(bodyLimitFor("/search")).toBe(64 * 1024);
    expect(bodyLimitFor("/administrator")).toBe(64 * 1024);
    expect(BODY_LIMITS.admin).toBeGreaterThan(OPML_MAX_BYTES);
    expect(BODY_LIMITS.admin).toBeLessThanOrEqual(2.5 * 1024 * 1024);
    expect([formatBytes(64 * 1024), formatBytes(BODY_LIMITS.admin), formatBytes(2 * 1024 * 1024)]).toEqual(["64 KB", "2.3 MB", "2 MB"]);
  });

  test("a body within the limit reaches the handler byte for byte, whether its length is declared or it comes in chunks", async () => {
    const body = new Uint8Array(8 * 1024).map((_, i) => (i * 7) % 256);
    const declared = await fetch(`${base}/admin/x`, { method: "POST", headers: { "content-type": "application/octet-stream" }, body });
    expect(await declared.json()).toEqual({ bytes: body.length, sha1: sha1(body) });
    const streamed = await fetch(`${base}/admin/x`, {
      method: "POST",
      headers: { "content-type": "application/octet-stream" },
      body: chunked([body.slice(0, 1000), body.slice(1000, 5000), body.slice(5000)]),
      duplex: "half",
    } as RequestInit);
    expect(await streamed.json()).toEqual({ bytes: body.length, sha1: sha1(body) });
  });

  test("a body past its address's limit is answered 413 with the limit, declared or streamed", async () => {
    const declared = await fetch(`${base}/api/auth/sign-in/email`, { method: "POST", headers: { "content-type": "application/json" }, body: "x".repeat(1025) });
    expect(declared.status).toBe(413);
    expect(await declared.json()).toEqual({
      message: "The request is too large: this address accepts at most 1 KB.",
      error: "The request is too large: this address accepts at most 1 KB.",
      code: "BODY_TOO_LARGE",
    });
    const streamed = await fetch(`${base}/anything`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: chunked([new Uint8Array(400), new Uint8Array(400)]),
      duplex: "half",
    } as RequestInit);
    expect(streamed.status).toBe(413);
  });

  test("requests without a body pass untouched", async () => {
    expect(await (await fetch(`${base}/search?q=x`)).json()).toEqual({ bytes: 0, sha1: sha1(new Uint8Array(0)) });
  });
});
