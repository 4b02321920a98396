import { useId, useMemo, useState } from "react";
import { Link } from "react-router";
import { toast } from "sonner";
import type { ScrapeOutcome, ScrapeResult, ScrapeUrlResult } from "~/domain/ingestion/scrape-urls";
import { requestJson } from "~/app/components/admin/admin-fetch";
import { chunk, detectedUrlsLine, keptUrlsLine, parseScrapeInput, urlsToRetry } from "./scrape-input";
import { Spinner } from "./spinner";
import { ToolPanel } from "./tool-panel";
import { inputClass, linkClass, panelClass, primaryButtonClass, safeHref } from "./ui";
import type { Progress } from "~/lib/progress";

/** URLs per request: small enough that a long paste reports progress as it goes. */
const STEP = 5;

const OUTCOMES: Record<ScrapeOutcome, { label: string; className: string }> = {
  inserted: { label: "Inserted", className: "bg-green-200 text-green-900" },
  duplicate: { label: "Already a story", className: "bg-gray-200 text-gray-800" },
  previously_rejected: { label: "Previously rejected", className: "bg-yellow-200 text-yellow-900" },
  failed: { label: "Failed", className: "bg-red-100 text-alarm-ink" },
};


/** The Manual Scrape tab: pasted URLs become pending stories through our scrape endpoint. */
export function ManualScrapeTab({ sources }: { sources: { id: number; name: string }[] }) {
  const id = useId();
  const [text, setText] = useState("");
  const [sourceId, setSourceId] = useState("");
  const [progress, setProgress] = useState<Progress | null>(null);
  const [results, setResults] = useState<ScrapeUrlResult[]>([]);
  // How many URLs the last run left in the box to retry (the spec clears the box; we keep what failed).
  const [kept, setKept] = useState(0);
  const urls = useMemo(() => parseScrapeInput(text), [text]);
  const busy = progress !== null;

  const scrape = async () => {
    if (urls.length === 0) {
      toast.error("No URLs", { description: "Paste one or more valid URLs first." });
      return;
    }
    const totals = { inserted: 0, skipped: 0, failed: 0 };
    const seen: ScrapeUrlResult[] = [];
    setResults([]);
    setKept(0);
    setProgress({ done: 0, total: urls.length });
    // Whatever did not get in stays in the box, one URL per line, ready for another try.
    const keep = (untried: string[] = []) => {
      const left = urlsToRetry(seen, untried);
      setText(left.join("\n"));
      setKept(left.length);
    };
    let tried = 0;
    for (const step of chunk(urls, STEP)) {
      const answer = await requestJson<ScrapeResult>("/admin/api/scrape", {
        method: "POST",
        body: { urls: step, source_id: sourceId ? Number(sourceId) : null },
      });
      if (answer.kind !== "ok") {
        setProgress(null);
        setResults(seen);
        keep(urls.slice(tried));
        toast.error("Scrape failed", { description: answer.message || "Unknown error" });
        return;
      }
      tried += step.length;
      totals.inserted += answer.body.inserted;
      totals.skipped += answer.body.skipped;
      totals.failed += answer.body.failed;
      seen.push(...answer.body.results);
      setResults([...seen]);
      setProgress({ done: seen.length, total: urls.length });
    }
    setProgress(null);
    keep();
    toast.success(`Scrape complete: Inserted ${totals.inserted}, skipped ${totals.skipped}, failed ${totals.failed}.`);
  };

  return (
    <div className="space-y-6">
      <ToolPanel
        title="Scrape articles by URL"
        description="Paste article links, one per line or separated by commas or spaces. Each page is fetched and its story added under Pending."
        busy={busy}
        onSubmit={scrape}
      >
        <label htmlFor={`${id}-urls`} className="mt-4 block text-sm font-bold">
          URLs
        </label>
        <textarea
          id={`${id}-urls`}
          rows={7}
          value={text}
          onChange={(event) => {
            setText(event.target.value);
            setKept(0);
          }}
          readOnly={busy}
          spellCheck={false}
          aria-describedby={kept ? `${id}-count ${id}-kept` : `${id}-count`}
          placeholder={"https://example.com/odd-story\nhttps://example.org/another-odd-story"}
          className={`${inputClass} mt-1 font-mono text-sm`}
        />
        <p id={`${id}-count`} aria-live="polite" className={`mt-1 text-sm font-semibold ${urls.length ? "text-green-900" : "text-ink/70"}`}>
          {detectedUrlsLine(urls.length)}
        </p>
        {kept ? (
          <p id={`${id}-kept`} className="mt-1 text-sm font-semibold text-alarm-ink">
            {keptUrlsLine(kept)}
          </p>
        ) : null}
        <div className="mt-4 flex flex-col gap-3 sm:flex-row sm:items-end">
          <label className="block text-sm font-bold sm:w-72">
            Source (optional)
            <select value={sourceId} onChange={(event) => setSourceId(event.target.value)} disabled={busy} className={`${inputClass} mt-1`}>
              <option value="">No source</option>
              {sources.map((source) => (
                <option key={source.id} value={source.id}>
                  {source.name}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" disabled={busy} aria-busy={busy} className={primaryButtonClass}>
            {busy ? <Spinner /> : null}
            {busy ? `Scraping ${progress.total} URL(s)...` : "Scrape"}
          </button>
        </div>
        {progress ? <ScrapeProgress progress={progress} /> : null}
      </ToolPanel>
      {results.length > 0 ? <ScrapeResults results={results} finished={!busy} /> : null}
    </div>
  );
}

function ScrapeProgress({ progress }: { progress: Progress }) {
  const percent = progress.total ? Math.round((progress.done / progress.total) * 100) : 0;
  return (
    <div className="mt-4" aria-live="polite">
      <p className="text-sm font-semibold">
        Scraped {progress.done} of {progress.total} URL(s)...
      </p>
      <div
        role="progressbar"
        aria-label="Scrape progress"
        aria-valuemin={0}
        aria-valuemax={progress.total}
        aria-valuenow={progress.done}
        className="mt-1 h-2.5 overflow-hidden rounded-full border-2 border-ink bg-paper"
      >
        <div className="h-full bg-ufo transition-[width]" style={{ width: `${Math.max(percent, 4)}%` }} />
      </div>
    </div>
  );
}

function ScrapeResults({ results, finished }: { results: ScrapeUrlResult[]; finished: boolean }) {
  return (
    <section aria-labelledby="scrape-results-title" className={panelClass}>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="scrape-results-title" className="font-display text-xl font-bold">
          Results
        </h2>
        {finished ? (
          <Link to="/admin/stories" state={{ fromScrape: true }} className={linkClass}>
            Review in Stories
          </Link>
        ) : null}
      </div>
      <ul className="mt-3 divide-y-2 divide-ink/10 rounded-xl border-2 border-ink/15">
        {results.map((result, index) => {
          const outcome = OUTCOMES[result.outcome] ?? OUTCOMES.failed;
          const href = safeHref(result.url);
          return (
            <li key={`${result.url}-${index}`} className="flex flex-wrap items-start gap-x-3 gap-y-1 px-3 py-2 text-sm">
              <span className={`shrink-0 rounded-full px-2 py-0.5 text-xs font-bold ${outcome.className}`}>{outcome.label}</span>
              <span className="min-w-0 flex-1">
                {href ? (
                  <a href={href} target="_blank" rel="noopener noreferrer" className="break-all hover:underline">
                    {result.url}
                  </a>
                ) : (
                  <span className="break-all">{result.url}</span>
                )}
                {result.error ? <span className="block text-alarm-ink">{result.error}</span> : null}
              </span>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
