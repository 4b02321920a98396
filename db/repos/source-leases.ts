import { asc, gte, inArray, isNull, lte, not, or, sql, type SQL } from "drizzle-orm";
import type { Db } from "../client";
import { sources } from "../schema";
import { leasesOf } from "./leases";

/** Sources are leased to one runner at a time (feed ingestion, URL discovery): see leases.ts. */
export const sourceLeases = (db: Db) => leasesOf<typeof sources, number>(db, sources, sources.id);

export type ClaimSourcesInput = {
  /** Every source of the kind ("all"), or those whose next check is due. */
  scope: "all" | "due";
  now: Date;
  leaseUntil: Date;
  sourceIds?: number[];
  /** A run taken up again after its process died: sources it already finished (fetched since then) are skipped. */
  notFetchedSince?: Date | null;
};

/** The claim of sources matching `conditions` and the input's scope, oldest next check first. */
export function claimOfSources(conditions: SQL[], input: ClaimSourcesInput) {
  const where = [...conditions];
  if (input.scope === "due") where.push(or(isNull(sources.nextCheckAt), lte(sources.nextCheckAt, input.now))!);
  if (input.sourceIds) where.push(inArray(sources.id, input.sourceIds.length ? input.sourceIds : [-1]));
  if (input.notFetchedSince) where.push(or(isNull(sources.lastFetchedAt), not(gte(sources.lastFetchedAt, input.notFetchedSince)))!);
  return { where, now: input.now, until: input.leaseUntil, orderBy: [sql`${sources.nextCheckAt} ASC NULLS FIRST`, asc(sources.id)] };
}
