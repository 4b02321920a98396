import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer, get, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, expect, test } from "vitest";
import { ASSET_CACHE_CONTROL, loadStaticAssets } from "./static-assets";
import { tempDir } from "~/test/temp-dir";

let dir: string;
let server: Server;
let base: string;
let fallthrough = 0;
const script = `export const goat = ${JSON.stringify("A goat was elected mayor. ".repeat(200))};\n`;

beforeAll(async () => {
  dir = tempDir("oddwire-assets-");
  mkdirSync(path.join(dir, "assets"));
  writeFileSync(path.join(dir, "assets", "app-abc123.js"), script);
  writeFileSync(path.join(dir, "assets", "font-def456.woff2"), Buffer.from([0x77, 0x4f, 0x46, 0x32, 1, 2, 3]));
  // The build step itself, as `npm run build` runs it.
  const run = spawnSync(process.execPath, [path.resolve("scripts/precompress.mjs"), dir], { encoding: "utf8" });
  expect(run.status).toBe(0);
  const assets = loadStaticAssets(path.join(dir, "assets"));
  server = createServer((req, res) => {
    if (assets.serve(req, res)) return;
    fallthrough++;
    res.statusCode = 404;
    res.end("not an asset");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

const raw = (pathname: string, headers: Record<string, string> = {}) =>
  new Promise<{ res: IncomingMessage; body: Buffer }>((resolve, reject) => {
    get(`${base}${pathname}`, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ res, body: Buffer.concat(chunks) }));
    }).on("error", reject);
  });

test("the build writes br and gz beside each compressible asset, and they are served by the encoding asked, immutable", async () => {
  const br = await raw("/assets/app-abc123.js", { "accept-encoding": "gzip, br" });
  expect(br.res.headers).toMatchObject({ "content-encoding": "br", "cache-control": ASSET_CACHE_CONTROL, "content-type": "text/javascript; charset=utf-8", vary: "Accept-Encoding" });
  expect(brotliDecompressSync(br.body).toString()).toBe(script);
  const gz = await raw("/assets/app-abc123.js", { "accept-encoding": "gzip" });
  expect(gunzipSync(gz.body).toString()).toBe(script);
  const plain = await raw("/assets/app-abc123.js");
  expect(plain.res.headers["content-encoding"]).toBeUndefined();
  expect(plain.body.toString()).toBe(script);
  // An already compressed font is sent as it is.
  const font = await raw("/assets/font-def456.woff2", { "accept-encoding": "br" });
  expect(font.res.headers["content-encoding"]).toBeUndefined();
  expect(font.res.headers["content-type"]).toBe("font/woff2");
});

test("answers If-None-Match with 304, and leaves unknown paths to the rest of the server", async () => {
  const first = await raw("/assets/app-abc123.js");
  const again = await raw("/assets/app-abc123.js", { "if-none-match": String(first.res.headers.etag) });
  expect(again.res.statusCode).toBe(304);
  expect(again.body.length).toBe(0);
  const before = fallthrough;
  expect((await raw("/assets/missing.js")).res.statusCode).toBe(404);
  expect((await raw("/assets/app-abc123.js.br")).res.statusCode).toBe(404);
  expect(fallthrough).toBe(before + 2);
});
