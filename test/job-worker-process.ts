/**
 * A worker process for tests that kill one mid-job (see test/job-worker.ts), over the database its
 * environment names (DATABASE_URL), with leases of LEASE_MS. It says
 * "worker ready" on stdout once it takes jobs, then each job's progress, and runs until it is killed.
 */
import { openDatabase } from "~/db/client";
import { startTestWorker } from "./job-worker";

const database = await openDatabase({ databaseUrl: process.env.DATABASE_URL!, poolSize: 4 });
await startTestWorker(database, {
  leaseMs: Number(process.env.LEASE_MS ?? 2_000),
  logLevel: process.env.LOG_LEVEL ?? "warn",
  // The test reads how far the job got (what it has stored) from these lines.
  onProgress: ({ jobId, done, total }) => process.stdout.write(`progress ${jobId} ${done}/${total}\n`),
});
process.stdout.write("worker ready\n");
