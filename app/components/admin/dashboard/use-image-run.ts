import { useMemo, useState, useSyncExternalStore } from "react";
import { useRevalidator } from "react-router";
import { toast } from "sonner";
import { readStorage, writeStorage } from "~/app/components/admin/browser-storage";
import { useJobPoll } from "~/app/components/admin/job-poll";
import type { JobView } from "~/jobs/types";
import { endToast, parseFollowedRun, type FollowedRun, type PanelToast, type RunKind } from "./image-messages";

// The run this tab started lives in sessionStorage, so a reload knows which button started it and
// still shows its end, even when the run finished while the page was reloading.
const STORAGE_KEY = "oddwire.image-run";
const CHANGED = "oddwire:image-run-changed";

function subscribe(onChange: () => void) {
  window.addEventListener(CHANGED, onChange);
  return () => window.removeEventListener(CHANGED, onChange);
}

function storeRun(run: FollowedRun | null) {
  writeStorage("session", STORAGE_KEY, run ? JSON.stringify(run) : null);
  window.dispatchEvent(new Event(CHANGED));
}

/** Starts following a run the action has just queued. */
export function followRun(run: FollowedRun) {
  storeRun(run);
}

/** Shows one of the panel's toasts for as long as the spec says; one with an `id` replaces its earlier self rather than stacking. */
export function showPanelToast(message: PanelToast, id?: string) {
  const show = message.tone === "error" ? toast.error : message.tone === "info" ? toast.info : toast.success;
  show(message.title, { description: message.description, duration: message.duration, ...(id ? { id } : {}) });
}

/** A finished run this page saw end, for the panel's last-run summary. */
export type FinishedRun = { kind: RunKind; job: JobView };

/**
 * Follows the image enhancement run of this tab, or the one the loader found going (another
 * editor's, or this tab's before a reload), until it ends: then the end toast and a reload of the
 * page's data, since the count of stories needing work has changed.
 */
export function useImageRun(activeJob: JobView | null) {
  // The server has no sessionStorage: it renders the loader's run, and the browser adds what it kept.
  const storedText = useSyncExternalStore(subscribe, () => readStorage("session", STORAGE_KEY), () => null);
  const stored = useMemo(() => parseFollowedRun(storedText), [storedText]);
  // Runs already ended here: the loader may still name one until its data is reloaded.
  const [ended, setEnded] = useState<ReadonlySet<string>>(() => new Set());
  const [finished, setFinished] = useState<FinishedRun | null>(null);
  const revalidator = useRevalidator();

  const run: FollowedRun | null =
    stored && !ended.has(stored.jobId) ? stored : activeJob && !ended.has(activeJob.id) ? { jobId: activeJob.id, kind: "other" } : null;

  const polled = useJobPoll(run?.jobId ?? null, (job, detail) => {
    if (!run) return;
    setEnded((prev) => new Set(prev).add(run.jobId));
    if (stored?.jobId === run.jobId) storeRun(null);
    if (!job) console.error("Image enhancement could not be followed:", detail);
    else if (job.status === "failed") console.error("Image enhancement failed:", job.error);
    if (job) setFinished({ kind: run.kind, job });
    showPanelToast(endToast(run.kind, job));
    void revalidator.revalidate();
  });

  const job = polled ?? (activeJob && activeJob.id === run?.jobId ? activeJob : null);
  return { run: run ? { ...run, job } : null, finished };
}
