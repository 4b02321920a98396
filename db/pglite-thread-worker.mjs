// Worker thread of db/pglite-thread.ts: holds the embedded database (PGlite) and runs what the main
// thread asks of it, one message per call. Plain JavaScript that imports only PGlite, so it starts
// the same way from the sources, the server bundle, the tests and the benchmarks (decision 019).
import { parentPort, workerData } from "node:worker_threads";

const [{ PGlite }, { fuzzystrmatch }, { pg_trgm }, { unaccent }] = await Promise.all([
  import("@electric-sql/pglite"),
  import("@electric-sql/pglite/contrib/fuzzystrmatch"),
  import("@electric-sql/pglite/contrib/pg_trgm"),
  import("@electric-sql/pglite/contrib/unaccent"),
]);

/** An error as plain data: its message, name, stack and PostgreSQL's fields (code, detail, ...). */
function plainError(error) {
  if (!(error instanceof Error)) return { message: String(error), name: "Error" };
  const fields = {};
  for (const [key, value] of Object.entries(error)) {
    if (value === undefined || typeof value === "function" || typeof value === "object") continue;
    fields[key] = value;
  }
  return { ...fields, message: error.message, name: error.name, stack: error.stack };
}

let pg;
try {
  const { dataDir, dump, postgresqlConf } = workerData;
  pg = await PGlite.create({
    ...(dataDir ? { dataDir } : {}),
    ...(dump ? { loadDataDir: new Blob([dump]) } : {}),
    ...(postgresqlConf ? { postgresqlconf: postgresqlConf } : {}),
    extensions: { pg_trgm, unaccent, fuzzystrmatch },
  });
} catch (error) {
  parentPort.postMessage({ failed: plainError(error) });
  parentPort.close();
}

const identity = (value) => value;
/** Open transactions by the id of the call that began them. */
const transactions = new Map();
const ROLLBACK = Symbol("rollback");

/**
 * Query options that can cross a thread. Columns of the types whose parsers the caller gave come
 * back as PostgreSQL's text, and the caller's own parsers are applied on its side.
 */
function queryOptions(message) {
  const options = {};
  if (message.rowMode) options.rowMode = message.rowMode;
  if (message.textOids) options.parsers = Object.fromEntries(message.textOids.map((oid) => [oid, identity]));
  return options;
}

/** A query's result without what cannot be posted (a COPY's blob). */
function plainResult(result) {
  const { rows, fields, affectedRows, command, rowCount } = result;
  return { rows, fields, affectedRows, command, rowCount };
}

function reply(id, outcome) {
  parentPort.postMessage({ id, ...outcome, inTransaction: pg.isInTransaction() });
}

function begin(id) {
  let finish;
  const finished = new Promise((resolve, reject) => {
    finish = (commit) => (commit ? resolve() : reject(ROLLBACK));
  });
  const record = { tx: null, finish, endId: null };
  pg.transaction(async (tx) => {
    record.tx = tx;
    transactions.set(id, record);
    reply(id, { ok: true, result: null });
    await finished;
  }).then(
    () => {
      transactions.delete(id);
      reply(record.endId, { ok: true, result: null });
    },
    (error) => {
      transactions.delete(id);
      // Failed before it began: the begin call is still waiting for its answer.
      if (record.tx === null) reply(id, { ok: false, error: plainError(error) });
      else if (error === ROLLBACK) reply(record.endId, { ok: true, result: null });
      else reply(record.endId, { ok: false, error: plainError(error) });
    },
  );
}

async function run(message) {
  const target = message.tx === undefined ? pg : transactions.get(message.tx)?.tx;
  if (!target) throw new Error("that transaction has ended");
  switch (message.op) {
    case "query":
      return plainResult(await target.query(message.sql, message.params, queryOptions(message)));
    case "exec":
      return (await target.exec(message.sql, queryOptions(message))).map(plainResult);
    case "dump": {
      const file = await pg.dumpDataDir(message.compression);
      return { bytes: await file.arrayBuffer(), name: file.name, type: file.type };
    }
    default:
      throw new Error(`unknown call: ${message.op}`);
  }
}

if (pg) {
  parentPort.on("message", (message) => {
    if (message.op === "begin") return begin(message.id);
    if (message.op === "end") {
      const record = transactions.get(message.tx);
      if (!record) return reply(message.id, { ok: false, error: { message: "that transaction has ended", name: "Error" } });
      record.endId = message.id;
      record.finish(message.commit);
      return;
    }
    if (message.op === "close") {
      void pg.close().then(
        () => {
          parentPort.postMessage({ id: message.id, ok: true, result: null, inTransaction: false });
          parentPort.close();
        },
        (error) => parentPort.postMessage({ id: message.id, ok: false, error: plainError(error), inTransaction: false }),
      );
      return;
    }
    run(message).then(
      (result) => {
        if (message.op === "dump") {
          parentPort.postMessage({ id: message.id, ok: true, result, inTransaction: pg.isInTransaction() }, [result.bytes]);
        } else reply(message.id, { ok: true, result });
      },
      (error) => reply(message.id, { ok: false, error: plainError(error) }),
    );
  });
  parentPort.postMessage({ ready: true });
}
