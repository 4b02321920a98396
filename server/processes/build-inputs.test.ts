import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "vitest";
import { PROJECT_ROOT } from "~/lib/project-root";
import { WEB_BUILD_INPUTS } from "~/scripts/build-inputs.mjs";

/** Every .ts/.tsx file under a directory that the build can reach: not tests and their helpers. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "+types" || entry.name === "testing" ? [] : sources(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) && entry.name !== "testing.ts" ? [full] : [];
  });
}

test("the web build is made again when any directory the app's code imports from changes", () => {
  // The app's own imports, and those of the directories it imports, one level on (the domain imports lib/...).
  const imported = new Set<string>(["app"]);
  for (let round = 0; round < 3; round++) {
    for (const dir of [...imported]) {
      for (const file of sources(path.join(PROJECT_ROOT, dir))) {
        for (const match of readFileSync(file, "utf8").matchAll(/from "~\/([a-z-]+)\//g)) imported.add(match[1]!);
      }
    }
  }
  expect([...imported].filter((dir) => !WEB_BUILD_INPUTS.includes(dir))).toEqual([]);
});
