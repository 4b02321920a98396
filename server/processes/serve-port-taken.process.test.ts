import { spawn } from "node:child_process";
import { existsSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { PROJECT_ROOT } from "~/lib/project-root";
import { BIN } from "~/test/oddwire-process";
import { tempDir } from "~/test/temp-dir";
import { ensureWebBuild } from "~/test/web-processes";

// `serve` on a port another program holds: it says so, and what to do, and leaves nothing running.
let holder: Server;
let port = 0;

beforeAll(async () => {
  ensureWebBuild();
  holder = createServer();
  await new Promise<void>((resolve) => holder.listen(0, "127.0.0.1", resolve));
  port = (holder.address() as { port: number }).port;
}, 180_000);
afterAll(() => new Promise<void>((resolve) => holder.close(() => resolve())));

test.each([["one web process", "1"], ["several web processes", "2"]])("with %s, a taken port ends serve with PORT_IN_USE, naming the port and PORT, and the database server stopped", async (_case, concurrency) => {
  const dataDir = tempDir("oddwire-port-taken-");
  try {
    const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: "production", DATA_DIR: dataDir, PORT: String(port), HOST: "127.0.0.1", WEB_CONCURRENCY: concurrency, LOG_LEVEL: "warn" };
    delete env.DATABASE_URL;
    delete env.AUTH_SECRET;
    const child = spawn(process.execPath, [BIN, "serve"], { cwd: PROJECT_ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once("exit", (exitCode) => resolve(exitCode)));
    expect(code).toBe(1);
    const { error } = JSON.parse(stderr.trim().split("\n").at(-1)!) as { error: { code: string; message: string } };
    expect(error.code).toBe("PORT_IN_USE");
    expect(error.message).toContain(`Port ${port} is already in use`);
    expect(error.message).toContain("set PORT to a free port");
    expect(existsSync(path.join(dataDir, "postgres", "pgdata", "postmaster.pid"))).toBe(false);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}, 120_000);
