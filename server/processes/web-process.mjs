// A web process forked by the cluster primary (server/processes/web-cluster.ts): runs the code the primary
// runs (the server bundle, or the TypeScript sources as bin/oddwire.mjs does), then serves the site
// with the configuration the primary sends.
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

process.env.NODE_ENV = "production";
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
let runWebProcess;
if (process.env.ODDWIRE_SERVER_BUNDLE === "1") {
  const { bundledEntry } = await import("./bundle.mjs");
  ({ runWebProcess } = await import(pathToFileURL(bundledEntry("web-process")).href));
} else {
  const { register } = await import("tsx/esm/api");
  register({ tsconfig: path.join(root, "tsconfig.json") });
  ({ runWebProcess } = await import(path.join(root, "server/processes/web-process.ts")));
}
await runWebProcess();
