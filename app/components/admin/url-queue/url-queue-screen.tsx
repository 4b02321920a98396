import { useState } from "react";
import { Link, useFetcher, useRevalidator } from "react-router";
import { toast } from "sonner";
import { useConfirm } from "~/app/components/admin/confirm-dialog";
import { PageHeader } from "~/app/components/admin/page-header";
import { Notice } from "~/app/components/states";
import { useActionToast, type ActionResult } from "~/app/lib/action-toast";
import { usePageLoading } from "~/app/lib/use-page-loading";
import type { UrlQueueItem } from "~/domain/crawl/url-queue";
import { urlQueueList, type StatusChoices, type UrlQueueFilters } from "./filters";
import { URL_QUEUE_TEXT } from "./texts";
import { UrlQueueFiltersBar } from "./url-queue-filters";
import { ScrapeProgressBar, UrlQueueToolbar, type QueueIntent } from "./url-queue-toolbar";
import { UrlQueueList } from "./url-queue-list";
import { scrapeProgress, useScrapeJob } from "./use-scrape-job";

/** What the URL Que's action answers: a toast, or for a scrape the job to follow. */
export type UrlQueueAnswer = ActionResult | { ok: true; jobId: string; requested: number };

export const URL_QUEUE_PATH = "/admin/url-que";
const linkClass = "font-semibold text-ufo-deep underline decoration-2 underline-offset-2 hover:text-ink";

function EmptyQueue({ filtered }: { filtered: boolean }) {
  if (filtered) {
    return (
      <Notice title="No URLs match these filters" heading="h2">
        <p>
          Try another source or status, or clear the search.{" "}
          <Link to={URL_QUEUE_PATH} className={linkClass}>
            Show every queued URL
          </Link>
        </p>
      </Notice>
    );
  }
  return (
    <Notice title="No URLs in the queue" heading="h2">
      <p>
        Discovery on a Web Scraping source fills it: the article URLs found on the site wait here until they are scraped, rejected or deleted. Set one up
        under{" "}
        <Link to="/admin/sources" className={linkClass}>
          Sources
        </Link>
        .
      </p>
    </Notice>
  );
}

/** The URL Que: filters, the bulk actions on a selection, and the queue list. */
export function UrlQueueScreen({
  items,
  sources,
  filters,
  statuses,
  limit,
}: {
  items: UrlQueueItem[];
  sources: { id: number; name: string }[];
  filters: UrlQueueFilters;
  statuses: StatusChoices;
  limit: number;
}) {
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const confirm = useConfirm();
  const fetcher = useFetcher<UrlQueueAnswer>();
  const revalidator = useRevalidator();
  const scrape = useScrapeJob({ onFailed: () => setSelected(new Set()) });
  useActionToast(fetcher.data && "toast" in fetcher.data ? fetcher.data : undefined);

  // The selection belongs to one set of filters; a reload keeps only the rows still listed.
  const key = urlQueueList(statuses).href(filters);
  const [seen, setSeen] = useState({ key, items });
  if (seen.key !== key || seen.items !== items) {
    setSeen({ key, items });
    setSelected(seen.key !== key ? new Set() : new Set([...selected].filter((id) => items.some((item) => item.id === id))));
  }

  // A reject or delete that went through clears the selection. A scrape keeps it while its job runs,
  // so the rows in flight stay marked; the job's end leaves the page or clears it.
  const [answer, setAnswer] = useState(fetcher.data);
  if (fetcher.data !== answer) {
    setAnswer(fetcher.data);
    if (fetcher.data && "jobId" in fetcher.data) scrape.follow(fetcher.data);
    else if (fetcher.data?.ok) setSelected(new Set());
  }

  const pageLoading = usePageLoading(URL_QUEUE_PATH) !== null;
  const loading =
    pageLoading ||
    revalidator.state === "loading" ||
    fetcher.state === "loading";
  const intent = (fetcher.formData?.get("intent") as QueueIntent | null) ?? null;
  const running = scrape.run ? "scrape" : intent ?? (revalidator.state === "loading" ? "refresh" : null);
  const busy = fetcher.state !== "idle" || scrape.run !== null || revalidator.state === "loading";

  const select = (id: number, checked: boolean) =>
    setSelected((prev) => {
      const next = new Set(prev);
      if (checked) next.add(id);
      else next.delete(id);
      return next;
    });
  const submit = (action: QueueIntent, ids: number[]) => fetcher.submit({ intent: action, ids: JSON.stringify(ids) }, { method: "post" });
  const act = (action: QueueIntent) => {
    if (selected.size === 0) {
      toast.error(URL_QUEUE_TEXT.noSelection.title, { description: URL_QUEUE_TEXT.noSelection.description });
      return;
    }
    const ids = [...selected];
    // Delete asks first.
    if (action === "delete") confirm.ask({ title: "Delete URLs", message: <p>{URL_QUEUE_TEXT.confirmDelete(ids.length)}</p>, confirmLabel: "Delete", onConfirm: () => submit("delete", ids) });
    else submit(action, ids);
  };
  const filtered = filters.sourceId !== null || filters.status !== statuses.fallback || filters.q !== "";

  return (
    <>
      <PageHeader title="URL Que" description="Article URLs found on Web Scraping sources, waiting to be scraped into Pending stories." />
      <UrlQueueFiltersBar filters={filters} statuses={statuses} sources={sources} />
      <UrlQueueToolbar
        listed={items.length}
        selected={selected.size}
        limit={limit}
        loading={loading}
        busy={busy}
        running={running}
        onSelectAll={(checked) => setSelected(checked ? new Set(items.map((item) => item.id)) : new Set())}
        onRefresh={() => void revalidator.revalidate()}
        onAct={act}
      />
      {scrape.run ? <ScrapeProgressBar {...scrapeProgress(scrape.run)} /> : null}
      {items.length === 0 ? <EmptyQueue filtered={filtered} /> : <UrlQueueList items={items} selected={selected} onSelect={select} busy={loading} />}
      {confirm.dialog}
    </>
  );
}
