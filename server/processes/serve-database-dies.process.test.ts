import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, expect, test } from "vitest";
import { openEmbeddedDatabase } from "../database";
import { tempDir } from "~/test/temp-dir";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const BIN = path.join(ROOT, "bin", "oddwire.mjs");
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** The embedded server's postmaster for DATA_DIR, if one runs. */
function postmasterOf(dataDir: string): number | null {
  const file = path.join(dataDir, "postgres", "pgdata", "postmaster.pid");
  if (!existsSync(file)) return null;
  const pid = Number(readFileSync(file, "utf8").split("\n")[0]);
  return existsSync(`/proc/${pid}`) ? pid : null;
}

/** A process and every process under it; none for one that ended after it was listed. */
function processTree(pid: number): number[] {
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  const children = tasks.flatMap((task) => {
    try {
      return readFileSync(`/proc/${pid}/task/${task}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
    } catch {
      return [];
    }
  });
  return [pid, ...children.flatMap(processTree)];
}

test("when the embedded database server dies under the site, the site starts it again with every committed row, and stops it when it stops", async () => {
  const dataDir = tempDir("oddwire-serve-dies-");
  dirs.push(dataDir);
  const env = { ...process.env, DATA_DIR: dataDir, ROLE: "worker", LOG_LEVEL: "info" } as NodeJS.ProcessEnv;
  delete env.DATABASE_URL;
  delete env.AUTH_SECRET;
  const child = spawn(process.execPath, [BIN, "serve"], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  try {
    await expect.poll(() => output, { timeout: 90_000, interval: 100 }).toContain("running background jobs");
    const committed = await openEmbeddedDatabase(dataDir);
    try {
      await committed.exec("INSERT INTO categories (name, slug, display_order) VALUES ('Kept', 'kept', 99)");
    } finally {
      await committed.close();
    }

    const first = postmasterOf(dataDir);
    expect(first).not.toBeNull();
    for (const pid of processTree(first!)) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // a connection's process that ended on its own meanwhile
      }
    }
    await expect.poll(() => output, { timeout: 30_000, interval: 100 }).toContain("the embedded PostgreSQL server runs again");
    expect(output).toContain("the embedded PostgreSQL server stopped unexpectedly; starting it again");
    expect(postmasterOf(dataDir)).not.toBe(first);
    expect(child.exitCode).toBeNull();

    const after = await openEmbeddedDatabase(dataDir);
    try {
      const rows = await after.pool.query<{ name: string }>("SELECT name FROM categories WHERE slug = 'kept'");
      expect(rows.rows).toEqual([{ name: "Kept" }]);
    } finally {
      await after.close();
    }

    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(postmasterOf(dataDir)).toBeNull();
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    await exited;
    const left = postmasterOf(dataDir);
    if (left) for (const pid of processTree(left)) process.kill(pid, "SIGKILL");
  }
}, 150_000);
