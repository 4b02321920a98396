import { execFile, spawn, type ChildProcess } from "node:child_process";
import { existsSync, rmSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { tempDir } from "~/test/temp-dir";

// The production server as a real process: start-up line, the data-dir lock, clean shutdown.
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

test("the server logs its address, serves an empty site, guards its data dir, and shuts down cleanly on SIGTERM", async ({ page }) => {
  test.setTimeout(240_000);
  const dataDir = tempDir("oddwire-proc-");
  // Port 0: the system picks a free port, and the start-up line says which.
  const server = spawn(process.execPath, [BIN, "serve"], { env: serverEnv(dataDir, 0) });
  try {
    const line = await waitForLine(server, /serving on/);
    const { msg } = JSON.parse(line) as { msg: string };
    expect(msg).toMatch(/^Oddwire is serving on http:\/\/localhost:\d+$/);
    const port = Number(msg.split(":").pop());
    expect(existsSync(path.join(dataDir, "oddwire.lock"))).toBe(true);

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

    // A second process on the same embedded database gets a clear error instead of corrupting it.
    const second = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      execFile(process.execPath, [BIN, "migrate"], { env: serverEnv(dataDir, 0), timeout: 120_000 }, (error, _out, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stderr }),
      );
    });
    expect(second.code).toBe(1);
    const { error } = JSON.parse(second.stderr.trim().split("\n").pop()!);
    expect(error.code).toBe("DATA_DIR_IN_USE");
    expect(error.message).toContain("DATABASE_URL");

    const exited = new Promise<number | null>((resolve) => server.once("exit", (code) => resolve(code)));
    let output = "";
    server.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    server.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(output).toContain('"msg":"stopped"');
    expect(existsSync(path.join(dataDir, "oddwire.lock"))).toBe(false);
  } finally {
    if (server.exitCode === null) server.kill("SIGKILL");
    rmSync(dataDir, { recursive: true, force: true });
  }
});
