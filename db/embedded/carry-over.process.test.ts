import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { spawn } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterEach, describe, expect, test } from "vitest";
import type { Db } from "../client";
import { makeUser } from "../testing/factories";
import {
  afterLastMigration,
  everyRow,
  migrationsWithoutLast,
  parsedRows,
  rowsOf,
  seedEarlierRelease,
  seedEveryTable,
} from "../testing/snapshot-fixtures";
import { openEarlierDatabase } from "../testing/earlier-pglite";
import { testDatabaseForFile } from "../testing/test-database";
import { CarryOverError, carryOverPglite, EARLIER_LOCK_FILE } from "./carry-over";

// The data the carry-over reads is an earlier release's: PGlite in DATA_DIR/pglite.
const t = testDatabaseForFile();

function capturingLogger() {
  const lines: { level: string; fields: Record<string, unknown>; message: string }[] = [];
  return {
    lines,
    info: (fields: Record<string, unknown>, message: string) => lines.push({ level: "info", fields, message }),
    warn: (fields: Record<string, unknown>, message: string) => lines.push({ level: "warn", fields, message }),
  };
}

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/**
 * A DATA_DIR as earlier releases left it: PGlite in DATA_DIR/pglite, migrated (with
 * `migrationsFolder`'s migrations), seeded; returns every row as it was.
 */
async function pgliteDataDir(options: { migrationsFolder?: string; extra?: string; seed?: (database: { db: Db }) => Promise<void> } = {}) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "oddwire-carry-"));
  dirs.push(dataDir);
  const database = await openEarlierDatabase(dataDir, { migrationsFolder: options.migrationsFolder });
  try {
    await (options.seed ?? ((d: { db: Db }) => seedEveryTable(d.db)))(database);
    if (options.extra) await database.exec(options.extra);
    return { dataDir, rows: await everyRow(database) };
  } finally {
    await database.close();
  }
}

function earlierMigrations(): string {
  const { folder } = migrationsWithoutLast();
  dirs.push(folder);
  return folder;
}

async function migrationCount(database: { db: Db }): Promise<number> {
  return rowsOf<{ n: number }>(await database.db.execute(sql`SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations`))[0]!.n;
}

// Each test opens an earlier release's PGlite database (a WebAssembly server) and carries it over: one
// took 15 s alone on this 2-core machine while other work ran, too close to the suite's 20 s.
describe("carrying an earlier release's PGlite database over", { timeout: 60_000 }, () => {
  test("every table comes over row for row, secrets included, and the old files are moved aside and kept", async () => {
    const { dataDir, rows } = await pgliteDataDir();
    const logger = capturingLogger();

    const result = await carryOverPglite({ dataDir, target: t.database, logger, now: () => Date.parse("2026-11-26T10:20:30.456Z") });

    expect(await everyRow(t.database)).toEqual(rows);
    expect(rows.accounts?.[0]).toContain("scrypt$16384");
    expect(rows.verifications?.[0]).toContain("a-secret-token-value");
    expect(rows.sessions).toHaveLength(1);
    expect(result?.migrationsRun).toBe(0);
    const movedTo = path.join(dataDir, "pglite.carried-over-2026-11-26T10-20-30-456Z");
    expect(result?.movedTo).toBe(movedTo);
    expect(existsSync(path.join(dataDir, "pglite"))).toBe(false);
    expect(existsSync(path.join(movedTo, "PG_VERSION"))).toBe(true);
    expect(logger.lines).toHaveLength(1);
    expect(logger.lines[0]?.message).toMatch(/1 users, 1 sessions, 3 stories, .* the old files are kept in .*pglite\.carried-over-2026-11-26T10-20-30-456Z$/);
    expect(JSON.stringify(logger.lines)).not.toContain("a-secret-token-value");
  });

  test("data at an earlier release's migrations comes over and is migrated; the old files stay at their migrations", async () => {
    // Seeded at the earlier migrations: stories have no triage columns yet.
    const { dataDir, rows } = await pgliteDataDir({ migrationsFolder: earlierMigrations(), seed: seedEarlierRelease });

    const result = await carryOverPglite({ dataDir, target: t.database, logger: capturingLogger() });

    expect(result?.migrationsRun).toBe(1);
    expect(parsedRows(await everyRow(t.database))).toEqual(afterLastMigration(rows));
    // The moved files, opened where a copy of them is, are still at the earlier migrations.
    const moved = mkdtempSync(path.join(os.tmpdir(), "oddwire-moved-"));
    dirs.push(moved);
    cpSync(result!.movedTo!, path.join(moved, "pglite"), { recursive: true });
    const earlier = await openEarlierDatabase(moved, { migrationsFolder: null });
    try {
      expect(await migrationCount(earlier)).toBe((await migrationCount(t.database)) - 1);
    } finally {
      await earlier.close();
    }
  });

  test("a database it cannot load (newer migrations) fails clearly: old files untouched, target as it was", async () => {
    const { dataDir } = await pgliteDataDir({
      // More rows than a pipe holds, so that the reader is still writing when the import refuses.
      extra: `INSERT INTO drizzle.__drizzle_migrations (hash, created_at) VALUES ('${"f".repeat(64)}', 4102444800000);
        INSERT INTO audit_log (action, entity_type, entity_id, details)
        SELECT 'bulk', 'story', i::text, jsonb_build_object('noise', (SELECT string_agg(md5(i || '-' || j), '') FROM generate_series(1, 40) j))
        FROM generate_series(1, 3000) i`,
    });
    const before = await everyRow(t.database);
    const logger = capturingLogger();

    const error = await carryOverPglite({ dataDir, target: t.database, logger }).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(CarryOverError);
    expect((error as Error).message).toMatch(/could not be carried over .*newer release.*untouched/);
    expect(readdirSync(dataDir)).not.toContainEqual(expect.stringMatching(/carried-over/));
    expect(existsSync(path.join(dataDir, "pglite", "PG_VERSION"))).toBe(true);
    expect(await everyRow(t.database)).toEqual(before);
    expect(logger.lines).toEqual([]);
  });

  test("files PGlite cannot open fail with the reader's own error, and stay where they are", async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), "oddwire-carry-"));
    dirs.push(dataDir);
    mkdirSync(path.join(dataDir, "pglite"));
    writeFileSync(path.join(dataDir, "pglite", "PG_VERSION"), "18\n");
    const before = await everyRow(t.database);

    const error = await carryOverPglite({ dataDir, target: t.database, logger: capturingLogger() }).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(CarryOverError);
    expect((error as Error).message).toMatch(/could not be carried over \(reading it failed: .+\)/);
    expect(readdirSync(path.join(dataDir, "pglite"))).toEqual(["PG_VERSION"]);
    expect(await everyRow(t.database)).toEqual(before);
  });

  test("files an earlier release's process still holds are not read", async () => {
    const { dataDir } = await pgliteDataDir();
    const holder = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
    try {
      writeFileSync(path.join(dataDir, EARLIER_LOCK_FILE), String(holder.pid));
      const error = await carryOverPglite({ dataDir, target: t.database, logger: capturingLogger() }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CarryOverError);
      expect((error as Error).message).toContain(`in use by another process (pid ${holder.pid})`);
      expect(existsSync(path.join(dataDir, "pglite", "PG_VERSION"))).toBe(true);
    } finally {
      holder.kill();
    }
  });

  test("nothing happens without PGlite data, or when the database already has users", async () => {
    const empty = mkdtempSync(path.join(os.tmpdir(), "oddwire-carry-"));
    dirs.push(empty);
    expect(await carryOverPglite({ dataDir: empty, target: t.database, logger: capturingLogger() })).toBeNull();

    const { dataDir } = await pgliteDataDir();
    await makeUser(t.db, { email: "already@oddwire.test" });
    const logger = capturingLogger();
    expect(await carryOverPglite({ dataDir, target: t.database, logger })).toBeNull();
    expect(existsSync(path.join(dataDir, "pglite", "PG_VERSION"))).toBe(true);
    expect(logger.lines[0]?.level).toBe("warn");
  });
});
