// The site `npm run bench:crawl` discovers, in its own process: robots.txt, a sitemap index of
// BENCH_SITEMAPS sitemaps (every other one gzipped) listing BENCH_URLS article URLs in all, and
// GET /__hits, the arrival time (ms, this process's clock) of every other request, for the gaps.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";

const URLS = Number(process.env.BENCH_URLS ?? 20_000);
const SITEMAPS = Number(process.env.BENCH_SITEMAPS ?? 4);
const perSitemap = Math.ceil(URLS / SITEMAPS);
const hits: { path: string; at: number }[] = [];

const sitemap = (base: string, index: number): Buffer => {
  const first = index * perSitemap;
  const count = Math.max(0, Math.min(perSitemap, URLS - first));
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${Array.from(
    { length: count },
    (_, k) => `<url><loc>${base}/news/${first + k}/an-odd-story-number-${first + k}</loc><lastmod>2026-11-${String(1 + ((first + k) % 28)).padStart(2, "0")}T08:00:00Z</lastmod></url>`,
  ).join("\n")}\n</urlset>\n`;
  return index % 2 === 1 ? gzipSync(body) : Buffer.from(body);
};

const server = createServer((req, res) => {
  const path = new URL(req.url ?? "/", "http://bench").pathname;
  if (path === "/__hits") return res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(hits));
  hits.push({ path, at: performance.now() });
  const base = `http://${req.headers.host}`;
  if (path === "/robots.txt") return res.writeHead(200, { "content-type": "text/plain" }).end(`User-agent: *\nDisallow: /private/\nSitemap: ${base}/sitemap_index.xml\n`);
  if (path === "/sitemap_index.xml") {
    const entries = Array.from({ length: SITEMAPS }, (_, i) => `<sitemap><loc>${base}/sitemaps/${i}.xml${i % 2 === 1 ? ".gz" : ""}</loc></sitemap>`);
    return res
      .writeHead(200, { "content-type": "application/xml" })
      .end(`<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${entries.join("")}</sitemapindex>`);
  }
  const match = /^\/sitemaps\/(\d+)\.xml(\.gz)?$/.exec(path);
  if (match) return res.writeHead(200, { "content-type": match[2] ? "application/x-gzip" : "application/xml" }).end(sitemap(base, Number(match[1])));
  res.writeHead(404).end();
});
server.listen(0, "127.0.0.1", () => process.stdout.write(`${JSON.stringify({ port: (server.address() as AddressInfo).port })}\n`));
process.on("SIGTERM", () => server.close(() => process.exit(0)));
