import os from "node:os";
import path from "node:path";

// Every worker has a server of its own, on its own database (the embedded server in a data dir, or a
// database on TEST_DATABASE_URL's server), so one worker's edits never show in another's pages.
// Change the worker count with E2E_WORKERS: each slot needs its server started before the tests.
export const workers = Number(process.env.E2E_WORKERS ?? 2);
if (!Number.isInteger(workers) || workers < 1) throw new Error(`E2E_WORKERS must be a positive integer, not ${process.env.E2E_WORKERS}`);

// Fixed once for the whole run: workers re-evaluate this file but inherit the environment. The ports
// sit below Linux's ephemeral range (32768+), so no outgoing connection can hold them.
process.env.E2E_BASE_PORT ??= String(20_000 + Math.floor(Math.random() * 12_000));
process.env.E2E_RUN_ID ??= `${process.pid}`;
process.env.E2E_RUN_STARTED ??= `${Date.now()}`;
const basePort = Number(process.env.E2E_BASE_PORT);
const runId = process.env.E2E_RUN_ID;

/** The server of one worker slot (Playwright's parallel index, kept by a worker that restarts). */
function slot(index: number) {
  const port = basePort + index;
  const run = path.join(os.tmpdir(), `oddwire-e2e-${runId}-${process.env.E2E_RUN_STARTED}-w${index}`);
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    dataDir: run,
    databaseName: `oddwire_e2e_${runId}_w${index}`,
    /** The fixtures' admin signed in on this slot's server (e2e/admin-session.setup.ts), as Playwright stores it. */
    adminSession: `${run}-admin-session.json`,
  };
}
export const slots = Array.from({ length: workers }, (_, index) => slot(index));

/** This worker's slot; undefined in Playwright's main process. */
export function mySlot() {
  const parallelIndex = process.env.TEST_PARALLEL_INDEX;
  if (parallelIndex === undefined) return undefined;
  const mine = slots[Number(parallelIndex)];
  if (!mine) throw new Error(`no server for worker ${parallelIndex}: set E2E_WORKERS (now ${workers}), or pass --workers to scripts/e2e.mjs`);
  return mine;
}
