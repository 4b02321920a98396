/**
 * A source being ingested or discovered is leased to its runner for 30 s, renewed every 10 s while
 * the run goes on: the sources of a runner that died (kill -9, a lost machine) are free again within
 * half a minute, while a live runner keeps what it holds. A job that takes up a dead runner's work
 * waits that long first (jobs/runner.ts), so it finds the sources free.
 */
export const SOURCE_LEASE_MS = 30_000;
export const SOURCE_LEASE_RENEW_MS = 10_000;

/** Shorter leases, for tests that kill a runner and watch its work taken up again. */
export type SourceLeaseTimes = { leaseMs?: number; leaseRenewMs?: number };
