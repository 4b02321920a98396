import { readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { afterEach, expect, test } from "vitest";
import { startOddwire } from "~/test/oddwire-process";
import { tempDir } from "~/test/temp-dir";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Starts `serve` as a worker (no web build needed) and returns what it printed once it is running. */
async function startAndStop(args: string[], dataDir: string): Promise<string> {
  const env = { ...process.env, DATA_DIR: dataDir, ROLE: "worker", LOG_LEVEL: "info" } as NodeJS.ProcessEnv;
  delete env.DATABASE_URL;
  delete env.AUTH_SECRET;
  const serve = startOddwire(["serve", ...args], env);
  await serve.printed(/running background jobs/, "the jobs to run");
  serve.child.kill("SIGTERM");
  await serve.exited;
  return serve.output();
}

test("a demo start prints the generated admin password once, in a banner, and never in the structured log", async () => {
  const dataDir = tempDir("oddwire-serve-demo-");
  dirs.push(dataDir);
  const output = await startAndStop(["--demo"], dataDir);
  const password = readFileSync(path.join(dataDir, "demo-admin-password"), "utf8").trim();
  const lines = output.split("\n");
  const mentioning = lines.filter((line) => line.includes(password));
  expect(mentioning).toEqual([`  Demo admin: admin@oddwire.test / password: ${password}`]);
  // Every other line is structured log output, and none of it carries the password.
  const logLines = lines.filter((line) => line.startsWith("{"));
  expect(logLines.length).toBeGreaterThan(0);
  expect(logLines.some((line) => line.includes("Demo content loaded"))).toBe(true);
}, 120_000);

test("a production start seeds no demo content and prints no demo admin", async () => {
  const dataDir = tempDir("oddwire-serve-prod-");
  dirs.push(dataDir);
  const output = await startAndStop([], dataDir);
  expect(output).not.toContain("Demo admin");
  expect(output).not.toContain("Demo content loaded");
  // `serve` runs the server bundled into build/node (decision 018).
  expect(output).toMatch(/"code":"bundle"[^\n]*running background jobs/);
}, 120_000);
