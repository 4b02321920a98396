import { useEffect, useRef, useState } from "react";
import type { JobView } from "~/jobs/types";
import { requestJson } from "./admin-fetch";

const POLL_MS = 500;
/** Polls that may fail in a row (a restarting server, a dropped connection) before the job is given up. */
const MAX_POLL_FAILURES = 20;

/** How a watched job ended: its last view, or null when it could not be read to its end (`detail` says why). */
export type JobEnd = (job: JobView | null, detail: unknown) => void;

/**
 * Follows a background job through GET /admin/api/jobs/:id until it ends, then calls `onEnd` once.
 * Answers the job's latest view while it runs (null before the first answer).
 */
export function useJobPoll(jobId: string | null, onEnd: JobEnd): JobView | null {
  const [job, setJob] = useState<JobView | null>(null);
  // A ref keeps the poll loop from restarting when the caller's callback changes.
  const ended = useRef(onEnd);
  useEffect(() => {
    ended.current = onEnd;
  });

  useEffect(() => {
    if (!jobId) return;
    let stopped = false;
    let failures = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const finish = (finished: JobView | null, detail: unknown) => {
      stopped = true;
      ended.current(finished, detail);
    };
    const poll = async () => {
      const answer = await requestJson<JobView>(`/admin/api/jobs/${encodeURIComponent(jobId)}`);
      if (stopped) return;
      if (answer.kind === "ok") {
        failures = 0;
        setJob(answer.body);
        if (answer.body.status === "succeeded" || answer.body.status === "failed" || answer.body.status === "cancelled") {
          finish(answer.body, answer.body.error ?? answer.body);
          return;
        }
      } else if (answer.kind === "error" && (answer.status === 404 || answer.status === 403 || answer.status === 401)) {
        finish(null, `job ${jobId}: ${answer.status} ${answer.message ?? ""}`.trim());
        return;
      } else if (++failures >= MAX_POLL_FAILURES) {
        finish(null, `job ${jobId}: no answer after ${failures} tries (${answer.message ?? "unknown error"})`);
        return;
      }
      timer = setTimeout(() => void poll(), POLL_MS);
    };
    void poll();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [jobId]);

  return job && job.id === jobId ? job : null;
}
