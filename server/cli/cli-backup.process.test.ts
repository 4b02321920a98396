import { createWriteStream, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { finished } from "node:stream/promises";
import { afterEach, describe, expect, test } from "vitest";
import { exportSnapshot } from "~/db/snapshot";
import { runCli, useCliEnvironment } from "~/test/cli-harness";
import { startOddwire } from "~/test/oddwire-process";
import { openEmbeddedDatabase } from "../database";
import { tempDir as newTempDir } from "~/test/temp-dir";

const env = useCliEnvironment("oddwire-cli-backup");
const tempDirs: string[] = [];
afterEach(() => {
  for (const dir of tempDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = newTempDir("oddwire-backup-target-");
  tempDirs.push(dir);
  return dir;
}

/** What the round trip compares: counts, and a few whole rows of each kind. */
async function contentOf(dataDir: string) {
  const database = await openEmbeddedDatabase(dataDir);
  try {
    const one = async (sqlText: string) => (await database.pool.query<Record<string, unknown>>(sqlText)).rows;
    return {
      counts: (
        await one(`SELECT (SELECT count(*)::int FROM categories) AS categories, (SELECT count(*)::int FROM stories) AS stories,
                          (SELECT count(*)::int FROM sources) AS sources, (SELECT count(*)::int FROM users) AS users,
                          (SELECT count(*)::int FROM rejected_stories) AS rejected, (SELECT count(*)::int FROM url_queue) AS queued`)
      )[0],
      categories: await one("SELECT id, name, slug, display_order FROM categories ORDER BY id"),
      stories: await one(
        "SELECT id, title, slug, status, category_id, source_id, publish_date, url_hash FROM stories WHERE id IN (SELECT min(id) FROM stories UNION SELECT max(id) FROM stories) OR status = 'published' ORDER BY id LIMIT 6",
      ),
      users: await one("SELECT u.email, u.is_admin, u.email_verified, a.password FROM users u JOIN accounts a ON a.user_id = u.id ORDER BY u.email"),
    };
  } finally {
    await database.close();
  }
}

describe("backup and restore on the embedded database", () => {
  test("the demo content survives a backup and a restore into a new DATA_DIR", async () => {
    const seeded = await runCli(["seed", "--demo"]);
    expect(seeded.code).toBe(0);
    const file = path.join(tempDir(), "oddwire.tar.gz");

    const backup = await runCli(["backup", file]);
    expect(backup.err).toEqual([]);
    expect(backup.code).toBe(0);
    expect(backup.json()).toMatchObject({ file, data_dir: env.dataDir(), bytes: statSync(file).size, rows: expect.any(Number) });
    // It holds password hashes and sessions: readable by its owner only.
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(path.dirname(file))).toEqual(["oddwire.tar.gz"]);

    const original = await contentOf(env.dataDir());
    expect(original.counts).toMatchObject({ categories: 8, sources: 6, users: 1 });
    expect(original.counts?.stories).toBeGreaterThanOrEqual(300);

    const target = path.join(tempDir(), "restored");
    process.env.DATA_DIR = target;
    const restored = await runCli(["restore", file]);
    expect(restored.err).toEqual([]);
    expect(restored.code).toBe(0);
    const { categories, stories, sources, users } = original.counts as Record<string, number>;
    expect(restored.json()).toMatchObject({ restored: true, file, data_dir: target, counts: { categories, stories, sources, users } });
    // Restore writes no secret of its own (the server makes one at its first start).
    expect(readdirSync(target)).not.toContain("auth-secret");

    expect(await contentOf(target)).toEqual(original);
    // The restored directory is one the application opens as it is.
    expect((await runCli(["migrate"])).code).toBe(0);
  }, 180_000);

  test("restore refuses a database that holds anything, and leaves it as it was", async () => {
    expect((await runCli(["user:create", "--email", "kept@b.test", "--password", "longenough1"])).code).toBe(0);
    const file = path.join(tempDir(), "any.tar.gz");
    writeFileSync(file, Buffer.from([0x1f, 0x8b, 0, 0]));
    const before = await contentOf(env.dataDir());

    const result = await runCli(["restore", file]);
    expect(result.code).toBe(1);
    expect(result.out).toEqual([]);
    expect(result.error()).toMatchObject({ code: "DATA_DIR_NOT_EMPTY", message: expect.stringContaining("1 users") });
    expect(await contentOf(env.dataDir())).toEqual(before);
  }, 60_000);

  test("restore refuses a file that is no backup, or one of another database, and changes nothing", async () => {
    const text = path.join(tempDir(), "notes.txt");
    writeFileSync(text, "not a backup at all\n");
    const notABackup = await runCli(["restore", text]);
    expect(notABackup.code).toBe(1);
    expect(notABackup.error().code).toBe("NOT_A_BACKUP");

    // A snapshot of another application's database (other migrations, other tables).
    const foreign = path.join(tempDir(), "other-app.tar.gz");
    const otherDir = tempDir();
    const other = await openEmbeddedDatabase(otherDir);
    try {
      await other.exec(`CREATE SCHEMA drizzle; CREATE TABLE drizzle.__drizzle_migrations (id serial PRIMARY KEY, hash text NOT NULL, created_at bigint);
        INSERT INTO drizzle.__drizzle_migrations (hash, created_at) VALUES ('invoices-1', 1); CREATE TABLE invoices (id int); INSERT INTO invoices VALUES (1)`);
      const out = createWriteStream(foreign);
      await exportSnapshot(other, out);
      await finished(out);
    } finally {
      await other.close();
    }
    const notOurs = await runCli(["restore", foreign]);
    expect(notOurs.code).toBe(1);
    expect(notOurs.error().code).toBe("BACKUP_OTHER_SCHEMA");
    expect((await contentOf(env.dataDir())).counts).toEqual({ categories: 0, stories: 0, sources: 0, users: 0, rejected: 0, queued: 0 });

    const missing = await runCli(["restore", path.join(tempDir(), "nowhere.tar.gz")]);
    expect(missing.error().code).toBe("NO_SUCH_FILE");
  }, 60_000);

  test("backup refuses to replace a file unless told to, and a directory that does not exist", async () => {
    expect((await runCli(["migrate"])).code).toBe(0);
    const file = path.join(tempDir(), "kept.tar.gz");
    writeFileSync(file, "an older backup");

    const refused = await runCli(["backup", file]);
    expect(refused.code).toBe(1);
    expect(refused.error()).toMatchObject({ code: "FILE_EXISTS", message: expect.stringContaining("--force") });
    expect(readFileSync(file, "utf8")).toBe("an older backup");

    const forced = await runCli(["backup", file, "--force"]);
    expect(forced.code).toBe(0);
    expect(readFileSync(file).subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));

    const nowhere = await runCli(["backup", path.join(tempDir(), "missing", "x.tar.gz")]);
    expect(nowhere.error().code).toBe("NO_SUCH_DIRECTORY");
  }, 60_000);

  test("backup of a DATA_DIR without a database says so, and creates nothing there", async () => {
    const empty = path.join(tempDir(), "never-used");
    process.env.DATA_DIR = empty;
    const result = await runCli(["backup", path.join(tempDir(), "x.tar.gz")]);
    expect(result.code).toBe(1);
    expect(result.error()).toMatchObject({ code: "NO_DATABASE", message: expect.stringContaining(empty) });
    expect(existsSync(empty)).toBe(false);
  });

  test.each([
    ["backup", "USE_PG_DUMP", "pg_dump"],
    ["restore", "USE_PG_RESTORE", "pg_restore"],
  ])("with DATABASE_URL, %s points to %s and touches nothing", async (command, code, tool) => {
    process.env.DATABASE_URL = "postgres://oddwire@127.0.0.1:1/oddwire";
    const file = path.join(tempDir(), "pg.dump");
    if (command === "restore") writeFileSync(file, "x");
    const result = await runCli([command, file]);
    expect(result.code).toBe(1);
    expect(result.error()).toMatchObject({ code, message: expect.stringContaining(tool) });
    expect(readdirSync(env.dataDir())).toEqual([]);
  });

  test.each([
    ["backup without a file", ["backup"]],
    ["restore with two files", ["restore", "a", "b"]],
    ["restore with --force", ["restore", "a", "--force"]],
  ])("%s is a usage error", async (_case, argv) => {
    const result = await runCli(argv);
    expect(result.code).toBe(2);
    expect(result.error().code).toBe("USAGE");
  });
});

describe("backup while the server runs", () => {
  test("a backup taken while the server runs is whole; after the server is killed, the next one still is", async () => {
    const dataDir = env.dataDir();
    const childEnv: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, ROLE: "worker", LOG_LEVEL: "info" };
    // A worker needs no web build, and uses the embedded server as the whole site does.
    const server = startOddwire(["serve", "--demo"], childEnv);
    try {
      await server.printed(/running background jobs/, "the jobs to run");

      const whileRunning = path.join(tempDir(), "running.tar.gz");
      const backup = await runCli(["backup", whileRunning]);
      expect(backup.err).toEqual([]);
      expect(backup.code).toBe(0);
      expect(backup.json()).toMatchObject({ bytes: statSync(whileRunning).size });

      // Killed outright, the server leaves its database server and its registration behind: neither stops the next backup.
      server.child.kill("SIGKILL");
      expect((await server.exited).signal).toBe("SIGKILL");
      const afterKill = path.join(tempDir(), "after-kill.tar.gz");
      const offline = await runCli(["backup", afterKill]);
      expect(offline.err).toEqual([]);
      expect(offline.code).toBe(0);

      for (const file of [whileRunning, afterKill]) {
        const target = tempDir();
        mkdirSync(target, { recursive: true });
        process.env.DATA_DIR = target;
        const restored = await runCli(["restore", file]);
        expect(restored.err).toEqual([]);
        expect(restored.json()).toMatchObject({ counts: { categories: 8, sources: 6, users: 1 } });
        expect((restored.json().counts as { stories: number }).stories).toBeGreaterThanOrEqual(300);
      }
    } finally {
      if (server.running()) server.child.kill("SIGKILL");
      await server.exited;
    }
  }, 240_000);
});
