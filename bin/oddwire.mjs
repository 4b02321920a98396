#!/usr/bin/env node
// The oddwire command. Runs the TypeScript sources directly, so it works right after `npm install`.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { register } from "tsx/esm/api";

// The server runs the production build: React must load in production mode, before anything imports it.
if (process.argv[2] === "serve") process.env.NODE_ENV = "production";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
register({ tsconfig: path.join(root, "tsconfig.json") });
const { main } = await import(path.join(root, "server/cli.ts"));
process.exitCode = await main(process.argv.slice(2));
