import { spawn } from "node:child_process";
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { PROJECT_ROOT } from "~/lib/project-root";
import { PGliteThread } from "./pglite-thread";

let pg: PGliteThread;
beforeAll(async () => {
  pg = await PGliteThread.start({ postgresqlConf: ["shared_buffers = 16MB"] });
  await pg.exec(`
    CREATE TABLE notes (id serial PRIMARY KEY, body text NOT NULL UNIQUE, at timestamptz NOT NULL DEFAULT '2026-01-02 03:04:05+00');
    CREATE EXTENSION IF NOT EXISTS pg_trgm;`);
});
afterAll(async () => {
  await pg?.close();
});

async function errorOf(work: Promise<unknown>): Promise<Error & Record<string, unknown>> {
  const error = await work.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof Error)) throw new Error("expected the call to fail");
  return error as Error & Record<string, unknown>;
}

/**
 * Runs a script in a node process of its own (with tsx) and gives its output and exit code. Its
 * output goes to a file: V8's own printing (%DebugPrint) is lost in part on a non-blocking pipe.
 */
function runNode(args: string[], script: string, timeoutMs = 60_000): Promise<{ code: number | null; stdout: string; stderr: string }> {
  // Inside the project, so that the script resolves its packages; build/ may not exist yet in a fresh clone.
  const builds = path.join(PROJECT_ROOT, "build");
  mkdirSync(builds, { recursive: true });
  const dir = mkdtempSync(path.join(builds, "pglite-thread-test-"));
  const file = path.join(dir, "script.ts");
  writeFileSync(file, script);
  const out = openSync(path.join(dir, "stdout"), "w");
  const err = openSync(path.join(dir, "stderr"), "w");
  const child = spawn(process.execPath, ["--import", "tsx", ...args, file], { cwd: PROJECT_ROOT, stdio: ["ignore", out, err] });
  closeSync(out);
  closeSync(err);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`the script did not end within ${timeoutMs} ms`));
    }, timeoutMs);
    child.once("exit", (code) => {
      clearTimeout(timer);
      const stdout = readFileSync(path.join(dir, "stdout"), "utf8");
      const stderr = readFileSync(path.join(dir, "stderr"), "utf8");
      rmSync(dir, { recursive: true, force: true });
      resolve({ code, stdout, stderr });
    });
  });
}

describe("the embedded database in a thread of its own", () => {
  test("answers queries with PGlite's rows and fields, and its extensions are there", async () => {
    const result = await pg.query<{ n: number; similar: number }>("SELECT $1::int + 1 AS n, similarity('parrot', 'parrots') > 0.5 AS similar", [41]);
    expect(result.rows).toEqual([{ n: 42, similar: true }]);
    expect(result.fields.map((field) => field.name)).toEqual(["n", "similar"]);
    const arrays = await pg.query("SELECT 1 AS a, 'two' AS b", [], { rowMode: "array" });
    expect(arrays.rows).toEqual([[1, "two"]]);
  });

  test("PostgreSQL's errors keep their code, detail and constraint", async () => {
    await pg.query("INSERT INTO notes (body) VALUES ('once')");
    const duplicate = await errorOf(pg.query("INSERT INTO notes (body) VALUES ('once')"));
    expect(duplicate.message).toMatch(/duplicate key value violates unique constraint/);
    expect(duplicate).toMatchObject({ code: "23505", constraint: "notes_body_key", table: "notes" });
    expect(duplicate.detail).toMatch(/already exists/);
    const syntax = await errorOf(pg.exec("SELEC 1"));
    expect(syntax).toMatchObject({ code: "42601" });
    // The connection is still usable after both.
    expect((await pg.query("SELECT count(*)::int AS n FROM notes")).rows).toEqual([{ n: 1 }]);
    await pg.exec("TRUNCATE notes");
  });

  test("the caller's parsers get PostgreSQL's text for their types, in both row modes, and nulls stay null", async () => {
    const parsers = { 1184: (text: string) => `parsed ${text}` };
    const objects = await pg.query("SELECT '2026-01-02 03:04:05+00'::timestamptz AS at, NULL::timestamptz AS never, 7 AS n", [], { parsers });
    expect(objects.rows).toEqual([{ at: "parsed 2026-01-02 03:04:05+00", never: null, n: 7 }]);
    const arrays = await pg.query("SELECT 7 AS n, '2026-01-02 03:04:05+00'::timestamptz AS at", [], { rowMode: "array", parsers });
    expect(arrays.rows).toEqual([[7, "parsed 2026-01-02 03:04:05+00"]]);
    // Without parsers the thread's PGlite parses the type itself.
    const dates = await pg.query<{ at: Date }>("SELECT '2026-01-02 03:04:05+00'::timestamptz AS at");
    expect(dates.rows[0]?.at).toEqual(new Date("2026-01-02T03:04:05Z"));
    expect(await errorOf(pg.query("SELECT 1", [], { serializers: { 25: String } }))).toHaveProperty(
      "message",
      "the embedded database's thread does not take these query options: serializers",
    );
  });

  test("a transaction commits what its work did, and calls made meanwhile wait until it ends", async () => {
    const order: string[] = [];
    let outside: Promise<unknown> = Promise.resolve();
    const result = await pg.transaction(async (tx) => {
      await tx.query("INSERT INTO notes (body) VALUES ('in the transaction')");
      outside = pg.query<{ n: number }>("SELECT count(*)::int AS n FROM notes").then((r) => {
        order.push(`outside saw ${r.rows[0]?.n}`);
      });
      // Give the outside call time to reach the thread: it must wait there, not run now.
      await new Promise((resolve) => setTimeout(resolve, 50));
      order.push("work done");
      return "returned";
    });
    await outside;
    expect(result).toBe("returned");
    expect(order).toEqual(["work done", "outside saw 1"]);
    expect(pg.isInTransaction()).toBe(false);
    await pg.exec("TRUNCATE notes");
  });

  test("a transaction whose work throws is rolled back and the work's own error reaches the caller", async () => {
    const failure = new Error("the work failed");
    const thrown = await errorOf(
      pg.transaction(async (tx) => {
        await tx.query("INSERT INTO notes (body) VALUES ('never kept')");
        throw failure;
      }),
    );
    expect(thrown).toBe(failure);
    expect((await pg.query("SELECT count(*)::int AS n FROM notes")).rows).toEqual([{ n: 0 }]);
    // A failed statement inside: the transaction is aborted and rolled back, the error is PostgreSQL's.
    const aborted = await errorOf(
      pg.transaction(async (tx) => {
        await tx.query("INSERT INTO notes (body) VALUES ('twice')");
        await tx.query("INSERT INTO notes (body) VALUES ('twice')");
      }),
    );
    expect(aborted).toMatchObject({ code: "23505" });
    expect((await pg.query("SELECT count(*)::int AS n FROM notes")).rows).toEqual([{ n: 0 }]);
  });

  test("a script that fails after BEGIN leaves the connection in its transaction until it is rolled back", async () => {
    await errorOf(pg.exec("BEGIN; INSERT INTO notes (body) VALUES ('x'); SELECT 1/0;"));
    expect(pg.isInTransaction()).toBe(true);
    await pg.exec("ROLLBACK");
    expect(pg.isInTransaction()).toBe(false);
    expect((await pg.query("SELECT count(*)::int AS n FROM notes")).rows).toEqual([{ n: 0 }]);
  });

  test("a dump opens again as a database with the same rows", async () => {
    await pg.query("INSERT INTO notes (body) VALUES ('kept in the dump')");
    const dump = await pg.dumpDataDir("none");
    expect(dump.size).toBeGreaterThan(1_000_000);
    const copy = await PGliteThread.start({ dump, postgresqlConf: ["shared_buffers = 16MB"] });
    try {
      expect((await copy.query("SELECT body FROM notes")).rows).toEqual([{ body: "kept in the dump" }]);
    } finally {
      await copy.close();
    }
    await pg.exec("TRUNCATE notes");
  });

  test("a database that cannot be opened fails with PGlite's reason", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "oddwire-pglite-thread-"));
    try {
      const notADir = path.join(dir, "a-file");
      writeFileSync(notADir, "not a data dir");
      const error = await errorOf(PGliteThread.start({ dataDir: notADir }));
      expect(error.message.length).toBeGreaterThan(0);
      expect(error.message).not.toMatch(/exit code/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("once closed, calls fail with a clear error", async () => {
    const closing = await PGliteThread.start({ postgresqlConf: ["shared_buffers = 16MB"] });
    await closing.close();
    await closing.close();
    expect(await errorOf(closing.query("SELECT 1"))).toHaveProperty("message", "the embedded database is closed");
  });

  test("a thread that stops while the database is open says so once, and every call fails from then on", async () => {
    // A heap too small for two million rows: the thread runs out of memory answering, as a real one could.
    const stopped: Error[] = [];
    const dying = await PGliteThread.start({
      postgresqlConf: ["shared_buffers = 16MB"],
      resourceLimits: { maxOldGenerationSizeMb: 48, maxYoungGenerationSizeMb: 8 },
      onStopped: (error) => stopped.push(error),
    });
    expect((await dying.query<{ n: number }>("SELECT 1 AS n")).rows).toEqual([{ n: 1 }]);
    const answering = errorOf(dying.query("SELECT g, md5(g::text) FROM generate_series(1, 2000000) AS g"));
    // Sent while the thread works on the one before it: still waiting when the thread stops.
    const waiting = errorOf(dying.query("SELECT 2"));
    const answered = await answering;
    expect(answered.message).toMatch(/^the embedded database's thread (failed|stopped)/);
    await expect.poll(() => stopped.length).toBe(1);
    expect(stopped[0]!.message).toMatch(/memory/);
    expect((await waiting).message).toBe(answered.message);
    expect((await errorOf(dying.query("SELECT 1"))).message).toBe(answered.message);
    await dying.close();
    expect(stopped).toHaveLength(1);
  });

  test("a database closed on purpose is not reported as stopped", async () => {
    const stopped: Error[] = [];
    const closing = await PGliteThread.start({ postgresqlConf: ["shared_buffers = 16MB"], onStopped: (error) => stopped.push(error) });
    await closing.close();
    expect(stopped).toEqual([]);
  });

  test("an idle open database does not keep its process running, and one waiting for an answer does", async () => {
    const run = await runNode(
      [],
      `import { PGliteThread } from "~/db/pglite-thread";
       const pg = await PGliteThread.start({});
       setTimeout(async () => console.log("answer", (await pg.query("SELECT pg_sleep(0.3), 5 AS n")).rows[0].n), 10);`,
    );
    expect(run.stderr).toBe("");
    expect(run.stdout.trim()).toBe("answer 5");
    expect(run.code).toBe(0);
  });

  test("the thread that serves HTTP keeps Node's process.nextTick fast: PGlite's extensions are loaded in another", async () => {
    // Loading a PGlite extension in a thread turns V8's inline caches of Node's tick objects megamorphic
    // for good (every HTTP answer makes some): the first script shows it, the second that our client avoids it.
    // (V8's natives syntax inside a Function body: the script itself goes through tsx's parser.)
    const ticks = `for (let i = 0; i < 3000; i++) await new Promise((resolve) => process.nextTick(resolve));
       new Function("f", "%DebugPrint(f)")(process.nextTick);`;
    const literalSlots = (stdout: string) => stdout.split("\n").filter((line) => line.includes("DefineKeyedOwnPropertyInLiteral"));
    const inThread = await runNode(
      ["--allow-natives-syntax"],
      `const { PGlite } = await import("@electric-sql/pglite");
       const { pg_trgm } = await import("@electric-sql/pglite/contrib/pg_trgm");
       const pg = await PGlite.create({ extensions: { pg_trgm } });
       ${ticks}
       await pg.close();`,
    );
    expect(literalSlots(inThread.stdout).some((line) => line.includes("MEGAMORPHIC"))).toBe(true);
    const inItsOwn = await runNode(
      ["--allow-natives-syntax"],
      `import { openDatabase } from "~/db/client";
       const database = await openDatabase({ dataDir: null });
       await database.exec("CREATE EXTENSION pg_trgm; SELECT similarity('a', 'b');");
       ${ticks}
       await database.close();`,
    );
    expect(inItsOwn.code).toBe(0);
    const slots = literalSlots(inItsOwn.stdout);
    expect(slots.length).toBeGreaterThan(0);
    expect(slots.filter((line) => line.includes("MEGAMORPHIC"))).toEqual([]);
    // Two Node processes, each starting PGlite: on a busy machine that alone can take 20 s.
  }, 60_000);
});
