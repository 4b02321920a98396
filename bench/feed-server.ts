// The feed server of `npm run bench:ingest`: N feeds of M items on 127.0.0.1, each with an ETag, answering
// 304 to a matching If-None-Match. Runs in its own process so the measured process only ingests.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

const FEEDS = Number(process.env.BENCH_FEEDS ?? 1000);
const ITEMS = Number(process.env.BENCH_ITEMS ?? 50);
const WORDS = ["goat", "llama", "mayor", "bakery", "meteorite", "pigeon", "council", "choir", "yeti", "walrus", "parrot", "pizza"];

function feed(n: number): string {
  const items: string[] = [];
  for (let i = 0; i < ITEMS; i++) {
    const w = (k: number) => WORDS[(n * 7 + i * 3 + k) % WORDS.length];
    const title = `${w(0)} ${w(1)} ${w(2)} story ${n}-${i}`;
    items.push(`<item><title>${title}</title><link>https://feed-${n}.example/stories/${i}?utm_source=rss</link>
<guid>https://feed-${n}.example/stories/${i}</guid><pubDate>Sun, 01 Mar 2026 ${String(i % 24).padStart(2, "0")}:00:00 GMT</pubDate>
<description>A ${w(3)} and a ${w(4)} met a ${w(5)} in town ${n}. Nobody expected item ${i}.</description>
<content:encoded><![CDATA[<p>A <b>${w(3)}</b> and a ${w(4)} met a ${w(5)} in town ${n}.</p><p>${"More words about it. ".repeat(20)}</p><img src="https://feed-${n}.example/img/${i}.jpg">]]></content:encoded></item>`);
  }
  return `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/"><channel>
<title>Bench feed ${n}</title><link>https://feed-${n}.example/</link><description>Feed ${n}</description>${items.join("\n")}</channel></rss>`;
}

const cache = new Map<number, Buffer>();
const server = createServer((req, res) => {
  const match = /^\/feed\/(\d+)\.xml$/.exec(req.url ?? "");
  const n = match ? Number(match[1]) : -1;
  if (n < 0 || n >= FEEDS) return res.writeHead(404).end();
  const etag = `"feed-${n}-v1"`;
  if (req.headers["if-none-match"] === etag) return res.writeHead(304, { etag }).end();
  let body = cache.get(n);
  if (!body) cache.set(n, (body = Buffer.from(feed(n))));
  res.writeHead(200, { "content-type": "application/rss+xml; charset=utf-8", etag, "content-length": body.length }).end(body);
});
server.keepAliveTimeout = 30_000;
server.listen(0, "127.0.0.1", () => {
  process.stdout.write(`${JSON.stringify({ port: (server.address() as AddressInfo).port })}\n`);
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
