import { Readable, type Writable } from "node:stream";
import { finished, pipeline } from "node:stream/promises";
import { createGunzip, createGzip } from "node:zlib";
import type pg from "pg";
import { from as copyFrom, to as copyTo } from "pg-copy-streams";
import type { Database } from "./client";
import { MIGRATIONS_SQL, SEQUENCES_SQL, SESSION_SETTINGS, SNAPSHOT_FORMAT, SNAPSHOT_VERSION, TABLES_SQL } from "./snapshot-catalog.mjs";
import { HEADER_START, MAX_HEADER_BYTES, parseHeader, SnapshotError, type SnapshotColumn, type SnapshotCounts, type SnapshotHeader, type SnapshotMigration, type SnapshotSequence, type SnapshotTable } from "./snapshot-format";
import { applyMigrations, migrationsBehind, rebuildSchemaAt, releaseMigrations } from "./snapshot-migrations";

// A snapshot of every table of the database, as one gzipped stream:
//
//   line 1         the header, JSON: format and version, the migrations journal, every table of
//                  schema public with its columns and row count, every sequence's value
//   then           each table's rows in the header's order, in COPY's text format: one line per row
//                  (COPY escapes newlines inside values), exactly the header's count of lines
//   last line      the trailer, JSON: {"end": "oddwire-snapshot", "tables": n, "rows": total}
//
// COPY's text format is PostgreSQL's own, version-independent text of each value, so a snapshot
// taken from one server version (PGlite's 18, say) loads into another (17). db/embedded/
// carry-over-reader.mjs writes the same format from PGlite, with the same catalog queries
// (./snapshot-catalog.mjs).

// The indexes of a table that no constraint owns (constraints' indexes stay: primary keys, unique
// constraints), with the statement that builds each again.
const LOOSE_INDEXES_SQL = `
  SELECT format('%I.%I', n.nspname, c.relname) AS name, pg_get_indexdef(i.indexrelid) AS definition
  FROM pg_index i
  JOIN pg_class c ON c.oid = i.indexrelid
  JOIN pg_namespace n ON n.oid = c.relnamespace
  WHERE i.indrelid = $1::regclass AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = i.indexrelid)
  ORDER BY c.relname`;
// A table with at least this many rows is loaded without its loose indexes, which are built again
// after: one sorted build instead of an insertion per row into each (GIN above all).
const REBUILD_INDEXES_FROM_ROWS = 5_000;

/** An identifier quoted for SQL. */
function ident(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

function columnList(columns: SnapshotColumn[]): string {
  return columns.map((column) => ident(column.name)).join(", ");
}

function newlines(chunk: Buffer): number {
  let count = 0;
  for (let at = chunk.indexOf(10); at >= 0; at = chunk.indexOf(10, at + 1)) count++;
  return count;
}

/**
 * Writes a consistent snapshot of every table (and the migrations journal and sequences) to `out`,
 * gzipped, streamed table by table (`out` is ended when it is written). One REPEATABLE READ READ
 * ONLY transaction on one connection reads everything, so the snapshot is one point in time while
 * the site goes on writing.
 */
export async function exportSnapshot(database: Database, out: Writable): Promise<SnapshotCounts> {
  const client = await database.pool.connect();
  let healthy = false;
  try {
    await client.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
    await client.query(SESSION_SETTINGS);
    const header = await readHeader(client);
    const counts = countsOf(header);

    async function* body() {
      yield Buffer.from(`${JSON.stringify(header)}\n`);
      for (const table of header.tables) {
        const stream = client.query(copyTo(`COPY public.${ident(table.name)} (${columnList(table.columns)}) TO STDOUT`));
        let lines = 0;
        for await (const chunk of stream as AsyncIterable<Buffer>) {
          lines += newlines(chunk);
          yield chunk;
        }
        // The count and the COPY read the same transaction's snapshot: they cannot differ.
        if (lines !== table.rows) throw new Error(`table ${table.name}: counted ${table.rows} rows but copied ${lines}`);
      }
      yield Buffer.from(`${JSON.stringify({ end: SNAPSHOT_FORMAT, tables: header.tables.length, rows: counts.rows })}\n`);
    }
    await pipeline(Readable.from(body()), createGzip({ level: 6 }), out);
    await client.query("COMMIT");
    healthy = true;
    return counts;
  } finally {
    // A connection left inside a COPY or a transaction is closed, not given back to the pool.
    client.release(healthy ? undefined : true);
  }
}

async function readHeader(client: pg.PoolClient): Promise<SnapshotHeader> {
  const server = (await client.query<{ v: string }>("SELECT current_setting('server_version') AS v")).rows[0]?.v ?? "";
  const migrations = (await client.query<SnapshotMigration>(MIGRATIONS_SQL)).rows;
  const tables: SnapshotTable[] = [];
  for (const row of (await client.query<{ name: string; columns: SnapshotColumn[] }>(TABLES_SQL)).rows) {
    const counted = await client.query<{ n: string }>(`SELECT count(*) AS n FROM public.${ident(row.name)}`);
    tables.push({ name: row.name, columns: row.columns, rows: Number(counted.rows[0]?.n ?? 0) });
  }
  // Sequences are not transactional: a value read now is at least every id the snapshot's rows hold.
  const sequences: SnapshotSequence[] = [];
  for (const { name } of (await client.query<{ name: string }>(SEQUENCES_SQL)).rows) {
    const value = await client.query<{ last_value: string; is_called: boolean }>(`SELECT last_value::text, is_called FROM public.${ident(name)}`);
    const row = value.rows[0];
    if (row) sequences.push({ name, lastValue: row.last_value, isCalled: row.is_called });
  }
  return { format: SNAPSHOT_FORMAT, version: SNAPSHOT_VERSION, takenAt: new Date().toISOString(), server, migrations, tables, sequences };
}

function countsOf(header: SnapshotHeader): SnapshotCounts {
  const tables = Object.fromEntries(header.tables.map((table) => [table.name, table.rows]));
  return { tables, rows: header.tables.reduce((sum, table) => sum + table.rows, 0), migrations: header.migrations.length, migrationsRun: 0 };
}

/** Writes to a stream and waits while it is full; throws its error, if it failed before or meanwhile. */
async function written(sink: Writable, part: Buffer): Promise<void> {
  if (sink.errored) throw sink.errored;
  if (sink.write(part)) return;
  await new Promise<void>((resolve, reject) => {
    const done = (error?: Error | null) => {
      sink.off("drain", onDrain).off("close", onClose);
      if (error) reject(error);
      else resolve();
    };
    const onDrain = () => done();
    const onClose = () => done(sink.errored ?? new Error("the COPY stream closed"));
    sink.on("drain", onDrain).on("close", onClose);
    if (sink.destroyed) onClose();
  });
}

/** Reads a gunzipped snapshot: its lines (header, trailer) and runs of row lines, from one stream of chunks. */
class SnapshotReader {
  readonly #chunks: AsyncIterator<Buffer>;
  #pending: Buffer = Buffer.alloc(0);

  constructor(input: AsyncIterable<Buffer>) {
    this.#chunks = input[Symbol.asyncIterator]();
  }

  async #more(): Promise<boolean> {
    let next: IteratorResult<Buffer>;
    try {
      next = await this.#chunks.next();
    } catch (error) {
      throw new SnapshotError("BACKUP_DAMAGED", `The snapshot cannot be read to its end: ${(error as Error).message}`, { cause: error });
    }
    if (next.done) return false;
    this.#pending = this.#pending.length === 0 ? next.value : Buffer.concat([this.#pending, next.value]);
    return true;
  }

  /** The next line, without its newline; null at the end of the stream. */
  async line(limit: number): Promise<string | null> {
    for (;;) {
      const end = this.#pending.indexOf(10);
      if (end >= 0) {
        const text = this.#pending.subarray(0, end).toString("utf8");
        this.#pending = this.#pending.subarray(end + 1);
        return text;
      }
      if (this.#pending.length > limit) return null;
      if (!(await this.#more())) return null;
    }
  }

  /** Writes the next `rows` lines to `sink`, heeding its backpressure; false when the stream ends first. */
  async rows(rows: number, sink: Writable): Promise<boolean> {
    let left = rows;
    while (left > 0) {
      if (this.#pending.length === 0 && !(await this.#more())) return false;
      let cut = -1;
      for (let at = this.#pending.indexOf(10); at >= 0; at = this.#pending.indexOf(10, at + 1)) {
        if (--left === 0) {
          cut = at + 1;
          break;
        }
      }
      const part = cut < 0 ? this.#pending : this.#pending.subarray(0, cut);
      this.#pending = cut < 0 ? Buffer.alloc(0) : this.#pending.subarray(cut);
      await written(sink, part);
    }
    return true;
  }

  /** Whether what was read so far, and not taken yet, starts with `prefix`. */
  startsWith(prefix: string): boolean {
    return this.#pending.length >= prefix.length && this.#pending.subarray(0, prefix.length).toString("utf8") === prefix;
  }

  /** Whether anything but the end of the stream is left (reading to the end checks gzip's checksum). */
  async atEnd(): Promise<boolean> {
    while (this.#pending.length === 0) if (!(await this.#more())) return true;
    return false;
  }
}

/** Refuses a snapshot whose tables or columns are not the database's. */
function checkTables(snapshot: SnapshotTable[], database: { name: string; columns: SnapshotColumn[] }[]): void {
  const describe = (tables: { name: string; columns: SnapshotColumn[] }[]) =>
    new Map(tables.map((t) => [t.name, t.columns.map((c) => `${c.name} ${c.type}`).sort().join(", ")]));
  const ours = describe(database);
  const theirs = describe(snapshot);
  const differ = [...new Set([...ours.keys(), ...theirs.keys()])].filter((name) => ours.get(name) !== theirs.get(name)).sort();
  if (differ.length > 0) {
    throw new SnapshotError("BACKUP_OTHER_SCHEMA", `The snapshot's tables differ from this database's (${differ.join(", ")}): it cannot be loaded here.`);
  }
}

/**
 * Replaces every table's rows with a snapshot's, in one transaction; on any failure (a damaged or
 * cut-short file, a refusal) nothing is changed. The database must be at this release's migrations.
 * A snapshot at the same migrations loads as it is; one of an older release loads into schema public
 * made anew at that release's migrations, and the later ones then run on its rows; one of a newer
 * release, or of another history, is refused.
 * Triggers and foreign keys are off while the rows go in (session_replication_role = replica, which
 * needs a superuser): the snapshot is one consistent point in time, its load order does not matter,
 * and the counts triggers keep (category_story_counts) come with it as they were.
 */
export async function importSnapshot(database: Database, input: Readable): Promise<SnapshotCounts> {
  const gunzip = createGunzip();
  // Errors surface through the reader; the pipeline's own rejection only repeats them.
  const piped = pipeline(input, gunzip).catch(() => {});
  const reader = new SnapshotReader(gunzip);
  const client = await database.pool.connect();
  let healthy = false;
  let copying = false;
  try {
    let first: string | null;
    try {
      first = await reader.line(MAX_HEADER_BYTES);
    } catch (error) {
      if (reader.startsWith(HEADER_START)) throw error;
      throw new SnapshotError("NOT_A_BACKUP", "The file is not an Oddwire snapshot (it is not gzip, or not of a snapshot).", { cause: error });
    }
    if (first === null && reader.startsWith(HEADER_START)) throw new SnapshotError("BACKUP_DAMAGED", "The snapshot is cut short: it ends inside its header.");
    const header = parseHeader(first);

    await client.query("BEGIN");
    await client.query(SESSION_SETTINGS);
    try {
      await client.query("SET LOCAL session_replication_role = replica");
    } catch (error) {
      throw new SnapshotError("NEEDS_SUPERUSER", "Loading a snapshot needs a PostgreSQL superuser (it turns triggers and foreign keys off while it loads).", {
        cause: error,
      });
    }
    const migrations = (await client.query<SnapshotMigration>(MIGRATIONS_SQL)).rows;
    const behind = migrationsBehind(header.migrations, migrations);
    // An older release's snapshot: its rows go into the schema that release had, then this release's
    // migrations that came after run on them, as an upgrade would.
    const release = behind === null ? [] : releaseMigrations(behind, migrations);
    if (behind !== null) await rebuildSchemaAt(client, release.slice(0, behind));
    checkTables(header.tables, (await client.query<{ name: string; columns: SnapshotColumn[] }>(TABLES_SQL)).rows);
    const ours = new Set((await client.query<{ name: string }>(SEQUENCES_SQL)).rows.map((row) => row.name));
    const strangers = header.sequences.filter((sequence) => !ours.has(sequence.name)).map((sequence) => sequence.name);
    if (strangers.length > 0) throw new SnapshotError("BACKUP_OTHER_SCHEMA", `The snapshot has sequences this database lacks: ${strangers.join(", ")}.`);

    if (header.tables.length > 0) await client.query(`TRUNCATE ${header.tables.map((table) => `public.${ident(table.name)}`).join(", ")}`);
    await client.query("SET LOCAL maintenance_work_mem = '256MB'");
    for (const table of header.tables) {
      const indexes =
        table.rows >= REBUILD_INDEXES_FROM_ROWS
          ? (await client.query<{ name: string; definition: string }>(LOOSE_INDEXES_SQL, [`public.${ident(table.name)}`])).rows
          : [];
      for (const index of indexes) await client.query(`DROP INDEX ${index.name}`);
      const sink = client.query(copyFrom(`COPY public.${ident(table.name)} (${columnList(table.columns)}) FROM STDIN`));
      // Its error is thrown where it is awaited (written, finished); without a listener it would crash the process.
      sink.on("error", () => {});
      let complete: boolean;
      copying = true;
      try {
        complete = await reader.rows(table.rows, sink);
        if (complete) {
          sink.end();
          await finished(sink);
          copying = false;
        }
      } catch (error) {
        sink.destroy();
        if (error instanceof SnapshotError) throw error;
        throw new SnapshotError("BACKUP_DAMAGED", `The snapshot's rows of ${table.name} cannot be loaded: ${(error as Error).message}`, { cause: error });
      }
      if (!complete) {
        sink.destroy();
        throw new SnapshotError("BACKUP_DAMAGED", `The snapshot is cut short: it ends inside the rows of ${table.name}.`);
      }
      try {
        for (const index of indexes) await client.query(index.definition);
      } catch (error) {
        // A unique index that no constraint owns, say, refusing the rows.
        throw new SnapshotError("BACKUP_DAMAGED", `The snapshot's rows of ${table.name} cannot be indexed: ${(error as Error).message}`, { cause: error });
      }
    }
    for (const sequence of header.sequences) {
      await client.query("SELECT setval($1::regclass, $2::bigint, $3)", [`public.${ident(sequence.name)}`, sequence.lastValue, sequence.isCalled]);
    }

    let trailer: { end?: unknown; tables?: unknown; rows?: unknown } | undefined;
    try {
      const line = await reader.line(64 * 1024);
      trailer = line === null ? undefined : (JSON.parse(line) as typeof trailer);
    } catch (error) {
      if (error instanceof SnapshotError) throw error;
      trailer = undefined;
    }
    if (trailer?.end !== SNAPSHOT_FORMAT || trailer.tables !== header.tables.length || trailer.rows !== countsOf(header).rows) {
      throw new SnapshotError("BACKUP_DAMAGED", "The snapshot is cut short or damaged: its end is missing.");
    }
    if (!(await reader.atEnd())) throw new SnapshotError("BACKUP_DAMAGED", "The snapshot has data after its end.");
    if (behind !== null) {
      // Migrations run as they do on a live database: triggers and foreign keys on.
      await client.query("SET LOCAL session_replication_role = origin");
      try {
        await applyMigrations(client, release.slice(behind));
      } catch (error) {
        throw new SnapshotError(
          "BACKUP_FROM_OLDER_RELEASE",
          `The snapshot of an older release loaded, but this release's later migrations failed on its rows: ${(error as Error).message}`,
          { cause: error },
        );
      }
    }
    await client.query("COMMIT");
    healthy = true;
    return { ...countsOf(header), migrationsRun: behind === null ? 0 : release.length - behind };
  } finally {
    if (!healthy) {
      input.destroy();
      gunzip.destroy();
    }
    await piped;
    // A connection cut off inside a COPY is closed, which rolls its transaction back.
    const reusable = healthy || (!copying && (await client.query("ROLLBACK").then(() => true, () => false)));
    client.release(reusable ? undefined : true);
  }
}
