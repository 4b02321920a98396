// Preloaded into `serve` by a test (node --import): keeps the embedded database's worker thread and
// ends it on SIGUSR2, as if it had died, so that the test can watch what the server does about it.
import { createRequire, syncBuiltinESMExports } from "node:module";

const workerThreads = createRequire(import.meta.url)("node:worker_threads");
const Original = workerThreads.Worker;
const databaseThreads = [];
workerThreads.Worker = class extends Original {
  constructor(url, options) {
    super(url, options);
    if (String(url).endsWith("pglite-thread-worker.mjs")) databaseThreads.push(this);
  }
};
syncBuiltinESMExports();
process.on("SIGUSR2", () => {
  for (const thread of databaseThreads) void thread.terminate();
});
