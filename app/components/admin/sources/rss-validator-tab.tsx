import { useState } from "react";
import { toast } from "sonner";
import type { RssValidationResult } from "~/domain/ingestion/validate-feed";
import { formatCount, formatDate, formatTime } from "~/app/lib/format";
import { ExternalIcon } from "~/app/components/icons";
import { requestJson } from "~/app/components/admin/admin-fetch";
import { ToolPanel, UrlSubmitRow } from "./tool-panel";
import { linkClass, panelClass, safeHref } from "./ui";
import { validationOutcome } from "./validation-outcome";

/** The spec shows at most this many sample articles. */
const MAX_SAMPLES = 5;

/** The RSS Validator tab: checks a feed URL through our guarded endpoint and shows the result card. */
export function RssValidatorTab() {
  const [url, setUrl] = useState("");
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ url: string; result: RssValidationResult } | null>(null);

  const validate = async () => {
    const rssUrl = url.trim();
    if (!rssUrl) {
      toast.error("URL Required", { description: "Please enter an RSS feed URL to validate." });
      return;
    }
    setBusy(true);
    const answer = await requestJson<RssValidationResult>("/admin/api/validate-feed", { method: "POST", body: { rssUrl } });
    const outcome = validationOutcome(answer);
    setBusy(false);
    setResult({ url: rssUrl, result: outcome.result });
    if (outcome.toast.tone === "success") toast.success(outcome.toast.title, { description: outcome.toast.description });
    else toast.error(outcome.toast.title, { description: outcome.toast.description });
  };

  return (
    <div className="space-y-6">
      <ToolPanel
        title="Validate an RSS feed"
        description="Check that a feed can be read before you add it as a source. RSS, Atom and JSON Feed are understood."
        busy={busy}
        onSubmit={validate}
      >
        <UrlSubmitRow
          id="rss-validator-url"
          label="Feed URL"
          value={url}
          onChange={setUrl}
          placeholder="https://example.com/feed.xml"
          busy={busy}
          idleLabel="Validate Feed"
          busyLabel="Validating..."
        />
      </ToolPanel>
      {result ? <ValidationCard url={result.url} result={result.result} /> : null}
    </div>
  );
}

function ValidationCard({ url, result }: { url: string; result: RssValidationResult }) {
  const samples = result.sample.slice(0, MAX_SAMPLES);
  return (
    <section aria-labelledby="rss-validation-title" className={`${panelClass} ${result.ok ? "" : "border-alarm-ink shadow-[4px_4px_0_0_var(--color-alarm-ink)]"}`}>
      <div className="flex flex-wrap items-center gap-3">
        <h2 id="rss-validation-title" className="font-display text-xl font-bold">
          {result.ok ? "Valid feed" : "Not a valid feed"}
        </h2>
        <span className={`rounded-full px-2.5 py-0.5 text-xs font-bold uppercase ${result.ok ? "bg-green-200 text-green-900" : "bg-red-100 text-alarm-ink"}`}>
          {result.ok ? "Valid" : "Invalid"}
        </span>
        {result.type ? <span className="rounded-full bg-paper-deep px-2.5 py-0.5 text-xs font-bold uppercase">{result.type}</span> : null}
      </div>
      <p className="mt-1 text-sm break-all text-ink/70">{url}</p>
      {!result.ok && result.error ? (
        <p role="alert" className="mt-3 rounded-lg border-2 border-alarm-ink/40 bg-red-50 px-3 py-2 text-sm font-semibold text-alarm-ink">
          {result.error}
        </p>
      ) : null}
      <dl className="mt-4 grid gap-x-6 gap-y-3 text-sm sm:grid-cols-2 xl:grid-cols-3">
        {result.ok ? (
          <>
            <Fact label="Type">{result.type || "Unknown"}</Fact>
            <Fact label="Items">{formatCount(result.info.itemsCount)}</Fact>
            <Fact label="Last updated">{dateAndTime(result.info.lastUpdated) || result.info.lastUpdated || "Not given"}</Fact>
            <Fact label="Title" wide>
              {result.info.title || "None"}
            </Fact>
            <Fact label="Description" wide>
              {result.info.description || "None"}
            </Fact>
          </>
        ) : null}
        <Fact label="Content type">{result.meta.contentType || "Unknown"}</Fact>
        <Fact label="Size">{`${formatCount(result.meta.bytes)} bytes`}</Fact>
        {!result.ok ? <Fact label="Error code">{<code className="rounded bg-paper-deep px-1.5 py-0.5 font-mono">{result.code ?? "UNKNOWN"}</code>}</Fact> : null}
      </dl>
      {result.ok ? (
        <div className="mt-5">
          <h3 className="text-sm font-bold tracking-wide text-ink/70 uppercase">Sample articles</h3>
          {samples.length === 0 ? (
            <p className="mt-2 text-sm text-ink/70">The feed has no items yet.</p>
          ) : (
            <ol className="mt-2 divide-y-2 divide-ink/10 rounded-xl border-2 border-ink/15">
              {samples.map((item, index) => (
                <SampleRow key={`${item.link ?? ""}-${index}`} item={item} />
              ))}
            </ol>
          )}
        </div>
      ) : null}
    </section>
  );
}

function SampleRow({ item }: { item: RssValidationResult["sample"][number] }) {
  const href = safeHref(item.link);
  const title = item.title?.trim() || item.link || "Untitled";
  return (
    <li className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 px-3 py-2">
      {href ? (
        <a href={href} target="_blank" rel="noopener noreferrer" className={`${linkClass} inline-flex items-baseline gap-1`}>
          {title}
          <ExternalIcon className="h-3.5 w-3.5 shrink-0 self-center" />
          <span className="sr-only"> (opens in a new tab)</span>
        </a>
      ) : (
        <span className="font-semibold">{title}</span>
      )}
      {item.pubDate ? <span className="text-xs whitespace-nowrap text-ink/70">{dateAndTime(item.pubDate) || item.pubDate}</span> : null}
    </li>
  );
}

function Fact({ label, children, wide = false }: { label: string; children: React.ReactNode; wide?: boolean }) {
  return (
    <div className={wide ? "sm:col-span-2 xl:col-span-3" : undefined}>
      <dt className="text-xs font-bold tracking-wide text-ink/60 uppercase">{label}</dt>
      <dd className="mt-0.5 break-words">{children}</dd>
    </div>
  );
}

/** 'MMM d, yyyy HH:mm' for a date the browser can read; empty otherwise. */
function dateAndTime(value: string | null): string {
  const date = formatDate(value);
  return date ? `${date} ${formatTime(value)}` : "";
}
