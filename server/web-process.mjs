// A web process forked by the cluster primary (server/web-cluster.ts): runs the TypeScript sources
// as bin/oddwire.mjs does, then serves the site with the configuration the primary sends.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { register } from "tsx/esm/api";

process.env.NODE_ENV = "production";
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
register({ tsconfig: path.join(root, "tsconfig.json") });
const { runWebProcess } = await import(path.join(root, "server/web-process.ts"));
await runWebProcess();
