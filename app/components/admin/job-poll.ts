import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from "react";
import type { JobView } from "~/jobs/types";
import { requestJson } from "./admin-fetch";
import { readStorage, writeStorage } from "./browser-storage";
import { useActionToast, type ActionResult } from "~/app/lib/action-toast";

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

// A job a tab follows is kept in sessionStorage, so that a reload, or a move to another page that shows
// it, follows it again. One event tells every follower in the tab that something kept has changed.
const FOLLOWED_CHANGED = "oddwire:followed-job-changed";

function subscribeToFollowed(onChange: () => void) {
  window.addEventListener(FOLLOWED_CHANGED, onChange);
  return () => window.removeEventListener(FOLLOWED_CHANGED, onChange);
}

/** A followed job as kept: its id and whatever its page needs to tell its end (which button started it...). */
export type FollowedJob = { jobId: string };

/** Starts following a job this tab has just queued, under `key` (a hook's `follow` does the same). */
export function followJob<Run extends FollowedJob>(key: string, run: Run | null): void {
  writeStorage("session", key, run ? JSON.stringify(run) : null);
  window.dispatchEvent(new Event(FOLLOWED_CHANGED));
}

/** A kept run as its page reads it (its id already checked), or null when it is not one of its runs. */
export type ParseFollowed<Run extends FollowedJob> = (value: FollowedJob & Record<string, unknown>) => Run | null;

/** A run kept by nothing but its id. */
const idOnly: ParseFollowed<FollowedJob> = (value) => ({ jobId: value.jobId });

/** What is kept under a key, as its page reads it; null when nothing is, or something that is not one of its runs. */
export function readFollowed<Run extends FollowedJob>(text: string | null, parse: ParseFollowed<Run>): Run | null {
  try {
    const value = JSON.parse(text ?? "null") as unknown;
    if (!value || typeof value !== "object" || typeof (value as FollowedJob).jobId !== "string" || (value as FollowedJob).jobId === "") return null;
    return parse(value as FollowedJob & Record<string, unknown>);
  } catch {
    return null;
  }
}

/**
 * The one way a screen follows a background job it started: kept under `key` in sessionStorage (so a
 * reload follows it again), polled until it ends, then forgotten and `onEnd` told once. `found` is a
 * job the page's data names as running (another editor's, or this tab's before the reload), followed
 * when the tab keeps none; once ended here it is not followed again, though the data may still name
 * it until it is reloaded. `parse` is read again whenever it changes: pass one defined once, outside
 * the component.
 */
export function useFollowedJob<Run extends FollowedJob>(options: {
  key: string;
  /** How the page reads what it keeps beside the id; by default it keeps the id alone. */
  parse?: ParseFollowed<Run>;
  onEnd: (run: Run, job: JobView | null, detail: unknown) => void;
  found?: Run | null;
}): { run: Run | null; job: JobView | null; follow: (run: Run) => void } {
  const { key } = options;
  const parse = options.parse ?? (idOnly as ParseFollowed<Run>);
  // The server has no sessionStorage: it renders what the page's data says, and the browser adds what it kept.
  const text = useSyncExternalStore(subscribeToFollowed, () => readStorage("session", key), () => null);
  const stored = useMemo(() => readFollowed(text, parse), [text, parse]);
  const [ended, setEnded] = useState<ReadonlySet<string>>(() => new Set());
  const found = options.found ?? null;
  const run = stored && !ended.has(stored.jobId) ? stored : found && !ended.has(found.jobId) ? found : null;

  const job = useJobPoll(run?.jobId ?? null, (finished, detail) => {
    if (!run) return;
    setEnded((before) => new Set(before).add(run.jobId));
    if (stored?.jobId === run.jobId) followJob(key, null);
    options.onEnd(run, finished, detail);
  });
  const follow = useCallback((next: Run) => followJob(key, next), [key]);
  return { run, job, follow };
}

/**
 * What a button that starts background work does with its action's answer: follows the job it
 * answered with (`{ ok, jobId }`), or shows the toast of a refusal.
 */
export function useFollowAnswer(answer: { ok: true; jobId: string } | ActionResult | undefined, follow: (run: FollowedJob) => void): void {
  const answeredJob = answer && "jobId" in answer ? answer.jobId : null;
  useEffect(() => {
    if (answeredJob) follow({ jobId: answeredJob });
  }, [answeredJob, follow]);
  useActionToast(answer && !("jobId" in answer) ? answer : undefined);
}
