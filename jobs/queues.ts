import type PgBoss from "pg-boss";

// The queues pg-boss keeps for the job runner: one per kind of job and one per minute poll.

export const QUEUE_SCHEMA = "pgboss";
export const POLL_QUEUES = ["rss-poll", "crawl-poll", "triage-poll"] as const;
export type PollQueue = (typeof POLL_QUEUES)[number];
// No automatic retries: a manual run reports its failure, and the poll simply runs again.
export const QUEUES: PgBoss.Queue[] = [
  { name: "rss-ingestion", policy: "standard", retryLimit: 0, expireInSeconds: 2 * 60 * 60 },
  { name: "crawl-discovery", policy: "standard", retryLimit: 0, expireInSeconds: 2 * 60 * 60 },
  { name: "scrape-queue", policy: "standard", retryLimit: 0, expireInSeconds: 2 * 60 * 60 },
  { name: "enhance-images", policy: "standard", retryLimit: 0, expireInSeconds: 4 * 60 * 60 },
  // A scheduled post waits up to 30 days for its time (domain/social MAX_SCHEDULE_DAYS): kept a little longer.
  { name: "facebook-post", policy: "standard", retryLimit: 0, expireInSeconds: 10 * 60, retentionMinutes: 32 * 24 * 60 },
  { name: "triage", policy: "standard", retryLimit: 0, expireInSeconds: 60 * 60 },
  // stately: at most one poll waiting and one running, so slow cycles never pile up.
  ...POLL_QUEUES.map((name): PgBoss.Queue => ({ name, policy: "stately", retryLimit: 0, expireInSeconds: 60 * 60, retentionMinutes: 10 })),
];

// One step, one queue at a time: concurrent createQueue calls can deadlock (40P01).
export async function ensureQueues(boss: PgBoss): Promise<void> {
  for (const queue of QUEUES) {
    for (let attempt = 1; ; attempt++) {
      try {
        if (await boss.getQueue(queue.name)) await boss.updateQueue(queue.name, queue);
        else await boss.createQueue(queue.name, queue);
        break;
      } catch (error) {
        // Another worker booting at the same moment; its queue is as good as ours.
        if (attempt >= 3 || (error as { code?: string }).code !== "40P01") throw error;
        await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
      }
    }
  }
}
