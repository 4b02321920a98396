import { randomBytes, randomUUID } from "node:crypto";
import { Readable, Writable } from "node:stream";
import { gzipSync, gunzipSync } from "node:zlib";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import { drizzle } from "drizzle-orm/node-postgres";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import { openDatabase, type Database } from "./client";
import { exportSnapshot, importSnapshot } from "./snapshot";
import { SnapshotError, type SnapshotErrorCode } from "./snapshot-format";
import { makeStory } from "./testing/factories";
import { adminUrl, createDatabaseSql, dropDatabaseSql } from "./testing/postgres-admin";
import {
  afterLastMigration,
  everyRow,
  migrationsWithoutLast,
  parsedRows,
  publicTables,
  rowsOf,
  seedEarlierRelease,
  seedEveryTable,
} from "./testing/snapshot-fixtures";
import { openTestDatabase, testDatabaseForFile } from "./testing/test-database";

const t = testDatabaseForFile();

/** A Writable that keeps what it is given; `delayMs` makes it a slow reader. */
function collector(delayMs = 0) {
  const chunks: Buffer[] = [];
  const stream = new Writable({
    highWaterMark: 16 * 1024,
    write(chunk: Buffer, _encoding, callback) {
      chunks.push(chunk);
      if (delayMs > 0) setTimeout(callback, delayMs);
      else callback();
    },
  });
  return { stream, bytes: () => Buffer.concat(chunks) };
}

async function snapshotOf(database: Database, delayMs = 0): Promise<Buffer> {
  const out = collector(delayMs);
  await exportSnapshot(database, out.stream);
  return out.bytes();
}

/** Rejects with the snapshot error of `code`. */
async function refusedWith(work: Promise<unknown>, code: SnapshotErrorCode): Promise<SnapshotError> {
  const error = await work.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SnapshotError);
  expect((error as SnapshotError).code).toBe(code);
  return error as SnapshotError;
}

describe("table snapshots", () => {
  let target: Awaited<ReturnType<typeof openTestDatabase>>;
  beforeAll(async () => {
    target = await openTestDatabase();
  });
  afterAll(async () => {
    await target?.dispose();
  });

  /** The target with a few rows of its own, so that a refused import has something to keep. */
  async function targetWithRows(): Promise<Record<string, string[]>> {
    await target.database.exec("TRUNCATE stories, categories, users RESTART IDENTITY CASCADE");
    await makeStory(target.database.db, { title: "The target's own story" });
    return everyRow(target.database);
  }

  test("a snapshot loaded into another database gives back every table row for row, and ids go on", async () => {
    await seedEveryTable(t.db);
    const before = await everyRow(t.database);
    for (const table of await publicTables(t.database)) expect(before[table], `rows of ${table}`).not.toHaveLength(0);

    const bytes = await snapshotOf(t.database);
    await targetWithRows();
    const counts = await importSnapshot(target.database, Readable.from([bytes]));

    expect(await everyRow(target.database)).toEqual(before);
    expect(counts.tables.stories).toBe(3);
    expect(counts.rows).toBe(Object.values(before).reduce((sum, rows) => sum + rows.length, 0));
    const biggest = Math.max(...before.stories!.map((row) => (JSON.parse(row) as { id: number }).id));
    const added = await makeStory(target.database.db);
    expect(added.id).toBe(biggest + 1);
  });

  test("a large table loads with its indexes built again after its rows, as they were", async () => {
    await t.database.exec(`
      INSERT INTO stories (title, summary, original_url, normalized_url, url_hash, slug, status, publish_date)
      SELECT 'Large ' || i, 'Summary ' || i, 'https://large.example/' || i, 'https://large.example/' || i, md5('large' || i), 'large-' || i,
             'published', now() - i * interval '1 minute'
      FROM generate_series(1, 6000) i`);
    const indexesOf = async (database: Database) =>
      rowsOf(await database.db.execute(sql`SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' ORDER BY indexname`));
    const before = await everyRow(t.database);
    const indexes = await indexesOf(target.database);

    await importSnapshot(target.database, Readable.from([await snapshotOf(t.database)]));

    expect(await everyRow(target.database)).toEqual(before);
    expect(await indexesOf(target.database)).toEqual(indexes);
    const hit = await target.database.db.execute(sql`SELECT count(*)::int AS n FROM stories WHERE title ILIKE '%Large 599%'`);
    expect(rowsOf(hit)).toEqual([{ n: 11 }]);
  });

  test("a snapshot taken while the site writes is one point in time: never half of a pair written in one transaction", async () => {
    // Enough story text that a slow reader holds the export between audit_log's rows and users'.
    await t.database.exec(`
      INSERT INTO stories (title, original_url, normalized_url, url_hash, slug, status, content)
      SELECT 'Bulk ' || i, 'https://bulk.example/' || i, 'https://bulk.example/' || i, md5('bulk' || i), 'bulk-' || i, 'pending',
             (SELECT string_agg(md5(i::text || '-' || j), ' ') FROM generate_series(1, 120) j)
      FROM generate_series(1, 1500) i`);
    const writer = await t.openAnother();
    let stop = false;
    let committed = 0;
    const writing = (async () => {
      while (!stop) {
        const id = randomUUID();
        await writer.db.transaction(async (tx) => {
          await tx.execute(sql`INSERT INTO audit_log (action, entity_type, entity_id) VALUES ('pair', 'user', ${id})`);
          await tx.execute(sql`INSERT INTO users (id, name, email) VALUES (${id}, 'Pair', ${`${id}@pairs.test`})`);
        });
        committed++;
      }
    })();
    try {
      await expect.poll(() => committed, { timeout: 10_000 }).toBeGreaterThan(5);
      const atStart = committed;
      const bytes = await snapshotOf(t.database, 15);
      const during = committed - atStart;
      expect(during, "pairs written while the snapshot was taken").toBeGreaterThan(5);

      await importSnapshot(target.database, Readable.from([bytes]));
      const users = rowsOf(await target.database.db.execute(sql`SELECT id FROM users WHERE email LIKE '%@pairs.test' ORDER BY id`));
      const entries = rowsOf(await target.database.db.execute(sql`SELECT entity_id AS id FROM audit_log WHERE action = 'pair' ORDER BY entity_id`));
      expect(users.length).toBeGreaterThanOrEqual(atStart);
      expect(users).toEqual(entries);
    } finally {
      stop = true;
      await writing;
    }
  });

  test.each([
    ["cut in half", (bytes: Buffer) => bytes.subarray(0, Math.floor(bytes.length / 2))],
    ["without its last bytes (gzip's checksum)", (bytes: Buffer) => bytes.subarray(0, bytes.length - 4)],
    ["with a damaged row", (bytes: Buffer) => gzipSync(Buffer.from(gunzipSync(bytes).toString("utf8").replace("Animals", "Ani\tmals")))],
    ["with a row missing", (bytes: Buffer) => gzipSync(Buffer.from(gunzipSync(bytes).toString("utf8").replace(/\n[^\n]*admin@oddwire\.test[^\n]*/, "")))],
    ["without its trailer", (bytes: Buffer) => gzipSync(Buffer.from(gunzipSync(bytes).toString("utf8").replace(/\{"end"[^\n]*\n$/, "")))],
  ])("a snapshot %s is refused and the database is left as it was", async (_what, damage) => {
    await seedEveryTable(t.db);
    const bytes = await snapshotOf(t.database);
    const before = await targetWithRows();

    const error = await refusedWith(importSnapshot(target.database, Readable.from([damage(bytes)])), "BACKUP_DAMAGED");
    expect(error.message).toMatch(/cut short|damaged|cannot be (read|loaded)/);
    expect(await everyRow(target.database)).toEqual(before);
  });

  test.each([
    ["a file of other bytes", Buffer.from("this is not a snapshot at all\n")],
    ["a gzipped file of something else", gzipSync(Buffer.from('{"hello": "world"}\nmore\n'))],
    ["an empty file", Buffer.alloc(0)],
  ])("%s is not taken for a snapshot, and nothing changes", async (_what, bytes) => {
    const before = await targetWithRows();
    await refusedWith(importSnapshot(target.database, Readable.from([bytes])), "NOT_A_BACKUP");
    expect(await everyRow(target.database)).toEqual(before);
  });

  test("loading as a user who is not a superuser is refused with what it needs, and nothing changes", async () => {
    const bytes = await snapshotOf(t.database);
    const before = await targetWithRows();
    const role = `oddwire_t_plain_${process.pid}_${randomBytes(3).toString("hex")}`;
    const password = randomBytes(12).toString("hex");
    await target.database.exec(`CREATE ROLE ${role} LOGIN NOSUPERUSER PASSWORD '${password}'`);
    try {
      const url = new URL(target.database.connectionString);
      url.username = role;
      url.password = password;
      const plain = await openDatabase({ databaseUrl: url.toString(), poolSize: 1 });
      try {
        const error = await refusedWith(importSnapshot(plain, Readable.from([bytes])), "NEEDS_SUPERUSER");
        expect(error.message).toMatch(/superuser/);
      } finally {
        await plain.close();
      }
    } finally {
      await target.database.exec(`DROP ROLE ${role}`);
    }
    expect(await everyRow(target.database)).toEqual(before);
  });

  test("a snapshot from newer migrations than this database's is refused, and nothing changes", async () => {
    await seedEveryTable(t.db);
    await t.database.exec(`INSERT INTO drizzle.__drizzle_migrations (hash, created_at) VALUES ('${"f".repeat(64)}', 4102444800000)`);
    let bytes: Buffer;
    try {
      bytes = await snapshotOf(t.database);
    } finally {
      await t.database.exec("DELETE FROM drizzle.__drizzle_migrations WHERE created_at = 4102444800000");
    }
    const before = await targetWithRows();

    const error = await refusedWith(importSnapshot(target.database, Readable.from([bytes])), "BACKUP_FROM_NEWER_RELEASE");
    expect(error.message).toMatch(/newer release/);
    expect(await everyRow(target.database)).toEqual(before);
  });

  test("a snapshot of an older release loads into that release's schema, and the later migrations then run on its rows", async () => {
    const spec = inject("testDatabase");
    const name = `oddwire_t_old_${process.pid}_${randomBytes(3).toString("hex")}`;
    const admin = await openDatabase({ databaseUrl: spec.url, poolSize: 1 });
    const earlier = migrationsWithoutLast();
    let bytes: Buffer;
    let rows: Record<string, string[]>;
    try {
      await admin.exec(createDatabaseSql(name));
      const older = await openDatabase({ databaseUrl: adminUrl(spec.url, name), poolSize: 2 });
      try {
        await migrate(drizzle(older.pool), { migrationsFolder: earlier.folder });
        await seedEarlierRelease(older);
        rows = await everyRow(older);
        bytes = await snapshotOf(older);
      } finally {
        await older.close();
      }
    } finally {
      earlier.remove();
      await admin.exec(dropDatabaseSql(name));
      await admin.close();
    }
    await targetWithRows();
    const journal = rowsOf(await target.database.db.execute(sql`SELECT hash, created_at FROM drizzle.__drizzle_migrations ORDER BY created_at`));

    await importSnapshot(target.database, Readable.from([bytes]));

    expect(parsedRows(await everyRow(target.database))).toEqual(afterLastMigration(rows));
    expect(rowsOf(await target.database.db.execute(sql`SELECT hash, created_at FROM drizzle.__drizzle_migrations ORDER BY created_at`))).toEqual(journal);
    const schema = await target.database.db.execute(sql`SELECT nspowner::regrole::text AS owner, nspacl::text AS acl FROM pg_namespace WHERE nspname = 'public'`);
    expect(rowsOf(schema)).toEqual([{ owner: "pg_database_owner", acl: "{pg_database_owner=UC/pg_database_owner,=U/pg_database_owner}" }]);
    const story = (JSON.parse(rows.stories![0]!) as { id: number }).id;
    expect((await makeStory(target.database.db)).id).toBe(story + 1);
  });
});
