import { execFile, spawn, type ChildProcess } from "node:child_process";
import { existsSync, rmSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { tempDir } from "~/test/temp-dir";

// The production server as a real process: start-up line, its embedded database shared with the CLI,
// one server per data dir, clean shutdown.
const BIN = path.resolve("bin/oddwire.mjs");

function serverEnv(dataDir: string, port: number): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: "127.0.0.1" };
  delete env.DATABASE_URL;
  delete env.NODE_ENV;
  return env;
}

function waitForLine(child: ChildProcess, pattern: RegExp, timeoutMs = 120_000): Promise<string> {
  return new Promise((resolve, reject) => {
    let seen = "";
    child.stderr?.on("data", (chunk: Buffer) => (seen += chunk.toString()));
    const timer = setTimeout(() => reject(new Error(`no line matching ${pattern} in:\n${seen}`)), timeoutMs);
    child.stdout?.on("data", (chunk: Buffer) => {
      seen += chunk.toString();
      const line = seen.split("\n").find((l) => pattern.test(l));
      if (line) {
        clearTimeout(timer);
        resolve(line);
      }
    });
    child.once("exit", (code) => reject(new Error(`server exited with ${code}:\n${seen}`)));
  });
}

test("the server logs its address, serves an empty site, shares its database with commands, refuses a second server, and shuts down cleanly on SIGTERM", async ({ page }) => {
  test.setTimeout(240_000);
  const dataDir = tempDir("oddwire-proc-");
  // Port 0: the system picks a free port, and the start-up line says which.
  const server = spawn(process.execPath, [BIN, "serve"], { env: serverEnv(dataDir, 0) });
  try {
    const line = await waitForLine(server, /serving on/);
    const { msg } = JSON.parse(line) as { msg: string };
    expect(msg).toMatch(/^Oddwire is serving on http:\/\/localhost:\d+$/);
    const port = Number(msg.split(":").pop());
    const postmasterPid = path.join(dataDir, "postgres", "pgdata", "postmaster.pid");
    expect(existsSync(postmasterPid)).toBe(true);

    // On an empty database the home page says so, and the default categories are in the header.
    await page.goto(`http://127.0.0.1:${port}/`);
    await expect(page.getByRole("heading", { name: "No stories available yet" })).toBeVisible();
    await expect(page.getByText("Check back soon for weird news updates!")).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Categories" }).getByRole("link")).toHaveCount(8);
    // A bad path is logged.
    let log = "";
    server.stdout?.on("data", (chunk: Buffer) => (log += chunk.toString()));
    expect((await page.goto(`http://127.0.0.1:${port}/no/such/page`))?.status()).toBe(404);
    await expect.poll(() => log).toContain('"path":"/no/such/page"');

    // A command runs on the server's own embedded database while it serves.
    const run = (args: string[]) =>
      new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
        execFile(process.execPath, [BIN, ...args], { env: { ...serverEnv(dataDir, 0), LOG_LEVEL: "warn" }, timeout: 120_000 }, (error, stdout, stderr) =>
          resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
        );
      });
    const created = await run(["user:create", "--email", "ops@oddwire.test", "--password", "long-enough-1", "--admin"]);
    expect(created.code).toBe(0);
    expect(JSON.parse(created.stdout)).toMatchObject({ email: "ops@oddwire.test", isAdmin: true });

    // A second server on the same data dir is refused, naming the one that serves it.
    const second = await run(["serve"]);
    expect(second.code).toBe(1);
    const { error } = JSON.parse(second.stderr.trim().split("\n").pop()!);
    expect(error.code).toBe("SERVE_ALREADY_RUNNING");
    expect(error.message).toContain(`pid ${server.pid}`);

    const exited = new Promise<number | null>((resolve) => server.once("exit", (code) => resolve(code)));
    let output = "";
    server.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    server.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(output).toContain('"msg":"stopped"');
    // The embedded database stopped with it.
    expect(existsSync(postmasterPid)).toBe(false);
  } finally {
    if (server.exitCode === null) server.kill("SIGKILL");
    rmSync(dataDir, { recursive: true, force: true });
  }
});
