import { Spinner } from "~/app/components/admin/sources/spinner";
import type { JobView } from "~/jobs/types";
import { progressLine, runningCounts } from "./image-messages";

/** A run's progress while it goes: processed of total, the counts so far, and Cancel. */
export function ImageRunProgress({ job, cancelling, onCancel }: { job: JobView | null; cancelling: boolean; onCancel: () => void }) {
  const counts = job ? runningCounts(job) : null;
  const total = counts?.total ?? null;
  const percent = total ? Math.round(((counts?.done ?? 0) / total) * 100) : 0;
  const stopping = cancelling || job?.cancelRequested === true;
  return (
    <div className="mt-4 rounded-xl border-2 border-ink bg-paper px-4 py-3">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p role="status" className="flex items-center gap-2 text-sm font-bold">
          <Spinner className="h-3.5 w-3.5" />
          {progressLine(job)}
        </p>
        <button
          type="button"
          onClick={onCancel}
          disabled={stopping || !job}
          aria-busy={cancelling}
          className="inline-flex items-center gap-2 rounded-full border-2 border-alarm-ink bg-white px-4 py-1.5 text-sm font-bold text-alarm-ink hover:bg-alarm-ink hover:text-white disabled:cursor-not-allowed disabled:opacity-60 disabled:hover:bg-white disabled:hover:text-alarm-ink"
        >
          {cancelling ? <Spinner className="h-3.5 w-3.5" /> : null}
          {stopping ? "Cancelling..." : "Cancel"}
        </button>
      </div>
      <div
        role="progressbar"
        aria-label="Image enhancement progress"
        aria-valuemin={0}
        aria-valuemax={total ?? undefined}
        aria-valuenow={total ? counts?.done : undefined}
        aria-valuetext={total ? `${counts?.done ?? 0} of ${total} stories` : undefined}
        className="mt-2 h-2.5 overflow-hidden rounded-full border-2 border-ink bg-white"
      >
        <div className={`h-full bg-ufo transition-[width] duration-300 ${total ? "" : "animate-pulse"}`} style={{ width: `${total ? Math.max(percent, 3) : 100}%` }} />
      </div>
      <ul aria-label="Counts so far" className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-sm">
        <li>
          <span className="font-bold">{counts?.enhanced ?? 0}</span> enhanced
        </li>
        <li>
          <span className="font-bold">{counts?.failed ?? 0}</span> failed
        </li>
        <li>
          <span className="font-bold">{counts?.skipped ?? 0}</span> skipped
        </li>
      </ul>
      <p className="mt-1 text-xs text-ink/70">The run goes on if you leave this page; each story is saved as it finishes.</p>
    </div>
  );
}
