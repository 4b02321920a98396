#!/usr/bin/env -S node --max-semi-space-size=2
// The oddwire command. Every command runs the server's code bundled into plain JavaScript, made
// afresh whenever a source changes (decision 018), so it works right after `npm install` and starts
// without compiling TypeScript; each command loads only the code it runs.
// Node runs it with a young generation of 2 MiB semi-spaces rather than V8's 16: a server at rest then
// holds about 30 MiB less, for a little more frequent, shorter collections (docs/benchmarks.md,
// "One engine"). `npm start` and `npx oddwire` run this file, and so its first line; the web
// processes a server forks take the same flag (server/processes/web-cluster.ts).
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const { bundledEntry, ensureServerBundle } = await import("../server/processes/bundle.mjs");
if (process.argv[2] === "serve") {
  // The server runs the production build: React must load in production mode, before anything imports it.
  process.env.NODE_ENV = "production";
}
let main;
try {
  await ensureServerBundle();
  // The cluster's web processes (server/processes/web-process.mjs) run the same bundle.
  process.env.ODDWIRE_SERVER_BUNDLE = "1";
  ({ main } = await import(pathToFileURL(bundledEntry("cli")).href));
} catch (error) {
  console.error(`The server could not be bundled, so it runs from its TypeScript sources: ${error instanceof Error ? error.message : error}`);
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
  const { register } = await import("tsx/esm/api");
  register({ tsconfig: path.join(root, "tsconfig.json") });
  ({ main } = await import(pathToFileURL(path.join(root, "server/cli/cli.ts")).href));
}
process.exitCode = await main(process.argv.slice(2));
