import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The project's directory (the one holding its package.json), found from where this code runs: the
 * TypeScript sources, or the server bundle in build/node (decision 018), so that paths to the build,
 * public/, the migrations and the worker scripts are the same from both.
 */
export const PROJECT_ROOT = findProjectRoot(path.dirname(fileURLToPath(import.meta.url)));

function findProjectRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const manifest = path.join(dir, "package.json");
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, "utf8")) as { name?: string }).name === "oddwire") return dir;
    if (path.dirname(dir) === dir) throw new Error(`No oddwire package.json above ${from}`);
  }
}
