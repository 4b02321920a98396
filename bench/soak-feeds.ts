// The feed server of `npm run soak`: RSS feeds on 127.0.0.1 that change while the soak runs. Every
// period each feed gains an item and its oldest one drops off, as a busy news feed does; each version
// has its own ETag, answered 304 when it has not changed. It remembers every item it ever served, so
// the soak can check that each one became exactly one story.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { sql } from "drizzle-orm";
import type { Db } from "~/db/client";
import { escapeXml } from "~/lib/xml";
import { systemClock, type Clock } from "~/lib/clock";

export const SOAK_TITLE_PREFIX = "Soak feed ";
const WORDS = ["goat", "llama", "mayor", "bakery", "meteorite", "pigeon", "council", "choir", "yeti", "walrus", "parrot", "pizza", "tractor", "ghost"];

export type SoakItem = { title: string; link: string; guid: string; pubDate: string };

/** Feed `feed`'s items at `version`: the newest `window` of items 0..version-1, newest first. */
export function soakItems(feed: number, version: number, window: number, epoch: number, periodMs: number): SoakItem[] {
  const items: SoakItem[] = [];
  for (let k = version - 1; k >= Math.max(0, version - window); k--) {
    const w = (n: number) => WORDS[(feed * 5 + k * 3 + n) % WORDS.length];
    items.push({
      title: `${SOAK_TITLE_PREFIX}${feed} item ${k}: a ${w(0)} meets a ${w(1)}`,
      // The feed's link carries a tracking parameter; the guid is the clean address.
      link: `https://soak-${feed}.example/items/${k}?utm_source=rss`,
      guid: `https://soak-${feed}.example/items/${k}`,
      pubDate: new Date(epoch + k * periodMs).toUTCString(),
    });
  }
  return items;
}

function rss(feed: number, items: SoakItem[]): string {
  const body = items
    .map(
      (item) =>
        `<item><title>${escapeXml(item.title)}</title><link>${escapeXml(item.link)}</link><guid>${escapeXml(item.guid)}</guid>` +
        `<pubDate>${item.pubDate}</pubDate><description>${escapeXml(item.title)}, witnesses say.</description></item>`,
    )
    .join("\n");
  return `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>Soak feed ${feed}</title><link>https://soak-${feed}.example/</link><description>Feed ${feed}</description>\n${body}\n</channel></rss>`;
}

export type SoakFeeds = {
  /** The feeds' base URL: `${url}/feed/N.xml`. */
  url: string;
  feedUrl(feed: number): string;
  /** Titles of every item served in a 200 answer so far. */
  served(): Set<string>;
  /** The current version of a feed (items 0..version-1 have existed). */
  version(feed: number): number;
  /** Stops the feeds changing: from now on each answers its last version. */
  freeze(): void;
  close(): Promise<void>;
};

export async function startSoakFeeds(options: {
  feeds: number;
  /** A new item per feed this often; feeds are staggered across the period. */
  periodMs: number;
  /** Items each version lists. */
  window?: number;
  /** Items each feed has at the start. */
  initial?: number;
  now?: Clock;
}): Promise<SoakFeeds> {
  const now = options.now ?? systemClock;
  const window = options.window ?? 20;
  const initial = options.initial ?? 10;
  const epoch = now();
  let frozenAt: number | null = null;
  const served = new Set<string>();
  const version = (feed: number) => {
    const t = (frozenAt ?? now()) - epoch + (feed * options.periodMs) / Math.max(1, options.feeds);
    return initial + Math.floor(t / options.periodMs);
  };

  const server = createServer((req, res) => {
    const match = /^\/feed\/(\d+)\.xml$/.exec(req.url ?? "");
    const feed = match ? Number(match[1]) : -1;
    if (feed < 0 || feed >= options.feeds) return res.writeHead(404).end();
    const v = version(feed);
    const etag = `"soak-${feed}-${v}"`;
    if (req.headers["if-none-match"] === etag) return res.writeHead(304, { etag }).end();
    const items = soakItems(feed, v, window, epoch, options.periodMs);
    for (const item of items) served.add(item.title);
    const body = Buffer.from(rss(feed, items));
    res.writeHead(200, { "content-type": "application/rss+xml; charset=utf-8", etag, "content-length": body.length }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    feedUrl: (feed) => `${url}/feed/${feed}.xml`,
    served: () => new Set(served),
    version,
    freeze: () => {
      frozenAt ??= now();
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type IngestedCheck = { expected: number; stored: number; lost: string[]; duplicated: { title: string; copies: number }[] };

/** Which served items are not stories (lost) and which are stored more than once (duplicated). */
export async function checkIngested(db: Db, served: Set<string>): Promise<IngestedCheck> {
  const result = (await db.execute(
    sql`SELECT title, count(*)::int AS copies FROM stories WHERE title LIKE ${`${SOAK_TITLE_PREFIX}%`} GROUP BY title`,
  )) as unknown as { rows: { title: string; copies: number }[] };
  const copies = new Map(result.rows.map((row) => [row.title, Number(row.copies)]));
  return {
    expected: served.size,
    stored: [...copies.values()].reduce((a, b) => a + b, 0),
    lost: [...served].filter((title) => !copies.has(title)).sort(),
    duplicated: [...copies].filter(([, n]) => n > 1).map(([title, n]) => ({ title, copies: n })),
  };
}
