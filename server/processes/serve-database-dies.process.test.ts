import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { afterEach, expect, test } from "vitest";
import { openEmbeddedDatabase } from "../database";
import { startOddwire } from "~/test/oddwire-process";
import { tempDir } from "~/test/temp-dir";

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
  const serve = startOddwire(["serve"], env);
  try {
    await serve.printed(/running background jobs/, "the jobs to run");
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
    await serve.printed(/the embedded PostgreSQL server runs again/, "the database server to run again", 30_000);
    expect(serve.output()).toContain("the embedded PostgreSQL server stopped unexpectedly; starting it again");
    expect(postmasterOf(dataDir)).not.toBe(first);
    expect(serve.running()).toBe(true);

    const after = await openEmbeddedDatabase(dataDir);
    try {
      const rows = await after.pool.query<{ name: string }>("SELECT name FROM categories WHERE slug = 'kept'");
      expect(rows.rows).toEqual([{ name: "Kept" }]);
    } finally {
      await after.close();
    }

    serve.child.kill("SIGTERM");
    expect((await serve.exited).code).toBe(0);
    expect(postmasterOf(dataDir)).toBeNull();
  } finally {
    if (serve.running()) serve.child.kill("SIGKILL");
    await serve.exited;
    const left = postmasterOf(dataDir);
    if (left) for (const pid of processTree(left)) process.kill(pid, "SIGKILL");
  }
}, 150_000);
