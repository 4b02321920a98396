// Worker thread of server/feed-parser-pool.ts: parses the feeds and sitemaps posted to it, one at a
// time. Plain JavaScript so that it starts the same way under the CLI, the tests and the benchmarks:
// it registers tsx itself.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parentPort, workerData } from "node:worker_threads";
import { register } from "tsx/esm/api";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
register({ tsconfig: path.join(root, "tsconfig.json") });
const { parseFeed: ourParseFeed, FeedParseError } = await import(path.join(root, "domain/ingestion/feed/parse-feed.ts"));
const { parseSitemap, SitemapError } = await import(path.join(root, "integrations/crawl/sitemap.ts"));
// Tests swap in a parser of their own (one that never finishes, say) to exercise the time limit.
const parseFeed = workerData?.parserModule ? (await import(workerData.parserModule)).parseFeed : ourParseFeed;

parentPort.postMessage({ ready: true });
parentPort.on("message", async ({ id, task, input }) => {
  try {
    const result = task === "sitemap" ? await parseSitemap(input.bytes, input.options) : parseFeed(input);
    parentPort.postMessage({ id, result });
  } catch (error) {
    const kind = error instanceof FeedParseError ? "feed" : error instanceof SitemapError ? "sitemap" : null;
    parentPort.postMessage({ id, error: { code: kind ? error.code : "FAILED", message: String(error?.message ?? error), kind } });
  }
});
