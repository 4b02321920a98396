import { spawn } from "node:child_process";
import { rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterEach, expect, test } from "vitest";
import { tempDir } from "~/test/temp-dir";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const BIN = path.join(ROOT, "bin", "oddwire.mjs");
// Ends the embedded database's thread on SIGUSR2 (a test fixture; nothing in the server can).
const KILLER = pathToFileURL(path.join(ROOT, "test", "database-thread-killer.mjs")).href;
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

test("when the embedded database's thread dies, serve says why and exits with 1, to be started again", async () => {
  const dataDir = tempDir("oddwire-serve-lost-");
  dirs.push(dataDir);
  const env = { ...process.env, DATA_DIR: dataDir, ROLE: "worker", LOG_LEVEL: "info", NODE_OPTIONS: `--import=${KILLER}` } as NodeJS.ProcessEnv;
  delete env.DATABASE_URL;
  delete env.AUTH_SECRET;
  const child = spawn(process.execPath, [BIN, "serve"], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  await expect.poll(() => output, { timeout: 90_000, interval: 100 }).toContain("running background jobs");
  child.kill("SIGUSR2");
  let timer: NodeJS.Timeout | undefined;
  const code = await Promise.race([exited, new Promise<"still running">((resolve) => (timer = setTimeout(() => resolve("still running"), 30_000)))]);
  clearTimeout(timer);
  if (code === "still running") child.kill("SIGKILL");
  expect(code).toBe(1);
  const fatal = output.split("\n").find((line) => line.includes("the embedded database stopped"));
  expect(fatal).toBeDefined();
  expect(JSON.parse(fatal!)).toMatchObject({ level: 60, err: expect.stringMatching(/^the embedded database's thread stopped/) });
}, 150_000);
