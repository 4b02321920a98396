import { useFetcher } from "react-router";
import { useConfirm } from "~/app/components/admin/confirm-dialog";
import { ExternalIcon } from "~/app/components/icons";
import type { ActionResult } from "~/app/lib/action-toast";
import { formatDate, formatTime, plural } from "~/app/lib/format";
import { SOURCE_TYPE_LABELS, type SourceType } from "~/domain/sources/source-form";
import type { SourceView } from "~/domain/sources/sources";
import type { SourceYield } from "~/domain/triage/yield";
import { DiscoverButton, DiscoveryLastRun, QueuedNow } from "./source-discovery";
import { SourceYieldLine } from "./source-yield";
import { linkClass, safeHref, secondaryButtonClass } from "./ui";

const STATUS_BADGE: Record<SourceView["status"], string> = {
  active: "border-green-200 bg-green-200 text-green-900",
  inactive: "border-gray-200 bg-gray-200 text-gray-800",
  error: "border-alarm-ink bg-alarm-ink text-white",
};
// An active (or inactive) source whose last run failed is in trouble: its badge says so.
const FAILING_BADGE = "border-alarm-ink bg-red-50 text-alarm-ink";

/** The status badge: the source's status, and 'failing' beside it when its last run failed. */
function StatusBadge({ source }: { source: SourceView }) {
  const failing = source.status !== "error" && source.health.failing;
  return (
    <Badge className={failing ? FAILING_BADGE : STATUS_BADGE[source.status]}>
      <span className="sr-only">Status: </span>
      {source.status}
      {failing ? ", failing" : null}
    </Badge>
  );
}
const TYPE_BADGE: Record<SourceType, string> = {
  rss: "border-orange-700 bg-orange-50 text-orange-900",
  web_scraping: "border-ufo-deep text-ufo-deep bg-ufo/5",
  manual: "border-ink/60 text-ink bg-paper",
};

function Badge({ className, children }: { className: string; children: React.ReactNode }) {
  return <span className={`inline-flex items-center rounded-full border-2 px-2 py-0.5 text-xs font-bold ${className}`}>{children}</span>;
}

function ExternalLink({ label, url }: { label: string; url: string | null }) {
  const href = safeHref(url);
  if (!href) return null;
  return (
    <div className="flex min-w-0 items-baseline gap-2 text-sm">
      <dt className="shrink-0 font-bold">{label}</dt>
      <dd className="min-w-0">
        <a href={href} target="_blank" rel="noopener noreferrer" className={`${linkClass} inline-flex max-w-full items-center gap-1`}>
          <span className="truncate">{href.replace(/^https?:\/\//i, "")}</span>
          <ExternalIcon className="h-3.5 w-3.5 shrink-0" />
          <span className="sr-only"> (opens in a new tab)</span>
        </a>
      </dd>
    </div>
  );
}

function Chips({ label, words, tone }: { label: string; words: string[]; tone: "include" | "exclude" }) {
  if (words.length === 0) return null;
  const colour = tone === "include" ? "bg-acid/60 border-ink/30" : "bg-red-50 border-alarm-ink/40 text-alarm-ink";
  return (
    <div className="flex flex-wrap items-center gap-1.5 text-sm">
      <span className="font-bold">{label}</span>
      <ul className="flex flex-wrap gap-1.5" aria-label={`${label} keywords`}>
        {words.map((w) => (
          <li key={w} className={`rounded-full border px-2 py-0.5 text-xs font-semibold ${colour}`}>
            {w}
          </li>
        ))}
      </ul>
    </div>
  );
}

function when(iso: string) {
  return (
    <time dateTime={iso} className="whitespace-nowrap">
      {`${formatDate(iso)} ${formatTime(iso)} UTC`}
    </time>
  );
}

function Health({ source, yieldFigures, days }: { source: SourceView; yieldFigures: SourceYield | null; days: number }) {
  const { health, discovery } = source;
  // In error, or failing now: the last error is the first thing to read, not a footnote.
  const error = health.lastError && (source.status === "error" || health.failing);
  return (
    <div className="rounded-xl bg-paper px-3 py-2 text-sm">
      <dl className="grid gap-x-6 gap-y-1 sm:grid-cols-2">
        {/* A Web Scraping source is fetched by its discoveries: the last one stands for its last fetch. */}
        {discovery ? (
          <div>
            <dt className="inline font-bold">Last discovery: </dt>
            <dd className="inline">{discovery.lastRun ? when(discovery.lastRun.at) : "Never run"}</dd>
          </div>
        ) : (
          <div>
            <dt className="inline font-bold">Last fetched: </dt>
            <dd className="inline">{health.lastFetchedAt ? when(health.lastFetchedAt) : "Never fetched"}</dd>
          </div>
        )}
        {source.sourceType !== "manual" ? (
          <div>
            <dt className="inline font-bold">Checked every: </dt>
            <dd className="inline">{plural(source.pollIntervalMinutes, "minute", "minutes")}</dd>
          </div>
        ) : null}
        {discovery ? <QueuedNow sourceId={source.id} count={discovery.queuedNow} /> : null}
      </dl>
      <div className="mt-1">
        <SourceYieldLine figures={yieldFigures} days={days} />
      </div>
      {discovery?.lastRun ? <DiscoveryLastRun run={discovery.lastRun} /> : null}
      {health.lastError && !error ? (
        <p className="mt-1 text-ink/70">
          <span className="font-bold">Last error:</span> {health.lastError}
        </p>
      ) : null}
      {error ? (
        <div className="mt-2 rounded-lg border-2 border-alarm-ink bg-red-50 px-3 py-2 text-alarm-ink">
          <p className="font-bold">
            {source.status === "error" ? "Last error" : "Last run failed"}
            {health.consecutiveErrors > 1 ? ` (${health.consecutiveErrors} failures in a row)` : ""}:
          </p>
          <p className="break-words">{health.lastError}</p>
        </div>
      ) : null}
    </div>
  );
}

// One fetcher for every card's Delete, shared through its key: its toast is shown by the page, which
// outlives the card that disappears on success.
export const DELETE_FETCHER = "source-delete";

/** One source: badges, links, keywords, notes, health, and its Edit and Delete buttons (and Discover now for Web Scraping). */
export function SourceCard({
  source,
  categoryName,
  yieldFigures,
  days,
  onEdit,
}: {
  source: SourceView;
  categoryName: string | null;
  yieldFigures: SourceYield | null;
  days: number;
  onEdit: () => void;
}) {
  const fetcher = useFetcher<ActionResult>({ key: DELETE_FETCHER });
  const deleting = fetcher.state !== "idle" && fetcher.formData?.get("sourceId") === String(source.id);
  const confirm = useConfirm();
  return (
    <li
      aria-labelledby={`source-${source.id}-name`}
      className={`flex flex-col gap-3 rounded-2xl border-2 bg-white p-5 ${source.status === "error" || source.health.failing ? "border-alarm-ink" : "border-ink"} ${deleting ? "opacity-60" : ""}`}
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <h2 id={`source-${source.id}-name`} className="min-w-0 font-display text-xl font-bold break-words">
          {source.name}
        </h2>
        <div className="flex shrink-0 gap-1.5">
          <StatusBadge source={source} />
          <Badge className={TYPE_BADGE[source.sourceType]}>
            <span className="sr-only">Type: </span>
            {SOURCE_TYPE_LABELS[source.sourceType]}
          </Badge>
        </div>
      </div>
      {source.websiteUrl || source.rssFeedUrl ? (
        <dl className="space-y-1">
          <ExternalLink label="Website" url={source.websiteUrl} />
          <ExternalLink label="Feed" url={source.rssFeedUrl} />
        </dl>
      ) : null}
      {categoryName ? (
        <p className="text-sm">
          <span className="font-semibold">Stories go to:</span> {categoryName}
        </p>
      ) : null}
      <Chips label="Include" words={source.includeKeywords} tone="include" />
      <Chips label="Exclude" words={source.excludeKeywords} tone="exclude" />
      {source.notes ? <p className="text-sm whitespace-pre-line text-ink/80">{source.notes}</p> : null}
      {/* Health and actions sit at the bottom, so they line up across a row of cards. */}
      <div className="mt-auto space-y-3">
        <Health source={source} yieldFigures={yieldFigures} days={days} />
        <div className="flex flex-wrap items-center gap-2">
          <button type="button" onClick={onEdit} className={secondaryButtonClass}>
            Edit<span className="sr-only"> {source.name}</span>
          </button>
          <button
            type="button"
            disabled={deleting}
            onClick={() =>
              confirm.ask({
                title: "Delete source",
                message: <p>{`Delete "${source.name}"? Its stories, rejected stories, and logs are removed too. This cannot be undone.`}</p>,
                confirmLabel: "Delete",
                onConfirm: () => void fetcher.submit({ intent: "delete", sourceId: String(source.id) }, { method: "post" }),
              })
            }
            className={`${secondaryButtonClass} border-alarm-ink text-alarm-ink hover:bg-alarm-ink hover:text-white`}
          >
            {deleting ? "Deleting..." : "Delete"}
            <span className="sr-only"> {source.name}</span>
          </button>
          {source.sourceType === "web_scraping" ? <DiscoverButton source={source} /> : null}
        </div>
      </div>
      {confirm.dialog}
    </li>
  );
}
