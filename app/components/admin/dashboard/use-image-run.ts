import { useState } from "react";
import { useRevalidator } from "react-router";
import { toast } from "sonner";
import { followJob, useFollowedJob } from "~/app/components/admin/job-poll";
import type { JobView } from "~/jobs/types";
import { endToast, parseFollowedRun, type FollowedRun, type PanelToast, type RunKind } from "./image-messages";

// The run this tab started is kept for the tab, so a reload knows which button started it and still
// shows its end, even when the run finished while the page was reloading.
const STORAGE_KEY = "oddwire.image-run";

/** Starts following a run the action has just queued. */
export function followRun(run: FollowedRun) {
  followJob(STORAGE_KEY, run);
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
  const [finished, setFinished] = useState<FinishedRun | null>(null);
  const revalidator = useRevalidator();
  const found: FollowedRun | null = activeJob ? { jobId: activeJob.id, kind: "other" } : null;

  const { run, job: polled } = useFollowedJob({
    key: STORAGE_KEY,
    parse: parseFollowedRun,
    found,
    onEnd: (ended, job, detail) => {
      if (!job) console.error("Image enhancement could not be followed:", detail);
      else if (job.status === "failed") console.error("Image enhancement failed:", job.error);
      if (job) setFinished({ kind: ended.kind, job });
      showPanelToast(endToast(ended.kind, job));
      void revalidator.revalidate();
    },
  });

  const job = polled ?? (activeJob && activeJob.id === run?.jobId ? activeJob : null);
  return { run: run ? { ...run, job } : null, finished };
}
