import { useEffect, useRef } from "react";
import { Spinner } from "~/app/components/admin/sources/spinner";
import { plural } from "~/app/lib/format";

export type QueueIntent = "scrape" | "reject" | "delete";

const button =
  "inline-flex items-center gap-2 rounded-full border-2 border-ink px-4 py-1.5 text-sm font-bold disabled:cursor-not-allowed disabled:opacity-50";
const plainButton = `${button} bg-white hover:bg-acid disabled:hover:bg-white`;
const scrapeButton = `${button} bg-ink text-acid hover:bg-ufo-deep hover:text-white disabled:hover:bg-ink disabled:hover:text-acid`;
const deleteButton = `${button} border-alarm-ink bg-white text-alarm-ink hover:bg-alarm-ink hover:text-white disabled:hover:bg-white disabled:hover:text-alarm-ink`;

/** The select-all box (checked, mixed or clear) for the rows listed now. */
function SelectAll({ listed, selected, onChange }: { listed: number; selected: number; onChange: (checked: boolean) => void }) {
  const ref = useRef<HTMLInputElement>(null);
  const all = listed > 0 && selected === listed;
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = selected > 0 && !all;
  }, [selected, all]);
  return (
    <label className="flex items-center gap-2 font-semibold">
      <input ref={ref} type="checkbox" checked={all} disabled={listed === 0} onChange={(event) => onChange(event.target.checked)} className="h-4 w-4 accent-ufo" />
      Select all
    </label>
  );
}

/** The line over the list: select all, the counts, and Refresh, Scrape, Reject and Delete Selected. */
export function UrlQueueToolbar({
  listed,
  selected,
  limit,
  loading,
  busy,
  running,
  onSelectAll,
  onRefresh,
  onAct,
}: {
  listed: number;
  selected: number;
  limit: number;
  loading: boolean;
  /** An action is on its way: the buttons wait. */
  busy: boolean;
  /** Which action is on its way, for its spinner. */
  running: QueueIntent | "refresh" | null;
  onSelectAll: (checked: boolean) => void;
  onRefresh: () => void;
  onAct: (intent: QueueIntent) => void;
}) {
  return (
    <div className="mt-5 flex flex-wrap items-center gap-x-4 gap-y-3 text-sm">
      <SelectAll listed={listed} selected={selected} onChange={onSelectAll} />
      <p className="text-ink/70" aria-live="polite">
        {loading ? (
          <span className="inline-flex items-center gap-2">
            <Spinner className="h-3.5 w-3.5" /> Loading URLs...
          </span>
        ) : (
          <>
            {plural(listed, "URL", "URLs")} listed{listed >= limit ? ` (the first ${limit}: narrow the filters to see the rest)` : ""}
            {selected > 0 ? <span className="font-semibold text-ink"> · {selected} selected</span> : null}
          </>
        )}
      </p>
      <div className="ml-auto flex flex-wrap gap-2">
        <button type="button" onClick={onRefresh} disabled={busy} className={plainButton}>
          {running === "refresh" ? <Spinner className="h-3.5 w-3.5" /> : null}
          Refresh
        </button>
        <button type="button" onClick={() => onAct("scrape")} disabled={busy} className={scrapeButton}>
          {running === "scrape" ? <Spinner className="h-3.5 w-3.5" /> : null}
          Scrape Selected ({selected})
        </button>
        <button type="button" onClick={() => onAct("reject")} disabled={busy} className={plainButton}>
          {running === "reject" ? <Spinner className="h-3.5 w-3.5" /> : null}
          Reject Selected ({selected})
        </button>
        <button type="button" onClick={() => onAct("delete")} disabled={busy} className={deleteButton}>
          {running === "delete" ? <Spinner className="h-3.5 w-3.5" /> : null}
          Delete Selected ({selected})
        </button>
      </div>
    </div>
  );
}

/** The scrape's progress while its job runs: the spec's line and a bar. */
export function ScrapeProgressBar({ done, total, line }: { done: number; total: number; line: string }) {
  const percent = total > 0 ? Math.round((done / total) * 100) : 0;
  return (
    <div role="status" className="mt-4 rounded-2xl border-2 border-ink bg-white px-4 py-3 shadow-[4px_4px_0_0_var(--color-ink)]">
      <p className="flex items-center gap-2 text-sm font-bold">
        <Spinner className="h-3.5 w-3.5" />
        {line}
      </p>
      <div
        role="progressbar"
        aria-label="Scrape progress"
        aria-valuemin={0}
        aria-valuemax={total}
        aria-valuenow={done}
        className="mt-2 h-2.5 overflow-hidden rounded-full border-2 border-ink bg-paper"
      >
        <div className="h-full bg-ufo transition-[width] duration-300" style={{ width: `${Math.max(percent, 3)}%` }} />
      </div>
      <p className="mt-2 text-xs text-ink/70">New stories land under Stories, Pending; the page goes there when the scrape is done.</p>
    </div>
  );
}
