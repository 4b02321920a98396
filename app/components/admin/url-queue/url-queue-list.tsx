import { ExternalIcon } from "~/app/components/icons";
import { formatDate, formatTime } from "~/app/lib/format";
import type { UrlQueueItem } from "~/domain/crawl/url-queue";

// The colours of the Stories page's badges: waiting is yellow (pending), done is green (published), failed is red.
const BADGE: Record<UrlQueueItem["status"], string> = {
  queued: "bg-yellow-200 text-yellow-900",
  scraped: "bg-green-200 text-green-900",
  failed: "bg-red-100 text-alarm-ink",
};

export function QueueStatusBadge({ status }: { status: UrlQueueItem["status"] }) {
  return <span className={`inline-block rounded-full px-2 py-0.5 text-xs font-bold ${BADGE[status]}`}>{status}</span>;
}

/** lastmod as the URL Que shows it: 'MMM d, yyyy HH:mm' (UTC, as every back-office date). */
export function formatLastmod(iso: string | null): string {
  const date = formatDate(iso);
  return date ? `${date} ${formatTime(iso)}` : "";
}

/**
 * The queue list: at most 60% of the viewport high and scrolled inside; each row's
 * checkbox is named by its URL, which opens in a new tab.
 */
export function UrlQueueList({
  items,
  selected,
  onSelect,
  busy,
}: {
  items: UrlQueueItem[];
  selected: ReadonlySet<number>;
  onSelect: (id: number, checked: boolean) => void;
  busy: boolean;
}) {
  return (
    <div className={`mt-3 max-h-[60vh] overflow-auto rounded-2xl border-2 border-ink bg-white transition-opacity ${busy ? "opacity-60" : ""}`} aria-busy={busy}>
      <table className="w-full border-collapse text-left text-sm">
        <caption className="sr-only">URLs in the queue</caption>
        <thead className="sticky top-0 z-10 bg-paper-deep text-xs tracking-wide text-ink/80 uppercase">
          <tr>
            <th scope="col" className="w-10 px-4 py-2.5">
              <span className="sr-only">Selected</span>
            </th>
            <th scope="col" className="px-2 py-2.5">
              URL
            </th>
            <th scope="col" className="hidden px-3 py-2.5 whitespace-nowrap sm:table-cell">
              Last modified
            </th>
            <th scope="col" className="hidden px-3 py-2.5 sm:table-cell">
              Source
            </th>
            <th scope="col" className="px-4 py-2.5">
              Status
            </th>
          </tr>
        </thead>
        <tbody>
          {items.map((item) => {
            const linkId = `queue-url-${item.id}`;
            const checked = selected.has(item.id);
            const lastmod = formatLastmod(item.lastmod);
            const lastmodCell = lastmod ? <time dateTime={item.lastmod ?? undefined}>{lastmod}</time> : <span className="text-ink/60">No date</span>;
            const sourceCell = item.sourceName ?? <span className="text-ink/60">No source</span>;
            return (
              <tr key={item.id} className={`border-t border-ink/15 align-top ${checked ? "bg-acid/25" : "hover:bg-paper"}`}>
                <td className="px-4 py-3">
                  <input
                    type="checkbox"
                    aria-labelledby={linkId}
                    checked={checked}
                    onChange={(event) => onSelect(item.id, event.target.checked)}
                    className="mt-0.5 h-4 w-4 accent-ufo"
                  />
                </td>
                <td className="px-2 py-3 sm:min-w-[16rem]">
                  <a
                    href={item.url}
                    target="_blank"
                    rel="noopener noreferrer"
                    className="font-semibold break-all text-ufo-deep underline decoration-ufo-deep/30 decoration-2 underline-offset-2 hover:text-ink hover:decoration-ink"
                  >
                    <span id={linkId}>{item.url}</span>
                    <ExternalIcon className="ml-1 inline h-3.5 w-3.5 align-[-2px] text-ink/50" />
                    <span className="sr-only"> (opens in a new tab)</span>
                  </a>
                  {/* On a phone the date and source sit under the URL instead of in their own columns. */}
                  <p className="mt-1 text-xs text-ink/70 sm:hidden">
                    {lastmodCell} · {sourceCell}
                  </p>
                  {item.error ? <p className="mt-1 text-xs break-words text-alarm-ink">{item.error}</p> : null}
                </td>
                <td className="hidden px-3 py-3 whitespace-nowrap text-ink/80 tabular-nums sm:table-cell">{lastmodCell}</td>
                <td className="hidden px-3 py-3 sm:table-cell">{sourceCell}</td>
                <td className="px-4 py-3">
                  <QueueStatusBadge status={item.status} />
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
