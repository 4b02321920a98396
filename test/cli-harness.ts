import { rmSync } from "node:fs";
import { Readable } from "node:stream";
import { afterEach, beforeEach, vi } from "vitest";
import { main } from "~/server/cli/cli";
import { tempDir } from "~/test/temp-dir";

// For the CLI's tests: each test runs commands on an embedded database in a fresh DATA_DIR, with the
// guarded client allowed to reach 127.0.0.1 and logs silenced; the environment is put back after.

/** Runs one command as the binary would, collecting stdout and stderr lines. */
export async function runCli(argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, { out: (l) => out.push(l), err: (l) => err.push(l), stdin: Readable.from([]) });
  return {
    code,
    out,
    err,
    json: () => JSON.parse(out.join("\n")) as Record<string, unknown>,
    error: () => (JSON.parse(err[0] ?? "{}") as { error: { code: string; message: string } }).error,
  };
}

/** Gives each test its own DATA_DIR and the CLI test environment; returns the current data dir. */
export function useCliEnvironment(prefix: string): { dataDir: () => string } {
  // Each command opens a fresh embedded database and migrates it: seconds when the machine is busy.
  vi.setConfig({ testTimeout: 90_000 });
  let dataDir = "";
  let savedEnv: NodeJS.ProcessEnv = {};
  beforeEach(() => {
    savedEnv = { ...process.env };
    dataDir = tempDir(`${prefix}-`);
    delete process.env.DATABASE_URL;
    delete process.env.AUTH_SECRET;
    process.env.DATA_DIR = dataDir;
    process.env.FETCH_ALLOW_HOSTS = "127.0.0.1";
    process.env.LOG_LEVEL = "silent";
  });
  afterEach(() => {
    for (const key of Object.keys(process.env)) if (!(key in savedEnv)) delete process.env[key];
    Object.assign(process.env, savedEnv);
    rmSync(dataDir, { recursive: true, force: true });
  });
  return { dataDir: () => dataDir };
}
