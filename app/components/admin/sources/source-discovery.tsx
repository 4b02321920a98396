import { Link, useFetcher, useRevalidator } from "react-router";
import { toast } from "sonner";
import { plural } from "~/app/lib/format";
import type { DiscoveryStats } from "~/db/schema";
import type { SourceView } from "~/domain/sources/sources";
import { discoveryJobKey, discoveryProgressLine, discoveryToast, type DiscoverAnswer } from "./discovery-messages";
import { useFollowAnswer, useFollowedJob } from "~/app/components/admin/job-poll";
import { Spinner } from "./spinner";
import { linkClass, secondaryButtonClass } from "./ui";

/** 'Discover now' on a Web Scraping card: queues the source's discovery, shows its progress, then the outcome's toast. */
export function DiscoverButton({ source }: { source: SourceView }) {
  const fetcher = useFetcher<DiscoverAnswer>();
  const revalidator = useRevalidator();
  // The source's running discovery is followed across reloads and tab switches.
  const { run, job, follow } = useFollowedJob({
    key: discoveryJobKey(source.id),
    onEnd: (_run, finished, detail) => {
      void revalidator.revalidate();
      const message = discoveryToast(finished, source.id);
      if (message.tone === "success") toast.success(message.title, { description: message.description });
      else {
        if (!finished) console.error("Discovery could not be followed:", detail);
        toast.error(message.title, { description: message.description });
      }
    },
  });
  useFollowAnswer(fetcher.data, follow);

  const running = fetcher.state !== "idle" || run !== null;
  return (
    <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
      <button
        type="button"
        disabled={running}
        aria-busy={running}
        onClick={() => fetcher.submit({ intent: "discover", sourceId: String(source.id) }, { method: "post" })}
        className={`${secondaryButtonClass} border-ufo-deep text-ufo-deep hover:bg-ufo-deep hover:text-white disabled:cursor-not-allowed disabled:hover:bg-transparent disabled:hover:text-ufo-deep`}
      >
        {running ? <Spinner className="h-3.5 w-3.5" /> : null}
        {running ? "Discovering..." : "Discover now"}
        <span className="sr-only"> {source.name}</span>
      </button>
      <p aria-live="polite" className="text-sm text-ink/70">
        {running ? discoveryProgressLine(job) : null}
      </p>
    </div>
  );
}

/** The 'Queued now' entry of a Web Scraping card's health list, leading to those URLs in the URL Que. */
export function QueuedNow({ sourceId, count }: { sourceId: number; count: number }) {
  return (
    <div>
      <dt className="inline font-bold">Queued now: </dt>
      <dd className="inline">
        <Link to={`/admin/url-que?source=${sourceId}`} className={linkClass}>
          {plural(count, "URL", "URLs")}
          <span className="sr-only"> in the URL Que</span>
        </Link>
      </dd>
    </div>
  );
}

/** The counts of a Web Scraping source's last discovery, with its problems behind a disclosure. */
export function DiscoveryLastRun({ run }: { run: DiscoveryStats }) {
  return (
    <div className="mt-1">
      <p>
        <span className="font-bold">Last run: </span>
        {plural(run.found, "URL", "URLs")} found, {run.queued} newly queued, {run.skippedRobots} skipped by robots.txt, {run.skippedKnown} already known
        {run.skippedFiltered > 0 ? `, ${run.skippedFiltered} filtered out` : ""}
        {run.errors.length === 0 ? "; no errors." : "."}
      </p>
      {run.errors.length > 0 ? (
        <details className="text-alarm-ink">
          <summary className="cursor-pointer font-bold">{plural(run.errors.length, "error", "errors")}</summary>
          <ul className="mt-1 list-disc space-y-0.5 pl-5 break-words">
            {run.errors.map((error, i) => (
              <li key={i}>{error}</li>
            ))}
          </ul>
        </details>
      ) : null}
    </div>
  );
}
