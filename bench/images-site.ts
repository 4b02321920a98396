// The site bench/images-enhance.ts enhances: article pages with an og:image, a WordPress-style resized
// picture and a logo; thumbnails; and GET /__hits, how many requests it has answered.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import sharp from "sharp";

const jpeg = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: "#884422" } }).jpeg().toBuffer();
const [og, resized, original, thumb, logo] = await Promise.all([jpeg(1600, 900), jpeg(300, 200), jpeg(2000, 1333), jpeg(150, 100), jpeg(120, 40)]);
let hits = 0;

const server = createServer((req, res) => {
  const path = new URL(req.url ?? "/", "http://bench").pathname;
  if (path === "/__hits") return res.writeHead(200, { "content-type": "text/plain" }).end(String(hits));
  hits += 1;
  const base = `http://${req.headers.host}`;
  const image = (bytes: Buffer) => res.writeHead(200, { "content-type": "image/jpeg", "content-length": String(bytes.length) }).end(bytes);
  let match = /^\/article\/(\d+)$/.exec(path);
  if (match) {
    const n = match[1];
    return res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(`<!doctype html><html><head><title>Story ${n}</title>
<meta property="og:image" content="${base}/og/${n}.jpg"><link rel="icon" href="/favicon.ico"></head>
<body><header><img src="${base}/logo.jpg" alt="logo"></header><article><h1>Story ${n}</h1>
<p>${"An odd thing happened. ".repeat(40)}</p><img src="${base}/uploads/photo-${n}-300x200.jpg" width="300" height="200"></article></body></html>`);
  }
  if (/^\/og\/\d+\.jpg$/.test(path)) return image(og);
  if (/^\/thumb\/\d+\.jpg$/.test(path)) return image(thumb);
  if (path === "/logo.jpg") return image(logo);
  match = /^\/uploads\/photo-\d+(-300x200)?\.jpg$/.exec(path);
  if (match) return image(match[1] ? resized : original);
  res.writeHead(404).end();
});
server.listen(0, "127.0.0.1", () => process.stdout.write(`${JSON.stringify({ port: (server.address() as AddressInfo).port })}\n`));
process.on("SIGTERM", () => server.close(() => process.exit(0)));
