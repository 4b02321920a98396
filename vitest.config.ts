import { fileURLToPath } from "node:url";
import { configDefaults, defineConfig } from "vitest/config";

const TESTS = "{app,bench,domain,db,jobs,integrations,lib,server,test}/**/*.test.{ts,tsx}";
// A test that starts processes (node:child_process, the CLI harness, the web processes, an embedded
// PostgreSQL server, Chromium) is named *.process.test.ts; test/test-projects.test.ts fails when
// another test file imports what starts them.
const PROCESS_TESTS = "{app,bench,domain,db,jobs,integrations,lib,server,test}/**/*.process.test.{ts,tsx}";

export default defineConfig({
  resolve: { alias: { "~": fileURLToPath(new URL(".", import.meta.url)) } },
  test: {
    // Run once per run, for the root project, whichever projects are chosen (see the file).
    globalSetup: ["./test/global-setup.ts"],
    setupFiles: ["./test/setup.ts"],
    pool: "forks",
    // For the whole run: the projects share the workers.
    maxWorkers: 2,
    testTimeout: 20_000,
    hookTimeout: 60_000,
    projects: [
      // `npm run test:quick`: tests that run in the test process (on the test database too).
      { extends: true, test: { name: "in-process", include: [TESTS], exclude: [...configDefaults.exclude, PROCESS_TESTS] } },
      // Tests that start processes: commands, servers, the web cluster, Chromium.
      { extends: true, test: { name: "processes", include: [PROCESS_TESTS] } },
    ],
  },
});
