// Worker thread of server/processes/feed-parser-pool.ts: parses the feeds and sitemaps posted to it, one at a
// time. Plain JavaScript so that it starts the same way under the CLI, the tests and the benchmarks:
// it registers tsx itself.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parentPort, workerData } from "node:worker_threads";
import { register } from "tsx/esm/api";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
register({ tsconfig: path.join(root, "tsconfig.json") });
const { parseFeed: ourParseFeed, FeedParseError } = await import(path.join(root, "domain/ingestion/feed/parse-feed.ts"));
const { parseSitemap, SitemapError } = await import(path.join(root, "integrations/crawl/sitemap.ts"));
// Tests swap in a parser of their own (one that never finishes, say) to exercise the time limit.
const parseFeed = workerData?.parserModule ? (await import(workerData.parserModule)).parseFeed : ourParseFeed;

const URLS_PER_MESSAGE = 2_000;

parentPort.postMessage({ ready: true });
parentPort.on("message", async ({ id, task, input }) => {
  try {
    if (task === "sitemap") {
      const result = await parseSitemap(input.bytes, input.options);
      // 50,000 URLs read back at once would hold the main thread for a while: they go in parts.
      const last = Math.max(0, result.urls.length - URLS_PER_MESSAGE);
      for (let start = 0; start < last; start += URLS_PER_MESSAGE) {
        parentPort.postMessage({ id, urls: result.urls.slice(start, Math.min(start + URLS_PER_MESSAGE, last)) });
      }
      parentPort.postMessage({ id, result: { ...result, urls: result.urls.slice(last) } });
    } else {
      parentPort.postMessage({ id, result: parseFeed(input) });
    }
  } catch (error) {
    const kind = error instanceof FeedParseError ? "feed" : error instanceof SitemapError ? "sitemap" : null;
    parentPort.postMessage({ id, error: { code: kind ? error.code : "FAILED", message: String(error?.message ?? error), kind } });
  }
});
