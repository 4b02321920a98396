import { and, inArray, isNotNull, isNull, lt, or, type SQL } from "drizzle-orm";
import type { PgColumn, PgTable, PgUpdateSetSource } from "drizzle-orm/pg-core";
import type { Db } from "../client";

/**
 * A table whose rows are leased: taken by one process at a time for a while (`lease_until`), renewed by
 * that process while it works, and given back when it is done. A lease that is not renewed lapses by
 * itself, so the work of a process that died (kill -9, a lost machine) is free again soon after.
 * Sources (feed ingestion, URL discovery), sites' origins (the politeness gate) and jobs are leased
 * through this one helper. Times are the caller's clock (tests move it) or the database's (`sql\`now()\``),
 * when processes on several machines must agree.
 */
type When = Date | SQL;
type LeasedTable = PgTable & { leaseUntil: PgColumn };

export type Leases<TTable extends LeasedTable, TKey extends string | number, TRow> = {
  /**
   * Leases the rows matching `where` whose lease is free (never taken, or lapsed before `now`) until
   * `until`, setting `set` on them too. Rows another process is taking at the same moment are skipped
   * (SKIP LOCKED), so two processes never hold one row.
   */
  claim(input: { where: SQL[]; now: When; until: When; orderBy?: SQL[]; set?: PgUpdateSetSource<TTable> }): Promise<TRow[]>;
  /** Extends the leases still held (not given back, and matching `where`) to `until`; returns the keys renewed. */
  renew(keys: TKey[], until: When, where?: SQL[]): Promise<TKey[]>;
  /** Gives rows back at once, setting `set` on them too. */
  release(keys: TKey[], set?: PgUpdateSetSource<TTable>): Promise<void>;
  /** The condition "its lease lapsed before `now`" (never taken counts as lapsed). */
  lapsed(now: When): SQL;
};

export function leasesOf<TTable extends LeasedTable, TKey extends string | number>(
  db: Db,
  table: TTable,
  key: PgColumn,
): Leases<TTable, TKey, TTable["$inferSelect"]> {
  const leaseUntil = table.leaseUntil;
  const lapsed = (now: When) => or(isNull(leaseUntil), lt(leaseUntil, now))!;
  const setLease = (until: When | null, set?: PgUpdateSetSource<TTable>) => ({ ...set, leaseUntil: until }) as PgUpdateSetSource<TTable>;
  return {
    lapsed,
    claim: (input) =>
      db.transaction(async (tx) => {
        const free = await tx
          .select({ key })
          .from(table as PgTable)
          .where(and(...input.where, lapsed(input.now)))
          .orderBy(...(input.orderBy ?? [key]))
          .for("update", { skipLocked: true });
        if (free.length === 0) return [];
        const rows = await tx
          .update(table)
          .set(setLease(input.until, input.set))
          .where(inArray(key, free.map((row) => row.key)))
          .returning();
        return rows as TTable["$inferSelect"][];
      }),
    async renew(keys, until, where = []) {
      if (keys.length === 0) return [];
      const rows = await db
        .update(table)
        .set(setLease(until))
        .where(and(inArray(key, keys), isNotNull(leaseUntil), ...where))
        .returning({ key });
      return rows.map((row) => row.key as TKey);
    },
    async release(keys, set) {
      if (keys.length === 0) return;
      await db.update(table).set(setLease(null, set)).where(inArray(key, keys));
    },
  };
}
