import type { PGliteThread } from "~/db/pglite-thread";

/** What pg-boss's `db` option expects, plus a way to wait for queries still in flight. */
export type SqlExecutor = {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[]; rowCount: number } | undefined>;
  /** Stops running new queries and waits for the ones already running. */
  close(): Promise<void>;
};

/**
 * Runs pg-boss's SQL on the embedded database's single connection: parameterised statements
 * through `query`, multi-statement scripts (schema install, locked maintenance) through `exec`.
 */
export function pgliteExecutor(pglite: PGliteThread): SqlExecutor {
  const inFlight = new Set<Promise<unknown>>();
  let closed = false;

  async function run(text: string, values: unknown[] | undefined) {
    try {
      if (values && values.length > 0) {
        const result = await pglite.query(text, values);
        return { rows: result.rows, rowCount: result.affectedRows ?? result.rows.length };
      }
      const results = await pglite.exec(text);
      const last = [...results].reverse().find((r) => r.fields.length > 0);
      const affected = results.reduce((sum, r) => sum + (r.affectedRows ?? 0), 0);
      return { rows: last?.rows ?? [], rowCount: last ? (last.affectedRows ?? last.rows.length) : affected };
    } catch (error) {
      // A failed statement inside BEGIN ... COMMIT leaves the one connection aborted for everyone.
      if (pglite.isInTransaction()) await pglite.exec("ROLLBACK");
      throw error;
    }
  }

  return {
    executeSql(text, values) {
      // Like pg-boss's own pool once closed: no result, which its late callers already tolerate.
      if (closed) return Promise.resolve(undefined);
      const pending = run(text, values);
      inFlight.add(pending);
      void pending.then(
        () => inFlight.delete(pending),
        () => inFlight.delete(pending),
      );
      return pending;
    },
    async close() {
      closed = true;
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
  };
}
