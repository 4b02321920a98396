import { and, asc, inArray, isNotNull, isNull, lt, or, sql, type SQL } from "drizzle-orm";
import type { Db } from "../client";
import { sources } from "../schema";

/**
 * Takes the sources matching `conditions` whose lease is free, oldest next check first, and leases
 * them until `leaseUntil`: rows another runner is taking at the same moment are skipped (SKIP LOCKED),
 * so two runners never hold one source. The lease expires by itself if its runner dies.
 */
export function claimSourceLeases(db: Db, input: { conditions: SQL[]; now: Date; leaseUntil: Date }) {
  return db.transaction(async (tx) => {
    const free = await tx
      .select({ id: sources.id })
      .from(sources)
      .where(and(...input.conditions, or(isNull(sources.leaseUntil), lt(sources.leaseUntil, input.now))))
      .orderBy(sql`${sources.nextCheckAt} ASC NULLS FIRST`, asc(sources.id))
      .for("update", { skipLocked: true });
    if (free.length === 0) return [];
    return tx
      .update(sources)
      .set({ leaseUntil: input.leaseUntil })
      .where(inArray(sources.id, free.map((r) => r.id)))
      .returning();
  });
}

/** Extends the leases of sources still held (not yet finished or given back) to `leaseUntil`. */
export async function renewSourceLeases(db: Db, sourceIds: number[], leaseUntil: Date): Promise<void> {
  if (sourceIds.length === 0) return;
  await db.update(sources).set({ leaseUntil }).where(and(inArray(sources.id, sourceIds), isNotNull(sources.leaseUntil)));
}

/** Gives leased sources back untouched, for the next runner. */
export async function releaseSourceLeases(db: Db, sourceIds: number[]): Promise<void> {
  if (sourceIds.length === 0) return;
  await db.update(sources).set({ leaseUntil: null }).where(inArray(sources.id, sourceIds));
}
