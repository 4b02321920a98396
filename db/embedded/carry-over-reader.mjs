// Child process of db/embedded/carry-over.ts: opens a PGlite data directory of an earlier release
// and writes a table snapshot of it (the format of db/snapshot.ts, version 1) to stdout. Plain
// JavaScript that imports PGlite, so the server's own process never loads it.
//
//   node carry-over-reader.mjs PGLITE_DIR
//
// The data is read at the migrations it is at (importSnapshot brings an earlier release's forward),
// read-only: the files stay as the earlier release left them. On failure: one JSON line
// {"error": ...} on stderr, exit code 1, and a stream without its trailer (which the import refuses).
import { once } from "node:events";
import { pipeline } from "node:stream/promises";
import { createGzip } from "node:zlib";
import { MIGRATIONS_SQL, SEQUENCES_SQL, SESSION_SETTINGS, SNAPSHOT_FORMAT, SNAPSHOT_VERSION, TABLES_SQL } from "../snapshot-catalog.mjs";

// Pages of a table copied per COPY: a bounded piece of it in memory at a time.
const PAGES_PER_PIECE = 512;

const ident = (name) => `"${name.replace(/"/g, '""')}"`;

function newlines(bytes) {
  let count = 0;
  for (let at = bytes.indexOf(10); at >= 0; at = bytes.indexOf(10, at + 1)) count++;
  return count;
}

async function open(PGlite, options) {
  // The extensions the schema's indexes and functions use, as db/pglite-thread-worker.mjs loads them.
  const [{ fuzzystrmatch }, { pg_trgm }, { unaccent }] = await Promise.all([
    import("@electric-sql/pglite/contrib/fuzzystrmatch"),
    import("@electric-sql/pglite/contrib/pg_trgm"),
    import("@electric-sql/pglite/contrib/unaccent"),
  ]);
  return PGlite.create({ ...options, extensions: { pg_trgm, unaccent, fuzzystrmatch } });
}

async function main() {
  const [pgliteDir] = process.argv.slice(2);
  if (!pgliteDir) throw new Error("usage: carry-over-reader.mjs PGLITE_DIR");
  const { PGlite } = await import("@electric-sql/pglite");
  const pg = await open(PGlite, { dataDir: pgliteDir });

  const gzip = createGzip({ level: 6 });
  const sent = pipeline(gzip, process.stdout);
  const write = async (bytes) => {
    if (!gzip.write(bytes)) await once(gzip, "drain");
  };
  try {
    await pg.exec(`BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY; ${SESSION_SETTINGS}`);
    const server = (await pg.query("SELECT current_setting('server_version') AS v")).rows[0].v;
    const migrations = (await pg.query(MIGRATIONS_SQL)).rows;
    const tables = [];
    for (const row of (await pg.query(TABLES_SQL)).rows) {
      const counted = await pg.query(`SELECT count(*)::text AS n FROM public.${ident(row.name)}`);
      const pages = await pg.query(`SELECT (pg_relation_size('public.${ident(row.name).replace(/'/g, "''")}') / current_setting('block_size')::int)::int AS n`);
      tables.push({ name: row.name, columns: row.columns, rows: Number(counted.rows[0].n), pages: pages.rows[0].n });
    }
    const sequences = [];
    for (const { name } of (await pg.query(SEQUENCES_SQL)).rows) {
      const { rows } = await pg.query(`SELECT last_value::text AS "lastValue", is_called AS "isCalled" FROM public.${ident(name)}`);
      sequences.push({ name, lastValue: rows[0].lastValue, isCalled: rows[0].isCalled });
    }
    const header = {
      format: SNAPSHOT_FORMAT,
      version: SNAPSHOT_VERSION,
      takenAt: new Date().toISOString(),
      server,
      migrations,
      tables: tables.map(({ name, columns, rows }) => ({ name, columns, rows })),
      sequences,
    };
    await write(Buffer.from(`${JSON.stringify(header)}\n`));

    let total = 0;
    for (const table of tables) {
      const columns = table.columns.map((column) => ident(column.name)).join(", ");
      let lines = 0;
      // PGlite has COPY TO a blob, not a stream: the table is read a range of pages at a time (a TID
      // range scan), the last range open-ended.
      for (let from = 0; from === 0 || from < table.pages; from += PAGES_PER_PIECE) {
        const upper = from + PAGES_PER_PIECE < table.pages ? ` AND ctid < '(${from + PAGES_PER_PIECE},0)'::tid` : "";
        const result = await pg.query(`COPY (SELECT ${columns} FROM public.${ident(table.name)} WHERE ctid >= '(${from},0)'::tid${upper}) TO '/dev/blob'`);
        if (!result.blob) continue;
        const bytes = Buffer.from(await result.blob.arrayBuffer());
        lines += newlines(bytes);
        await write(bytes);
      }
      if (lines !== table.rows) throw new Error(`table ${table.name}: counted ${table.rows} rows but copied ${lines}`);
      total += lines;
    }
    await write(Buffer.from(`${JSON.stringify({ end: SNAPSHOT_FORMAT, tables: tables.length, rows: total })}\n`));
    await pg.exec("COMMIT");
    gzip.end();
    await sent;
  } catch (error) {
    gzip.destroy();
    await sent.catch(() => {});
    throw error;
  } finally {
    await pg.close();
  }
}

main().then(
  () => {
    // maxRSS is in kilobytes: what reading through PGlite took, for the log.
    process.stderr.write(`${JSON.stringify({ done: true, maxRssMb: Math.round(process.resourceUsage().maxRSS / 1024) })}\n`);
  },
  (error) => {
    process.stderr.write(`${JSON.stringify({ error: error instanceof Error ? error.message : String(error) })}\n`);
    process.exitCode = 1;
  },
);
