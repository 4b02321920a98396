import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { PROJECT_ROOT } from "~/lib/project-root";

/**
 * What starts a process, for a test: a test file that imports one of these is in the "processes"
 * project (vitest.config.ts) and is named *.process.test.ts; every other test runs in the test process.
 */
const PROCESS_STARTERS: Record<string, string> = {
  "node:child_process": "child processes",
  "node:cluster": "forked processes",
  "test/cli-harness": "the CLI harness (each command starts an embedded PostgreSQL server)",
  "test/web-processes": "the server's web processes",
  "test/oddwire-process": "bin/oddwire.mjs in a process of its own",
  "db/embedded/server": "startEmbeddedServer (a PostgreSQL server)",
  "db/embedded/testing/helpers": "embedded PostgreSQL servers and their child processes",
  "db/embedded/carry-over": "the earlier release's reader, a child process",
  "server/database": "the embedded PostgreSQL server, when no DATABASE_URL is given",
  "server/cli/cli": "the CLI's commands (each starts an embedded PostgreSQL server)",
  "server/processes/serve": "the serve command's processes",
  "server/processes/web-cluster": "the web processes",
  "integrations/browser/render-page": "headless Chromium",
};

const PROCESS_TEST = /\.process\.test\.tsx?$/;
const TEST_FILE = /\.test\.tsx?$/;
const TEST_DIRS = ["app", "bench", "domain", "db", "jobs", "integrations", "lib", "server", "test"];

/** The module each import of `source` (at `file`, relative to the project) names: a node: name, or a project path without its extension. */
function importedModules(file: string, source: string): string[] {
  const specifiers = new Set([
    // import ... from "x", import "x", export ... from "x"; not `import type`, which starts nothing.
    ...[...source.matchAll(/^\s*(?:import(?!\s+type\b)|export\s*[*{])[^"'`;]*?["']([^"']+)["']/gm)].map((m) => m[1]!),
    // import("x"), require("x")
    ...[...source.matchAll(/\b(?:import|require)\(\s*["']([^"']+)["']/g)].map((m) => m[1]!),
  ]);
  return [...specifiers].map((specifier) => {
    if (specifier.startsWith("~/")) return withoutExtension(specifier.slice(2));
    if (specifier.startsWith(".")) return withoutExtension(path.posix.join(path.posix.dirname(file), specifier));
    if (["child_process", "cluster"].includes(specifier)) return `node:${specifier}`;
    return specifier;
  });
}

const withoutExtension = (modulePath: string) => modulePath.replace(/\.(ts|tsx|mjs|js)$/, "");

/** Why `file` belongs in the processes project, if it does: each process starter it imports. */
function processStartersIn(file: string, source: string): string[] {
  return importedModules(file, source)
    .filter((name) => name in PROCESS_STARTERS)
    .map((name) => `${name} (${PROCESS_STARTERS[name]})`);
}

function testFiles(): string[] {
  return TEST_DIRS.flatMap((dir) =>
    readdirSync(path.join(PROJECT_ROOT, dir), { recursive: true, encoding: "utf8" })
      .filter((name) => TEST_FILE.test(name) && !name.split(path.sep).includes("node_modules"))
      .map((name) => path.posix.join(dir, name.split(path.sep).join("/"))),
  );
}

describe("the two test projects", () => {
  test.each([
    ["server/a.test.ts", 'import { spawn } from "node:child_process";', ["node:child_process"]],
    ["server/a.test.ts", 'import { spawnSync } from "child_process";', ["node:child_process"]],
    ["server/cli/a.test.ts", 'import { runCli } from "~/test/cli-harness";', ["test/cli-harness"]],
    ["db/embedded/a.test.ts", 'import { startEmbeddedServer } from "./server";', ["db/embedded/server"]],
    ["db/embedded/a.test.ts", 'import {\n  Scratch,\n  startChild,\n} from "./testing/helpers";', ["db/embedded/testing/helpers"]],
    ["domain/crawl/a.test.ts", 'import { chromiumPath } from "../../integrations/browser/render-page.ts";', ["integrations/browser/render-page"]],
    ["server/a.test.ts", 'const { startWebProcesses } = await import("~/test/web-processes");', ["test/web-processes"]],
    ["domain/crawl/a.test.ts", 'import type { PageRenderer } from "~/integrations/browser/render-page";', []],
    ["lib/a.test.ts", 'import { slugify } from "./slug";\nimport { expect } from "vitest";', []],
  ])("%s importing %j starts processes through %j", (file, source, expected) => {
    expect(processStartersIn(file, source).map((why) => why.split(" ")[0])).toEqual(expected);
  });

  test("a test file that starts processes is named *.process.test.ts, and no other test file imports what starts them", () => {
    const files = testFiles();
    expect(files.filter((file) => PROCESS_TEST.test(file)).length).toBeGreaterThan(20);
    const misplaced = files
      // This file's own table names them in strings.
      .filter((file) => !PROCESS_TEST.test(file) && file !== "test/test-projects.test.ts")
      .flatMap((file) => processStartersIn(file, readFileSync(path.join(PROJECT_ROOT, file), "utf8")).map((why) => `${file} imports ${why}`));
    expect(misplaced, "rename these to *.process.test.ts (git mv), or start nothing in them").toEqual([]);
  });
});
