#!/usr/bin/env node
// The oddwire command. Runs the TypeScript sources directly, so it works right after `npm install`;
// `serve` runs them bundled into plain JavaScript, made afresh whenever a source changes (decision 018).
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
let main;
if (process.argv[2] === "serve") {
  // The server runs the production build: React must load in production mode, before anything imports it.
  process.env.NODE_ENV = "production";
  const { bundledEntry, ensureServerBundle } = await import("../server/bundle.mjs");
  try {
    await ensureServerBundle();
    // The cluster's web processes (server/web-process.mjs) run the same bundle.
    process.env.ODDWIRE_SERVER_BUNDLE = "1";
    ({ main } = await import(pathToFileURL(bundledEntry("cli")).href));
  } catch (error) {
    console.error(`The server could not be bundled, so it runs from its TypeScript sources: ${error instanceof Error ? error.message : error}`);
  }
}
if (!main) {
  const { register } = await import("tsx/esm/api");
  register({ tsconfig: path.join(root, "tsconfig.json") });
  ({ main } = await import(path.join(root, "server/cli.ts")));
}
process.exitCode = await main(process.argv.slice(2));
