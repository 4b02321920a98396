import { formatCount, formatDate } from "~/app/lib/format";
import type { SourceYield } from "~/domain/triage/yield";

/** A publish rate as the editor reads it: one decimal under 10% (where the desk's sources mostly are), whole above. */
export function formatRate(rate: number): string {
  const percent = rate * 100;
  if (percent === 0) return "0%";
  // Published, but less than would show: never "0.0%" for a source that did yield something.
  if (percent < 0.05) return "<0.1%";
  if (percent < 9.95) return `${percent.toFixed(1)}%`;
  return `${Math.round(percent)}%`;
}

/**
 * A source's yield over the window, in one line: items brought in, published, rejected, still
 * pending, the publish rate, and its last published story (at any time).
 */
export function SourceYieldLine({ figures, days }: { figures: SourceYield | null; days: number }) {
  const last = figures?.lastPublishedAt ? (
    <>
      last published <time dateTime={figures.lastPublishedAt}>{formatDate(figures.lastPublishedAt)}</time>
    </>
  ) : (
    "never published"
  );
  return (
    <div className="text-sm" aria-describedby="yield-note">
      <span className="font-bold">Yield, last {days} days: </span>
      {!figures || figures.broughtIn === 0 ? (
        <span>nothing brought in · {last}</span>
      ) : (
        <span>
          {formatCount(figures.broughtIn)} brought in · {formatCount(figures.published)} published · {formatCount(figures.rejected)} rejected · {formatCount(figures.pending)} pending ·{" "}
          <strong className="whitespace-nowrap">{formatRate(figures.publishRate ?? 0)} published</strong> · <span className="whitespace-nowrap">{last}</span>
        </span>
      )}
    </div>
  );
}
