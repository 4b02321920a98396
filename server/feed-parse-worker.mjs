// Worker thread of server/feed-parser-pool.ts: parses feeds posted to it. Plain JavaScript so that it
// starts the same way under the CLI, the tests and the benchmarks: it registers tsx itself.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parentPort, workerData } from "node:worker_threads";
import { register } from "tsx/esm/api";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
register({ tsconfig: path.join(root, "tsconfig.json") });
const { parseFeed: ourParseFeed, FeedParseError } = await import(path.join(root, "domain/ingestion/feed/parse-feed.ts"));
// Tests swap in a parser of their own (one that never finishes, say) to exercise the time limit.
const parseFeed = workerData?.parserModule ? (await import(workerData.parserModule)).parseFeed : ourParseFeed;

parentPort.postMessage({ ready: true });
parentPort.on("message", ({ id, input }) => {
  try {
    parentPort.postMessage({ id, feed: parseFeed(input) });
  } catch (error) {
    const parseError = error instanceof FeedParseError;
    parentPort.postMessage({ id, error: { code: parseError ? error.code : "FAILED", message: String(error?.message ?? error), parseError } });
  }
});
